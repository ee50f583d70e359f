from __future__ import annotations

from django.db import connection
from django.http import HttpRequest, JsonResponse


def health(request: HttpRequest) -> JsonResponse:
    """200 once the service answers and its database does; /health proves nothing more."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except Exception:  # noqa: BLE001 - any database failure means "not healthy"
        return JsonResponse({"status": "unavailable", "database": False}, status=503)
    return JsonResponse({"status": "ok", "database": True})
