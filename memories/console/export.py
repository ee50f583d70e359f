"""导出我的记忆: the signed-in user's memories as a JSON or CSV download."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_GET

from memories.console.views import console_login_required
from memories.ops import portability
from memories.scope import scope_for_user


@console_login_required
@require_GET
def memory_export(request: HttpRequest, kind: str) -> HttpResponse:
    return portability.export_download(scope=scope_for_user(request.user), kind=kind)
