"""What every console view shares: sign-in for HTMX too, the signed-in user's scope and
actor, the user's own memory by id, fragments for HTMX swaps, and where to go back to.

Every view acts for the signed-in user only: the scope comes from ``scope_for_user`` and
nothing in the URL, query string or form can widen it.  Another user's memory id answers
exactly like a missing one (404), so the console never confirms that it exists.
"""

from __future__ import annotations

import functools
import uuid
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django_htmx.http import HttpResponseClientRedirect
from django_htmx.middleware import HtmxDetails

from accounts.views import EXPIRED, with_reason
from edges.console.outcomes import Notice, keep_notice
from memories import selectors
from memories.scope import scope_for_user
from memories.types import (
    Actor,
    ActorKind,
    MemoryForbidden,
    MemoryNotFound,
    MemoryRecord,
    MemoryScope,
    ScopeError,
)


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


View = Callable[..., HttpResponse]


def console_login_required(view: View) -> View:
    """``login_required`` that also works for HTMX: a partial must not swap the login page
    into a fragment, so the browser is sent to the login page instead."""

    @functools.wraps(view)
    def wrapper(request: HtmxHttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.user.is_authenticated:
            return view(request, *args, **kwargs)
        back = request.get_full_path()
        if request.htmx:
            back = request.htmx.current_url_abs_path or back
        return to_login(request, back)

    return wrapper


def to_login(request: HtmxHttpRequest, back: str) -> HttpResponse:
    """To the login page, and from there to ``back`` (the whole page, for HTMX too); the page
    says the session expired when the browser still named one that is gone."""
    url = redirect_to_login(back).url
    if _session_gone(request):
        url = with_reason(url, EXPIRED)
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return HttpResponseRedirect(url)


def _session_gone(request: HttpRequest) -> bool:
    """The browser sent a session cookie whose session no longer exists (it expired, or the
    user signed out in another tab)."""
    key = request.COOKIES.get(settings.SESSION_COOKIE_NAME) or ""
    return bool(key) and not request.session.exists(key)


def request_scope(request: HttpRequest) -> MemoryScope:
    """The signed-in user's scope; an account whose name cannot form one (``ScopeError``, the
    refusal of every door) is refused (403), not an error."""
    try:
        return scope_for_user(request.user)
    except ScopeError as exc:
        raise PermissionDenied(str(exc)) from exc


def request_actor(request: HttpRequest) -> Actor:
    return Actor(kind=ActorKind.USER, id=request.user.get_username())


def swaps_fragment(request: HtmxHttpRequest) -> bool:
    """An HTMX swap of part of the page (a history restore asks for the whole page)."""
    return bool(request.htmx) and not request.htmx.history_restore_request


def partial(request: HtmxHttpRequest, template: str, fragment: str) -> str:
    """The fragment for an HTMX swap; the whole page otherwise (and on history restore)."""
    return f"{template}#{fragment}" if swaps_fragment(request) else template


def owned_record(scope: MemoryScope, memory_id: uuid.UUID) -> MemoryRecord | None:
    try:
        return selectors.memory_get(scope=scope, memory_id=str(memory_id))
    except (MemoryNotFound, MemoryForbidden):
        return None


def not_found(request: HtmxHttpRequest) -> HttpResponse:
    if request.htmx:
        return render(request, "console/_not_found.html", status=404)
    raise Http404(_("记忆不存在或已被删除。"))


def for_owned_memory(view: View) -> View:
    """A by-id page of the signed-in user's own memory: the view gets the scope and the record;
    an id that is unknown or another user's answers "not found"."""

    @functools.wraps(view)
    def wrapper(request: HtmxHttpRequest, memory_id: uuid.UUID) -> HttpResponse:
        scope = request_scope(request)
        record = owned_record(scope, memory_id)
        if record is None:
            return not_found(request)
        return view(request, scope, record)

    return wrapper


def detail_redirect(
    request: HtmxHttpRequest, record: MemoryRecord, shown: Notice | None
) -> HttpResponse:
    """Back to the memory's page (no HTMX), the notice shown there as a message."""
    keep_notice(request, shown)
    return redirect("console:memory_detail", memory_id=record.id)


def list_url(candidate: str) -> str:
    """``candidate`` if it is this console's list (with its filters), else ""."""
    if candidate.startswith(reverse("console:memories")) and url_has_allowed_host_and_scheme(
        candidate, allowed_hosts=None
    ):
        return candidate
    return ""


def list_to_return_to(request: HttpRequest) -> str:
    """Where a bulk action on the list's rows goes back to: the list as it was filtered."""
    return list_url(request.POST.get("next", "")) or reverse("console:memories")


def success_redirect(request: HtmxHttpRequest, url: str) -> HttpResponse:
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return HttpResponseRedirect(url)
