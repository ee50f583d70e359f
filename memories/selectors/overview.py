"""What a scope's overview shows: counts and trends, topics, the user's switches, pinned
memories and how often agents were given each memory."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import connection
from django.db.models import Count, F, Max, QuerySet
from django.db.models.fields.json import KT
from django.db.models.functions import TruncDate
from django.utils import timezone

from memories import instants
from memories.models import (
    CHANGE_EVENTS,
    AuditEvent,
    EntityRow,
    MemoryRow,
    MemorySettings,
    MemoryUse,
)
from memories.recall.live import live_condition, scope_condition
from memories.selectors.rows import (
    ENTITY_TABLE,
    MEMORY_TABLE,
    live_rows,
    rows_with_status,
    scope_rows,
    to_record,
)
from memories.types import MemoryRecord, MemoryScope, StatusFilter

# The trend's length, and how far back the cards' "added" and "updated" counts reach.
OVERVIEW_TREND_DAYS = 90
RECENT_DAYS = 30


@dataclass(frozen=True)
class DailyActivity:
    day: str
    adds: int
    updates: int
    deletes: int


@dataclass(frozen=True)
class Overview:
    total: int
    added_30d: int
    updated_30d: int
    last_changed_at: datetime | None
    sources: dict[str, int]
    categories: dict[str, int]
    daily: tuple[DailyActivity, ...]


def memory_overview(*, scope: MemoryScope, now: datetime | None = None) -> Overview:
    now = now or timezone.now()
    # Superseded and expired memories are history, not memory: the cards, sources and
    # categories count what the agent may still recall.
    rows = rows_with_status(scope_rows(scope), StatusFilter.ACTIVE, now=now)
    total = rows.count()
    sources = {
        str(r["src"] or "manage"): int(r["n"])
        for r in rows.annotate(src=KT("payload__source")).values("src").annotate(n=Count("id"))
    }
    categories = {
        str(r["cat"] or "fact"): int(r["n"])
        for r in rows.annotate(cat=KT("payload__category")).values("cat").annotate(n=Count("id"))
    }
    events = AuditEvent.objects.filter(
        tenant_id=scope.tenant_id, user_id=scope.user_id, event__in=CHANGE_EVENTS
    )
    recent = events.filter(created_at__gte=now - timedelta(days=RECENT_DAYS))
    last = events.exclude(event=AuditEvent.Event.NOOP).aggregate(last=Max("created_at"))["last"]
    first_day = instants.service_day(now - timedelta(days=OVERVIEW_TREND_DAYS - 1))
    counts: dict[tuple[str, str], int] = {}
    for r in (
        events.filter(created_at__gte=instants.day_start(first_day))
        .annotate(day=TruncDate("created_at", tzinfo=instants.service_zone()))
        .values("day", "event")
        .annotate(n=Count("id"))
    ):
        counts[(r["day"].isoformat(), r["event"])] = int(r["n"])
    daily = []
    for offset in range(OVERVIEW_TREND_DAYS):
        day = (first_day + timedelta(days=offset)).isoformat()
        daily.append(
            DailyActivity(
                day=day,
                adds=counts.get((day, "ADD"), 0),
                updates=counts.get((day, "UPDATE"), 0),
                deletes=counts.get((day, "DELETE"), 0),
            )
        )
    # The cards count memories that exist now, so they agree with the total (after a
    # delete-all: 0 beside 0, never "0 memories, 17 added"); the trend counts changes. Both
    # read the audit trail, the same clock as the history the person sees.
    current = recent.filter(memory_id__in=rows.values("id"))
    return Overview(
        total=total,
        added_30d=current.filter(event=AuditEvent.Event.ADD).values("memory_id").distinct().count(),
        updated_30d=(
            current.filter(event=AuditEvent.Event.UPDATE).values("memory_id").distinct().count()
        ),
        last_changed_at=last,
        sources=sources,
        categories=categories,
        daily=tuple(daily),
    )


@dataclass(frozen=True)
class Topic:
    id: str
    text: str
    kind: str
    memory_count: int


# Only live memories count for a topic: history (superseded, expired, or past its day before
# the sweep marks it) links none. Entities have no scope column: their payload names the scope.
_TOPIC_LINKS = f"""
            FROM {ENTITY_TABLE} e
            JOIN LATERAL jsonb_array_elements_text(e.payload->'linked_memory_ids') AS link(mid)
              ON true
            JOIN {MEMORY_TABLE} m
              ON m.id::text = link.mid AND {scope_condition("m")} AND {live_condition("m")}
            WHERE e.payload->>'user_id' = %s"""


def topic_heatmap(*, scope: MemoryScope, limit: int = 40) -> tuple[Topic, ...]:
    """Entities ranked by how many of the scope's active memories link to them."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"""
            SELECT e.id, e.payload->>'data', coalesce(e.payload->>'entity_type', ''),
                   count(m.id) AS n{_TOPIC_LINKS}
            GROUP BY e.id
            ORDER BY n DESC, e.payload->>'data'
            LIMIT %s
            """,
            [scope.key, scope.key, limit],
        )
        return tuple(
            Topic(id=str(r[0]), text=str(r[1]), kind=str(r[2]), memory_count=int(r[3]))
            for r in cursor.fetchall()
        )


def topic_count(*, scope: MemoryScope) -> int:
    """How many topics link at least one of the scope's active memories (the heat map shows a
    few)."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"""
            SELECT count(DISTINCT e.id){_TOPIC_LINKS}
            """,
            [scope.key, scope.key],
        )
        row = cursor.fetchone()
        return int(row[0]) if row else 0


def topic_memory_ids(*, scope: MemoryScope, topic: str) -> list[str]:
    """Ids of the scope's memories linked to the topic (entity id or its exact text)."""
    entities = EntityRow.objects.alias(
        owner=KT("payload__user_id"), text=KT("payload__data")
    ).filter(owner=scope.key)
    entities = entities.filter(id=topic) if _is_uuid(topic) else entities.filter(text=topic)
    ids: set[str] = set()
    for entity in entities.defer("vector"):
        ids.update(entity.linked_memory_ids)
    return sorted(ids)


