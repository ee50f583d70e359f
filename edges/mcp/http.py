"""Streamable HTTP at ``/mcp``: the SDK's Starlette app behind one gate of ours.

The gate answers before any MCP message is read: a Host outside ``ALLOWED_HOSTS`` or an Origin
that is neither one of those hosts nor in ``CSRF_TRUSTED_ORIGINS`` (DNS rebinding), a missing or
wrong service token (401), missing or malformed scope headers (400), a token bound to other
tenants (403, recorded), a body over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` (413) or one whose JSON
repeats a key or nests too deep (400) — each in the project's one error shape. Stateless mode:
every POST stands alone, so any replica can answer it, and any other method is 405 (the
streamable HTTP transport lets a server offer no GET event stream).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.http.request import split_domain_port, validate_host
from django.utils.http import is_same_domain
from mcp.server.context import ServerRequestContext
from mcp.server.transport_security import TransportSecuritySettings
from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from edges.contract.errors import error_body
from edges.contract.parsers import ambiguous_json
from edges.mcp.connection import Connection, ConnectionRefused, connection_from_headers
from edges.mcp.server import build_server, in_thread

MCP_PATH = "/mcp"
LOCAL_HOSTS = [".localhost", "127.0.0.1", "[::1]"]  # what Django allows in DEBUG with no list


def allowed_hosts() -> list[str]:
    return settings.ALLOWED_HOSTS or (LOCAL_HOSTS if settings.DEBUG else [])


def host_allowed(host: str) -> bool:
    domain, _ = split_domain_port(host)
    return bool(domain) and validate_host(domain, allowed_hosts())


def origin_allowed(origin: str) -> bool:
    """Django's rules for a trusted origin: exact or ``scheme://*.domain`` entries of
    CSRF_TRUSTED_ORIGINS, or an origin on one of the allowed hosts."""
    if origin in settings.CSRF_TRUSTED_ORIGINS:
        return True
    parts = urlsplit(origin)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return False
    for trusted in settings.CSRF_TRUSTED_ORIGINS:
        pattern = urlsplit(trusted)
        wildcard = "*" in pattern.netloc and pattern.scheme == parts.scheme
        if wildcard and is_same_domain(parts.netloc, pattern.netloc.lstrip("*")):
            return True
    return host_allowed(parts.netloc)


def check_request(headers: Headers) -> Connection:
    if not host_allowed(headers.get("host", "")):
        raise ConnectionRefused(421, "invalid_host", "this Host is not served here")
    origin = headers.get("origin")
    if origin and not origin_allowed(origin):
        raise ConnectionRefused(403, "invalid_origin", "this Origin is not trusted")
    return connection_from_headers(headers)


class McpGate:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        try:
            headers = Headers(scope=scope)
            # In a thread: refusing a token for a tenant writes the refusal to the database.
            await in_thread(lambda: check_request(headers))
            if scope["method"] != "POST":
                # Stateless: no event stream for a GET to hold open (the SDK's stays open,
                # empty, as long as the client waits), no session for a DELETE to end.
                raise ConnectionRefused(
                    405, "method_not_allowed", "/mcp answers POST only (stateless)"
                )
            body = await read_body(receive, settings.DATA_UPLOAD_MAX_MEMORY_SIZE)
            problem = ambiguous_json(body)
            if problem:
                raise ConnectionRefused(400, "malformed_json", problem)
            receive = replay(body, receive)
        except ConnectionRefused as refused:
            answer = error_body(refused.error, refused.detail, refused.fields)
            extra = {"WWW-Authenticate": "Bearer"} if refused.status == 401 else None
            if refused.status == 405:
                extra = {"Allow": "POST"}
            response = JSONResponse(answer, status_code=refused.status, headers=extra)
            await response(scope, receive, send)
            return
        except ClientGone:
            return
        await self.app(scope, receive, send)


class ClientGone(Exception):
    """The client went away before its body was read: there is no one to answer."""


async def read_body(receive: Receive, limit: int) -> bytes:
    """The whole request body, refused past ``limit`` bytes (the SDK would read any size)."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            raise ClientGone
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            raise ConnectionRefused(413, "payload_too_large", "request body too large")
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)


def replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that hands the app the body the gate has read, then the real one's messages
    (a disconnect)."""
    pending = [{"type": "http.request", "body": body, "more_body": False}]

    async def replayed() -> Any:
        return pending.pop() if pending else await receive()

    return replayed


def connection_of(ctx: ServerRequestContext[Any, Any]) -> Connection:
    """The gate has already accepted these headers; read them again for this message."""
    headers = getattr(ctx.request, "headers", None)
    if headers is None:
        raise ConnectionRefused(400, "invalid_request", "MCP over HTTP needs request headers")
    return connection_from_headers(headers)


def mcp_application() -> ASGIApp:
    """A fresh MCP app: its lifespan (which runs the SDK's session manager) may run once."""
    server = build_server(connection_of)
    app = server.streamable_http_app(
        streamable_http_path=MCP_PATH,
        stateless_http=True,
        json_response=True,
        # Host and Origin are checked by the gate with Django's own rules, so /mcp accepts
        # exactly the hosts the rest of the server does (the SDK's check knows no ".domain").
        transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
    )
    return McpGate(app)
