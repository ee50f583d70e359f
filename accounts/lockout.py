"""django-axes hooks: which address a login comes from, how many failures lock it out, and the
page a locked-out login gets."""

from __future__ import annotations

from typing import Any

from axes.attempts import get_cool_off_threshold
from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_username, get_failure_limit
from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import QuerySet, Sum
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string


def client_ip(request: HttpRequest) -> str | None:
    """REMOTE_ADDR only: uvicorn has already put the client's address there when the request
    came through a proxy named in FORWARDED_ALLOW_IPS (the launcher trusts no forwarded header
    otherwise). Reading X-Forwarded-For here would let any client pick a fresh address for
    every guess."""
    return request.META.get("REMOTE_ADDR")


class CappedHandler(AxesDatabaseHandler):
    """axes' database handler, whose lockout is per username and address
    (``AXES_FAILURE_LIMIT``), plus two wider caps within the same cool-off: failures for one
    username from any address (``LOGIN_USERNAME_FAILURE_LIMIT``: guesses spread over many
    addresses) and failures from one address for any username (``LOGIN_ADDRESS_FAILURE_LIMIT``:
    one address trying many accounts). Either cap reached locks that username, or that
    address, out like the pair's own limit does. A success clears the pair's failures only
    (axes' rule), so holding one account cannot reset the caps."""

    def get_failures(self, request: Any, credentials: dict[str, Any] | None = None) -> int:
        pair = super().get_failures(request, credentials)
        recent = AccessAttempt.objects.filter(attempt_time__gte=get_cool_off_threshold(request))
        username = get_client_username(request, credentials)
        capped = (
            username is not None
            and _failures(recent.filter(username=username)) >= settings.LOGIN_USERNAME_FAILURE_LIMIT
        ) or (
            _failures(recent.filter(ip_address=request.axes_ip_address))
            >= settings.LOGIN_ADDRESS_FAILURE_LIMIT
        )
        return max(pair, get_failure_limit(request, credentials)) if capped else pair


def _failures(attempts: QuerySet[AccessAttempt]) -> int:
    return int(attempts.aggregate(total=Sum("failures_since_start"))["total"] or 0)


def locked_out(
    request: HttpRequest, original_response: HttpResponse | None = None, credentials: Any = None
) -> HttpResponse:
    """The lockout page in the console's style and language; 429 like axes' own answer."""
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    body = render_to_string(
        "registration/locked_out.html", {"cooloff_minutes": minutes}, request=request
    )
    return HttpResponse(body, status=429)


def not_a_password_login(request: HttpRequest, credentials: dict[str, Any] | None) -> bool:
    """Only password guesses count: a platform (OIDC) login has no password, and one the
    claims refused must not lock its address out of the password form or the next sign-in."""
    return not (credentials or {}).get("password")
