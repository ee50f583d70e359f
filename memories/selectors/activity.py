"""When each memory last changed, read from the audit trail: the one clock the console shows
for "last changed" (the list's 更新于, the detail's 最近更新 and its history, the overview's
最近变化), so the three never disagree."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from django.db.models import Max

from memories.models import CHANGE_EVENTS, AuditEvent
from memories.types import MemoryScope


def memories_last_changed(*, scope: MemoryScope, memory_ids: Iterable[str]) -> dict[str, datetime]:
    """memory id → time of its newest audited change (a save that changed nothing is none)."""
    rows = (
        AuditEvent.objects.filter(
            tenant_id=scope.tenant_id,
            user_id=scope.user_id,
            memory_id__in=list(memory_ids),
            event__in=CHANGE_EVENTS,
        )
        .exclude(event=AuditEvent.Event.NOOP)
        .values("memory_id")
        .annotate(last=Max("created_at"))
    )
    return {str(r["memory_id"]): r["last"] for r in rows}