def _is_uuid(value: str) -> bool:
    try:
        uuid.UUID(value)
    except ValueError:
        return False
    return True


@dataclass(frozen=True)
class Switches:
    memory_save_enabled: bool
    memory_reference_enabled: bool


def memory_switches(*, scope: MemoryScope) -> Switches:
    row = MemorySettings.objects.filter(tenant_id=scope.tenant_id, user_id=scope.user_id).first()
    if row is None:
        return Switches(memory_save_enabled=True, memory_reference_enabled=True)
    return Switches(
        memory_save_enabled=row.memory_save_enabled,
        memory_reference_enabled=row.memory_reference_enabled,
    )


def _pinned_rows(scope: MemoryScope) -> QuerySet[MemoryRow]:
    """The scope's current memories marked "always use" (a superseded or expired one keeps its
    mark for when it is current again, but is never injected)."""
    return live_rows(scope).filter(payload__pinned=True)


def pinned_count(*, scope: MemoryScope) -> int:
    return _pinned_rows(scope).count()


def memories_pinned(*, scope: MemoryScope, limit: int = 10) -> tuple[MemoryRecord, ...]:
    """The scope's pinned current memories, the most recently pinned first."""
    rows = (
        _pinned_rows(scope)
        .alias(pinned_at=KT("payload__pinned_at"))
        .order_by(F("pinned_at").desc(nulls_last=True), "id")
        .defer("vector")[:limit]
    )
    return tuple(to_record(row) for row in rows)


@dataclass(frozen=True)
class MemoryUseStats:
    """How often and when last a memory was recalled by a search or injected as context."""

    recalled_count: int = 0
    last_recalled_at: datetime | None = None
    injected_count: int = 0
    last_injected_at: datetime | None = None

    @property
    def total(self) -> int:
        return self.recalled_count + self.injected_count

    @property
    def last_used_at(self) -> datetime | None:
        times = [t for t in (self.last_recalled_at, self.last_injected_at) if t is not None]
        return max(times) if times else None


NEVER_USED = MemoryUseStats()


def memory_uses(*, scope: MemoryScope, memory_ids: Sequence[str]) -> dict[str, MemoryUseStats]:
    """The use counts of ``memory_ids`` that belong to ``scope``, by id (absent: never used)."""
    if not memory_ids:
        return {}
    rows = MemoryUse.objects.filter(
        tenant_id=scope.tenant_id, user_id=scope.user_id, memory_id__in=list(memory_ids)
    )
    return {
        str(row.memory_id): MemoryUseStats(
            recalled_count=row.recalled_count,
            last_recalled_at=row.last_recalled_at,
            injected_count=row.injected_count,
            last_injected_at=row.last_injected_at,
        )
        for row in rows
    }


def memory_use(*, scope: MemoryScope, memory_id: str) -> MemoryUseStats:
    return memory_uses(scope=scope, memory_ids=[memory_id]).get(memory_id, NEVER_USED)
