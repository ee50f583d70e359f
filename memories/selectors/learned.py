"""What agents learned lately, for the user to confirm or forget, and the past texts of a
memory its change trail can restore."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.db.models import DateTimeField
from django.db.models.fields.json import KT
from django.db.models.functions import Cast
from django.utils import timezone

from memories.models import AuditEvent
from memories.selectors.rows import live_rows, memory_owned_row, to_record
from memories.types import MemoryRecord, MemoryScope, Source

# "最近记住的": what agents wrote on their own (a run's explicit write, a task's ingest) in
# the last week; the user's own adds, imports and staff's need no second look.
LEARNED_DAYS = 7
LEARNED_SOURCES = (Source.MANAGE.value, Source.INGEST.value)
LEARNED_SHOWN = 8


@dataclass(frozen=True)
class RecentlyLearned:
    items: tuple[MemoryRecord, ...]  # newest first, at most ``LEARNED_SHOWN``
    unreviewed: int  # all of them, shown or not


def memories_recently_learned(
    *, scope: MemoryScope, days: int = LEARNED_DAYS, limit: int = LEARNED_SHOWN
) -> RecentlyLearned:
    """The scope's current memories agents wrote in the last ``days`` that the user has not
    confirmed yet (no ``reviewed_at``), newest first, and how many there are."""
    since = timezone.now() - timedelta(days=days)
    rows = (
        live_rows(scope)
        .defer("vector")
        .alias(
            src=KT("payload__source"),
            reviewed=KT("payload__reviewed_at"),
            created=Cast(KT("payload__created_at"), DateTimeField()),
        )
        .filter(src__in=LEARNED_SOURCES, reviewed__isnull=True, created__gte=since)
        .order_by("-created", "-id")
    )
    return RecentlyLearned(items=tuple(to_record(r) for r in rows[:limit]), unreviewed=rows.count())


def unreviewed_count(*, scope: MemoryScope) -> int:
    """How many memories agents learned lately wait for the user's look (the nav's count)."""
    return memories_recently_learned(scope=scope, limit=0).unreviewed


def memory_past_text(*, scope: MemoryScope, memory_id: str, event_id: int) -> str:
    """The text one entry of the memory's trail holds as a version: what an ADD wrote, or what
    a text-changing UPDATE replaced; "" when the entry is not this memory's (in this scope)
    or holds none."""
    memory_owned_row(scope=scope, memory_id=memory_id)  # raises not found / forbidden
    event = AuditEvent.objects.filter(
        id=event_id,
        memory_id=memory_id,
        tenant_id=scope.tenant_id,
        user_id=scope.user_id,
        event__in=(AuditEvent.Event.ADD, AuditEvent.Event.UPDATE),
    ).first()
    if event is None:
        return ""
    if event.event == AuditEvent.Event.ADD:
        return event.new_text
    return event.old_text if event.old_text != event.new_text else ""
