from __future__ import annotations

from django.db import connection
from django.http import HttpRequest, JsonResponse

from memories.preflight import cheap_checks


def health(request: HttpRequest) -> JsonResponse:
    """Liveness: 200 once the service answers and its database does; /health proves nothing
    more (seed 000 §12: never accept an upgrade on it)."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except Exception:  # noqa: BLE001 - any database failure means "not healthy"
        return JsonResponse({"status": "unavailable", "database": False}, status=503)
    return JsonResponse({"status": "ok", "database": True})


def ready(request: HttpRequest) -> JsonResponse:
    """Readiness: the cheap preflight (database, extensions, tables, vector width against the
    configured embedder). 503 tells a load balancer to send this node nothing, e.g. while its
    embedder configuration disagrees with the table after a re-embedding."""
    checks = cheap_checks()
    ready_now = all(check.ok for check in checks)
    body = {
        "status": "ready" if ready_now else "unavailable",
        "checks": {check.name: {"ok": check.ok, "detail": check.detail} for check in checks},
    }
    return JsonResponse(body, status=200 if ready_now else 503)
