"""Simplified Chinese is the default; English is a choice the user makes with the switch."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_cache_control

logger = logging.getLogger(__name__)


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


def security_headers(*, https: bool) -> dict[str, str]:
    """The headers every answer of Django carries, read from the settings its middleware reads
    (SecurityMiddleware, XFrameOptionsMiddleware, ``page_headers``): for an ASGI app mounted
    beside Django, which that middleware never sees (``/mcp``)."""
    headers = {
        "Cache-Control": "no-store",
        "Content-Security-Policy": settings.CONTENT_SECURITY_POLICY,
        "X-Frame-Options": settings.X_FRAME_OPTIONS,
    }
    if settings.SECURE_CONTENT_TYPE_NOSNIFF:
        headers["X-Content-Type-Options"] = "nosniff"
    if settings.SECURE_REFERRER_POLICY:
        policy = settings.SECURE_REFERRER_POLICY
        headers["Referrer-Policy"] = policy if isinstance(policy, str) else ",".join(policy)
    if settings.SECURE_CROSS_ORIGIN_OPENER_POLICY:
        headers["Cross-Origin-Opener-Policy"] = settings.SECURE_CROSS_ORIGIN_OPENER_POLICY
    if https and settings.SECURE_HSTS_SECONDS:
        hsts = f"max-age={settings.SECURE_HSTS_SECONDS}"
        if settings.SECURE_HSTS_INCLUDE_SUBDOMAINS:
            hsts += "; includeSubDomains"
        if settings.SECURE_HSTS_PRELOAD:
            hsts += "; preload"
        headers["Strict-Transport-Security"] = hsts
    return headers


def with_security_headers(app: Callable[..., Any]) -> Callable[..., Any]:
    """An ASGI app whose HTTP answers carry ``security_headers`` (where it set none itself)."""

    async def wrapped(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await app(scope, receive, send)
            return
        extra = security_headers(https=scope.get("scheme") == "https")

        async def send_with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                present = {name.lower() for name, _ in message.get("headers", [])}
                added = [
                    (name.lower().encode("latin-1"), value.encode("latin-1"))
                    for name, value in extra.items()
                    if name.lower().encode("latin-1") not in present
                ]
                message = {**message, "headers": [*message.get("headers", []), *added]}
            await send(message)

        await app(scope, receive, send_with_headers)

    return wrapped


class DatabaseOutage:
    """Pages answer an unreachable database with a 503 "memory service unavailable" page —
    an outage, never an empty memory. (The APIs answer it in their own exception handler.)

    A value PostgreSQL refuses (a ``DataError``: a number past bigint, a NUL byte, a word that is
    not one of an enum's) is the request's fault, not an outage: 400, the console's "bad request"
    page. Either way the log names the exception's class (Django's own line says only "Service
    Unavailable" or "Bad Request")."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        from django.db import DatabaseError

        from edges.console.errors import bad_request, service_unavailable
        from memories.types import BackendError

        if not isinstance(exception, DatabaseError | BackendError):
            return None
        if _bad_input(exception):
            logger.warning(
                "bad input reaching the database on %s: %s",
                request.path,
                _classes(exception),
            )
            return bad_request(request, exception)
        logger.error("database unavailable on %s: %s", request.path, _classes(exception))
        return service_unavailable(request)


def _causes(exception: BaseException) -> list[BaseException]:
    """The exception and what it was raised from (the engine wraps the driver's error)."""
    chain: list[BaseException] = []
    current: BaseException | None = exception
    while current is not None and current not in chain:
        chain.append(current)
        current = current.__cause__
    return chain


def _bad_input(exception: BaseException) -> bool:
    import psycopg
    from django.db import DataError

    return any(isinstance(each, DataError | psycopg.DataError) for each in _causes(exception))


def _classes(exception: BaseException) -> str:
    """E.g. ``BackendError ← OperationalError``: never the message, which may hold a value."""
    return " ← ".join(type(each).__name__ for each in _causes(exception))
