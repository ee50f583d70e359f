from __future__ import annotations

import threading
import time

import psycopg
from django.contrib import admin
from django.db import DatabaseError, connection
from django.http import HttpRequest, JsonResponse

from edges.contract.auth import service_token
from edges.gate.versions import service_summary
from memories.engine.internals import Check
from memories.ops.preflight import cheap_checks

# One check at a time per process; a check that arrives while one runs takes that one's answer
# (it began after the request arrived, so it is as fresh), so a flood of /health opens at most
# one connection of its own per process at a time (README, "Connections").
_check_lock = threading.Lock()
_last_check: tuple[float, bool] = (float("-inf"), False)
FRESH_CONNECT_TIMEOUT = 3


def database_accepts() -> bool:
    """Whether PostgreSQL lets a new connection in and answers on it. A pooled connection
    proves neither: a server in smart shutdown keeps serving the sessions it has for as long as
    they last while it refuses every new one, and a restarted server leaves the pool holding
    dead connections until each is tried."""
    global _last_check
    arrived = time.monotonic()
    with _check_lock:
        started, ok = _last_check
        if started >= arrived:
            return ok
        started = time.monotonic()
        params = {**connection.get_connection_params(), "autocommit": True}
        params["connect_timeout"] = FRESH_CONNECT_TIMEOUT
        try:
            with psycopg.connect(**params) as fresh:
                fresh.execute("SELECT 1")
            ok = True
        except Exception:  # noqa: BLE001 - any database failure means "not healthy"
            ok = False
        _last_check = (started, ok)
        return ok


def health(request: HttpRequest) -> JsonResponse:
    """Liveness: 200 once the service answers and its database lets a new connection in;
    /health proves nothing more (never accept an upgrade on it)."""
    if not database_accepts():
        return JsonResponse({"status": "unavailable", "database": False}, status=503)
    return JsonResponse({"status": "ok", "database": True})


def ready(request: HttpRequest) -> JsonResponse:
    """Readiness: the cheap preflight (database, extensions, tables, vector width against the
    configured embedder). 503 tells a load balancer to send this node nothing, e.g. while its
    embedder configuration disagrees with the table after a re-embedding. The checks' details
    (server and extension versions, table names) are for operators only; a balancer or anyone
    else gets the status alone, with the same code. Operators also get ``service``: the package
    versions and the configuration summary with secrets masked (what ``memory_gate verify``
    reports as the target)."""
    if database_accepts():
        checks = cheap_checks()
    else:  # the pooled connections the checks use may still be let in: not ready all the same
        checks = [Check("database", False, "PostgreSQL refuses new connections")]
    ready_now = all(check.ok for check in checks)
    body: dict[str, object] = {"status": "ready" if ready_now else "unavailable"}
    if _operator(request):
        body["checks"] = {check.name: {"ok": check.ok, "detail": check.detail} for check in checks}
        body["service"] = service_summary()
    return JsonResponse(body, status=200 if ready_now else 503)


def _operator(request: HttpRequest) -> bool:
    """A service token not bound to tenants (as for /metrics), or a staff session the admin
    would let in (with its second factor, when that is required)."""
    keyword, _, token = request.META.get("HTTP_AUTHORIZATION", "").partition(" ")
    if keyword == "Bearer" and token.strip():
        found = service_token(token.strip(), edge="ready")
        return found is not None and found.operator
    try:
        return admin.site.has_permission(request)
    except DatabaseError:  # the session cannot be read: the node is not ready, say only that
        return False
