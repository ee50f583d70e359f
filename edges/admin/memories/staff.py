"""Staff as actors: who the audit trail names, and the trace a staff read leaves."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest, HttpResponse
from django.utils.text import capfirst

from memories.scope import scope_from_key
from memories.services import staff_view_record
from memories.types import Actor, ActorKind, ScopeError


def staff_actor(request: HttpRequest) -> Actor:
    return Actor(kind=ActorKind.STAFF, id=request.user.get_username())


def record_view(
    request: HttpRequest, scope_key: str, page: str, memory_id: str | None = None
) -> None:
    """Staff read this user's memories on ``page``: leave the content-free trace.
    A row whose scope cannot be read names no user to record against."""
    try:
        scope = scope_from_key(scope_key)
    except ScopeError:
        return
    staff_view_record(scope=scope, actor=staff_actor(request), page=page, memory_id=memory_id)


class ReadingLeavesATrace(admin.ModelAdmin):
    """A read-only page of one object that shows a user's memories: opening it is recorded
    (``record_reading``), never on a failed or posted request."""

    def record_reading(self, request: HttpRequest, obj: Any) -> None:
        raise NotImplementedError

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        # Titled by what it shows ("记忆"), not Django's "查看 记忆" / "View Memory".
        extra_context = {"title": capfirst(self.opts.verbose_name), **(extra_context or {})}
        response = super().change_view(request, object_id, form_url, extra_context)
        shown = (getattr(response, "context_data", None) or {}).get("original")
        if request.method == "GET" and response.status_code == 200 and shown is not None:
            self.record_reading(request, shown)
        return response
