"""Simplified Chinese is the default; English is a choice the user makes with the switch."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse


def chinese_unless_chosen(
    get_response: Callable[[HttpRequest], HttpResponse],
) -> Callable[[HttpRequest], HttpResponse]:
    """Ignore the browser's Accept-Language so LocaleMiddleware falls back to the language
    cookie set by the switch, or to LANGUAGE_CODE (zh-hans)."""

    def middleware(request: HttpRequest) -> HttpResponse:
        request.META.pop("HTTP_ACCEPT_LANGUAGE", None)
        return get_response(request)

    return middleware


class DatabaseOutage:
    """Pages answer an unreachable database with a 503 "memory service unavailable" page —
    an outage, never an empty memory. (The APIs answer it in their own exception handler.)"""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        from django.db import DatabaseError
        from django.template.loader import render_to_string

        from memories.types import BackendError

        if not isinstance(exception, DatabaseError | BackendError):
            return None
        # Rendered without the request: its context processors would touch the database again.
        return HttpResponse(render_to_string("503.html"), status=503)
