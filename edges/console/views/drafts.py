"""What was typed survives signing out: the add form's and the inline editor's text is kept
in the (anonymous) session and offered back on that form's page."""

from __future__ import annotations

import functools
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.urls import Resolver404, resolve

from edges.console.views.base import HtmxHttpRequest, View, to_login
from memories import services

DRAFT_KEY = "console_draft"
# The forms whose typed text survives signing out elsewhere or an expired form: the add page
# and the inline editor (its page).
DRAFT_PAGES = ("memory_add", "memory_edit")


def keeps_draft(view: View) -> View:
    """A form sent after signing out in another tab: keep what was typed in the (anonymous)
    session, which survives signing in again, so the form's page can offer it back. Only to
    the same account: the form names who typed it."""

    @functools.wraps(view)
    def wrapper(request: HtmxHttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            page = keep_draft(request)
            if page:
                return to_login(request, page)
        return view(request, *args, **kwargs)

    return wrapper


def keep_draft(request: HttpRequest) -> str:
    """Keep the typed text of the add form or the inline editor in the session, for that form's
    page to offer back (after signing in again, or after the form was refused as expired); the
    page's address, or "" when nothing was kept."""
    text = request.POST.get("text", "") if request.method == "POST" else ""
    if not text or _url_name(request) not in DRAFT_PAGES:
        return ""
    request.session[DRAFT_KEY] = {
        "text": text[: services.MAX_FACT_LENGTH],
        "category": request.POST.get("category", ""),
        "author": request.POST.get("author", ""),
        "page": request.path,
    }
    return request.path


def _url_name(request: HttpRequest) -> str:
    """The console's name for the requested page ("" for any other)."""
    try:
        match = resolve(request.path_info, urlconf=getattr(request, "urlconf", None))
    except Resolver404:
        return ""
    return str(match.url_name) if match.namespace == "console" else ""


def restored_draft(request: HttpRequest) -> dict[str, str] | None:
    """The draft kept for this page, once, and only for the account that typed it."""
    draft = request.session.get(DRAFT_KEY)
    if not isinstance(draft, dict) or draft.get("page") != request.path:
        return None
    del request.session[DRAFT_KEY]
    return draft if draft.get("author") == request.user.get_username() else None
