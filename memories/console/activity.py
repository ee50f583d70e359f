"""When each memory last changed, read from the audit trail: the one clock the console shows
for "last changed" (the list's 更新于, the detail's 最近更新 and its history, the overview's
最近变化), so the three never disagree."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from datetime import datetime

from django.db.models import Max

from memories.console.presenters import MemoryItem
from memories.models import CHANGE_EVENTS, AuditEvent
from memories.selectors import memory_uses
from memories.types import MemoryScope


def last_changed(*, scope: MemoryScope, memory_ids: Iterable[str]) -> dict[str, datetime]:
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


def with_last_changed(scope: MemoryScope, items: list[MemoryItem]) -> list[MemoryItem]:
    """The items with ``updated_at`` taken from the audit trail (the payload's own clock only
    for a memory the trail does not know)."""
    changed = last_changed(scope=scope, memory_ids=[i.id for i in items])
    return [dataclasses.replace(i, updated_at=changed.get(i.id, i.updated_at)) for i in items]


def with_use(scope: MemoryScope, items: list[MemoryItem]) -> list[MemoryItem]:
    """The items with how often agents were given them (``use``; None when never)."""
    uses = memory_uses(scope=scope, memory_ids=[i.id for i in items])
    return [dataclasses.replace(i, use=uses.get(i.id)) for i in items]
