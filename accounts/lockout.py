"""django-axes hooks: which address a login comes from, and the page a locked-out login gets."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string


def client_ip(request: HttpRequest) -> str | None:
    """REMOTE_ADDR only: uvicorn has already put the client's address there when the request
    came through a trusted proxy (FORWARDED_ALLOW_IPS). Reading X-Forwarded-For here would let
    any client pick a fresh address for every guess."""
    return request.META.get("REMOTE_ADDR")


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
