"""Memories one at a time or a page at a time: by id, their owner, the list, a memory's history
and its neighbours, and what the periodic sweep expires."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import connection
from django.db.models import Count, DateTimeField, F, Max, Min, OuterRef, Subquery, TextField
from django.db.models.expressions import RawSQL
from django.db.models.fields.json import KT
from django.db.models.functions import Cast, Coalesce, Greatest
from django.utils import timezone

from memories.models import CHANGE_EVENTS, AuditEvent, MemoryRow, MemoryUse
from memories.recall import live
from memories.recall.live import live_condition, scope_condition
from memories.selectors.overview import topic_memory_ids
from memories.selectors.rows import (
    MEMORY_TABLE,
    memory_owned_row,
    row_tenant,
    rows_with_status,
    scope_rows,
    to_record,
)
from memories.types import (
    ListOrder,
    ListQuery,
    MemoryRecord,
    MemoryScope,
    MemoryStatus,
)


def memories_due_to_expire(*, now: datetime) -> list[tuple[str, str]]:
    """(scope key, memory id) of every memory still marked active past its ``valid_until``."""
    rows = (
        MemoryRow.objects.filter(live.stored_status_q(MemoryStatus.ACTIVE) & live.due_q(now))
        .annotate(owner=KT("payload__user_id"))
        .order_by("owner", "id")
        .values_list("owner", "id")
    )
    return [(str(owner), str(memory_id)) for owner, memory_id in rows]


def memory_get(*, scope: MemoryScope, memory_id: str) -> MemoryRecord:
    return to_record(memory_owned_row(scope=scope, memory_id=memory_id))


def memory_records(*, scope: MemoryScope, memory_ids: list[str]) -> dict[str, MemoryRecord]:
    """The scope's memories among ``memory_ids``, whatever their status, by id (one query): what
    a door adds to search hits, which carry no times (``/mem0`` answers Mem0's ``created_at``
    and ``updated_at`` with each result). An id no longer stored is absent."""
    rows = scope_rows(scope).filter(id__in=memory_ids).defer("vector")
    return {str(row.id): to_record(row) for row in rows}


def memory_owner(*, tenant_id: str, memory_id: str) -> str | None:
    """The user of ``tenant_id`` whose memory ``memory_id`` is; None when no memory of that
    tenant has the id. For a door whose by-id calls name no user (``/mem0``): it builds the
    scope from the answer, so another tenant's id stays unknown."""
    row = MemoryRow.objects.filter(id=memory_id).defer("vector").first()
    if row is None or row_tenant(row) != tenant_id:
        return None
    return row.scope_key.partition(":")[2] or None


def memory_former_owner(*, tenant_id: str, memory_id: str) -> str | None:
    """The user of ``tenant_id`` whose memory ``memory_id`` was, from its audit trail: a deleted
    memory keeps a content-free one (``DELETE`` last). None when the tenant never had the id."""
    owner = (
        AuditEvent.objects.filter(tenant_id=tenant_id, memory_id=memory_id)
        .filter(event__in=CHANGE_EVENTS)
        .order_by("-created_at", "-id")
        .values_list("user_id", flat=True)
        .first()
    )
    return str(owner) if owner else None


@dataclass(frozen=True)
class TenantUser:
    user_id: str
    total: int
    first_created_at: datetime | None
    last_created_at: datetime | None


MAX_TENANT_USERS = 1000


def tenant_users(*, tenant_id: str) -> tuple[TenantUser, ...]:
    """The users of ``tenant_id`` who have memories (any status), with their counts, by user
    id; at most ``MAX_TENANT_USERS``. For ``/mem0``'s entity list.

    Filtered and grouped on ``scope_key``, the stored copy of ``payload->>'user_id'`` with an
    index of its own (migration 0006), not on the payload's JSON."""
    rows = (
        MemoryRow.objects.annotate(owner=RawSQL(live.SCOPE_COLUMN, (), output_field=TextField()))
        .filter(owner__startswith=f"{tenant_id}:")
        .alias(created=Cast(KT("payload__created_at"), DateTimeField()))
        .values("owner")
        .annotate(total=Count("id"), first=Min("created"), last=Max("created"))
        .order_by("owner")[:MAX_TENANT_USERS]
    )
    return tuple(
        TenantUser(
            user_id=str(r["owner"]).partition(":")[2],
            total=r["total"],
            first_created_at=r["first"],
            last_created_at=r["last"],
        )
        for r in rows
    )


@dataclass(frozen=True)
class MemoryPage:
    items: tuple[MemoryRecord, ...]
    total: int
    page: int
    page_size: int

    @property
    def pages(self) -> int:
        return max(1, math.ceil(self.total / self.page_size))


# What a list asks for when the caller names nothing: the first page of the live memories.
FIRST_PAGE = ListQuery()


