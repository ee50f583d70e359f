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
