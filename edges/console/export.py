"""导出我的记忆: the signed-in user's memories as a JSON or CSV download."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_GET

from edges.console.views.base import console_login_required, request_scope
from memories.ops import portability


@console_login_required
@require_GET
def memory_export(request: HttpRequest, kind: str) -> HttpResponse:
    return portability.export_download(scope=request_scope(request), kind=kind)
