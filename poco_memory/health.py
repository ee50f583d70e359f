from __future__ import annotations

from django.contrib import admin
from django.db import DatabaseError, connection
from django.http import HttpRequest, JsonResponse

from memories.contract.auth import service_token
from memories.gate.versions import service_summary
from memories.ops.preflight import cheap_checks


def health(request: HttpRequest) -> JsonResponse:
    """Liveness: 200 once the service answers and its database does; /health proves nothing
    more (never accept an upgrade on it)."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except Exception:  # noqa: BLE001 - any database failure means "not healthy"
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
    checks = cheap_checks()
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
