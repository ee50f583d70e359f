"""Simplified Chinese is the default; English is a choice the user makes with the switch."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_cache_control


def chinese_unless_chosen(
    get_response: Callable[[HttpRequest], HttpResponse],
) -> Callable[[HttpRequest], HttpResponse]:
    """Ignore the browser's Accept-Language so LocaleMiddleware falls back to the language
    cookie set by the switch, or to LANGUAGE_CODE (zh-hans)."""

    def middleware(request: HttpRequest) -> HttpResponse:
        request.META.pop("HTTP_ACCEPT_LANGUAGE", None)
        return get_response(request)

    return middleware


def page_headers(
    get_response: Callable[[HttpRequest], HttpResponse],
) -> Callable[[HttpRequest], HttpResponse]:
    """Everything past the static files shows or changes personal data: a Content-Security-Policy,
    and `Cache-Control: no-store` unless the view chose its caching (else Back shows a deleted
    memory again from the browser's cache); a 503 says when to retry."""

    def middleware(request: HttpRequest) -> HttpResponse:
        response = get_response(request)
        response.headers.setdefault("Content-Security-Policy", settings.CONTENT_SECURITY_POLICY)
        if "Cache-Control" not in response.headers:
            patch_cache_control(response, no_store=True)
        if response.status_code == 503:
            # An outage or a busy scope passes: say when to try again.
            response.headers.setdefault("Retry-After", str(settings.RETRY_AFTER_SECONDS))
        return response

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

        from memories.types import BackendError
        from poco_memory.errors import service_unavailable

        if not isinstance(exception, DatabaseError | BackendError):
            return None
        return service_unavailable(request)