def memory_list(*, scope: MemoryScope, query: ListQuery = FIRST_PAGE) -> MemoryPage:
    """The page of the scope's memories that ``query`` asks for, straight from the table (works
    while the SDK is down). Its ``query`` keeps memories that contain every one of its words;
    ``status`` is ``active`` (the default), ``superseded``, ``expired`` or ``all``; ``run_id``
    keeps what one agent run wrote. ``order`` is ``created`` (newest first, the default),
    ``updated`` (last change first; a memory never updated counts from its creation), ``used``
    (most often given to agents first: recalled plus injected) or ``last_used`` (most recently
    given first); never-used memories come last, newest first."""
    rows = rows_with_status(scope_rows(scope), query.status, now=timezone.now()).defer("vector")
    if query.memory_key:
        rows = rows.alias(key=KT("payload__memory_key")).filter(key=query.memory_key)
    if query.run_id:
        rows = rows.alias(ref=KT("payload__source_ref")).filter(ref=query.run_id)
    if query.import_id:
        rows = rows.alias(imported=KT("payload__import_id")).filter(imported=query.import_id)
    terms = query.query.split()
    if terms:
        # Every whitespace-separated word must occur ("Poco 飞书" = Poco and 飞书).
        rows = rows.alias(text=KT("payload__data"))
        for term in terms:
            rows = rows.filter(text__icontains=term)
    if query.category:
        rows = rows.alias(cat=KT("payload__category")).filter(cat=query.category)
    if query.source:
        rows = rows.alias(src=KT("payload__source")).filter(src=query.source)
    if query.topic:
        rows = rows.filter(id__in=topic_memory_ids(scope=scope, topic=query.topic))
    rows = rows.alias(created=Cast(KT("payload__created_at"), DateTimeField()))
    if query.created_from is not None:
        rows = rows.filter(created__gte=query.created_from)
    if query.created_before is not None:
        rows = rows.filter(created__lt=query.created_before)
    if query.order == ListOrder.UPDATED:
        rows = rows.alias(
            changed=Coalesce(Cast(KT("payload__updated_at"), DateTimeField()), F("created"))
        ).order_by("-changed", "-id")
    elif query.order in (ListOrder.USED, ListOrder.LAST_USED):
        use = MemoryUse.objects.filter(
            memory_id=OuterRef("id"), tenant_id=scope.tenant_id, user_id=scope.user_id
        )
        if query.order == ListOrder.USED:
            rows = rows.alias(
                used=Subquery(
                    use.annotate(n=F("recalled_count") + F("injected_count")).values("n")[:1]
                )
            )
        else:
            rows = rows.alias(
                used=Subquery(
                    use.annotate(
                        last=Greatest(
                            Coalesce("last_recalled_at", "last_injected_at"),
                            Coalesce("last_injected_at", "last_recalled_at"),
                        )
                    ).values("last")[:1]
                )
            )
        rows = rows.order_by(F("used").desc(nulls_last=True), "-created", "-id")
    else:
        rows = rows.order_by("-created", "-id")
    total = rows.count()
    page, page_size = max(1, query.page), query.page_size
    start = (page - 1) * page_size
    items = tuple(to_record(r) for r in rows[start : start + page_size])
    return MemoryPage(items=items, total=total, page=page, page_size=page_size)


@dataclass(frozen=True)
class HistoryEntry:
    event: str
    old_text: str
    new_text: str
    actor_kind: str
    actor_id: str
    source: str
    run_id: str
    status: str
    created_at: datetime
    changes: dict[str, list[Any]] = field(default_factory=dict)
    id: int = 0  # the trail entry, for restoring the text it holds


def memory_history(*, scope: MemoryScope, memory_id: str) -> tuple[HistoryEntry, ...]:
    """The audit trail of one id, oldest first; the id must belong to ``scope``."""
    events = AuditEvent.objects.filter(
        memory_id=memory_id,
        tenant_id=scope.tenant_id,
        user_id=scope.user_id,
        event__in=CHANGE_EVENTS,  # a staff view is not part of what happened to the memory
    ).order_by("created_at", "id")
    if not events.exists():
        memory_owned_row(scope=scope, memory_id=memory_id)  # raises not found / forbidden
    return tuple(
        HistoryEntry(
            event=e.event,
            old_text=e.old_text,
            new_text=e.new_text,
            actor_kind=e.actor_kind,
            actor_id=e.actor_id,
            source=e.source,
            run_id=e.run_id,
            status=e.status,
            created_at=e.created_at,
            changes=e.changes,
            id=e.id,
        )
        for e in events
    )


@dataclass(frozen=True)
class RelatedMemory:
    id: str
    content: str
    score: float
    category: str


def memory_related(
    *, scope: MemoryScope, memory_id: str, limit: int = 5
) -> tuple[RelatedMemory, ...]:
    """Memories of the same scope closest to this one, by stored vectors (no re-embedding)."""
    memory_owned_row(scope=scope, memory_id=memory_id)
    with connection.cursor() as cursor:
        cursor.execute(
            f"""
            SELECT m.id, m.payload->>'data', coalesce(m.payload->>'category', 'fact'),
                   1 - (m.vector <=> src.vector) AS score
            FROM {MEMORY_TABLE} m, {MEMORY_TABLE} src
            WHERE src.id = %s AND m.id <> src.id AND {scope_condition("m")}
              AND {live_condition("m")}
            ORDER BY m.vector <=> src.vector
            LIMIT %s
            """,
            [memory_id, scope.key, limit],
        )
        return tuple(
            RelatedMemory(
                id=str(r[0]), content=str(r[1]), category=str(r[2]), score=round(float(r[3]), 4)
            )
            for r in cursor.fetchall()
        )


def scope_stored_count(*, scope: MemoryScope) -> int:
    """How many memories the scope stores, every status: one row of the size table the
    triggers of migration 0006 keep exact, not a count over the scope's memories."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT n FROM poco_memories_scope_size WHERE scope_key = %s", [scope.key])
        row = cursor.fetchone()
    return int(row[0]) if row else 0
