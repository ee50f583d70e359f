"""Reads. Every function takes the caller's ``MemoryScope`` and filters by it."""

from __future__ import annotations

import math
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

from django.conf import settings
from django.db import connection
from django.db.models import (
    Count,
    DateTimeField,
    F,
    Max,
    Min,
    OuterRef,
    QuerySet,
    Subquery,
    TextField,
)
from django.db.models.expressions import RawSQL
from django.db.models.fields.json import KT
from django.db.models.functions import Cast, Coalesce, Greatest, TruncDate
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from memories import governance, metrics
from memories.engine import get_engine
from memories.language import nlp
from memories.models import (
    CHANGE_EVENTS,
    AuditEvent,
    EntityRow,
    MemoryRow,
    MemorySettings,
    MemoryUse,
)
from memories.recall import live
from memories.recall.fusion import fuse
from memories.recall.live import live_condition, scope_condition
from memories.recall.query import analyse
from memories.recall.tuning import MIN_CHANNEL_POOL
from memories.types import (
    BackendError,
    Channel,
    ChannelHit,
    MemoryForbidden,
    MemoryNotFound,
    MemoryRecord,
    MemoryScope,
    MemoryStatus,
    SearchFilters,
    SearchResult,
    StatusFilter,
)

OVERVIEW_TREND_DAYS = 90
RECENT_DAYS = 30

# The tables the hand-written statements read, named by their models.
_MEMORIES = connection.ops.quote_name(MemoryRow._meta.db_table)
_ENTITIES = connection.ops.quote_name(EntityRow._meta.db_table)


def _parse_time(value: Any) -> datetime | None:
    if not isinstance(value, str):
        return None
    parsed = parse_datetime(value)
    if parsed is not None and timezone.is_naive(parsed):
        parsed = timezone.make_aware(parsed, UTC)
    return parsed


def to_record(row: MemoryRow) -> MemoryRecord:
    payload = row.payload or {}
    hidden = {"data", "hash", "text_lemmatized", "user_id", "created_at", "updated_at"}
    return MemoryRecord(
        id=str(row.id),
        content=row.content,
        scope_key=row.scope_key,
        category=row.category,
        source=row.source,
        created_at=_parse_time(payload.get("created_at")),
        updated_at=_parse_time(payload.get("updated_at")),
        metadata={k: v for k, v in payload.items() if k not in hidden},
        memory_key=str(payload.get("memory_key") or ""),
        status=governance.payload_status(payload),
        valid_until=_parse_time(payload.get("valid_until")),
        superseded_by=str(payload.get("superseded_by") or ""),
    )


def scope_rows(scope: MemoryScope) -> QuerySet[MemoryRow]:
    """Every memory of the scope, whatever its status (``memories.recall.live``)."""
    return MemoryRow.objects.filter(live.scope_q(scope.key))


def rows_with_status(
    rows: QuerySet[MemoryRow], status: str, *, now: datetime
) -> QuerySet[MemoryRow]:
    """Rows in ``status`` (a ``StatusFilter``) as readers see it at ``now``: a row past its
    ``valid_until`` is expired even before the periodic sweep marks it; rows written before
    governance (no status, no valid_until) are active (``memories.recall.live``)."""
    return rows.filter(live.status_q(status, now))


def live_rows(scope: MemoryScope) -> QuerySet[MemoryRow]:
    """The scope's memories that may be recalled, related, injected or deduplicated against."""
    return rows_with_status(scope_rows(scope), StatusFilter.ACTIVE, now=timezone.now())


def memory_active_by_key(*, scope: MemoryScope, memory_key: str) -> MemoryRow | None:
    """The one current memory of ``memory_key`` in the scope, if any."""
    return (
        live_rows(scope)
        .alias(key=KT("payload__memory_key"))
        .filter(key=memory_key)
        .defer("vector")
        .first()
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


def memory_owned_row(*, scope: MemoryScope, memory_id: str) -> MemoryRow:
    """The row if it belongs to ``scope``; ``MemoryNotFound`` / ``MemoryForbidden`` otherwise."""
    row = MemoryRow.objects.filter(id=memory_id).defer("vector").first()
    if row is None:
        raise MemoryNotFound(memory_id)
    if not live.in_scope(row.payload, scope.key):
        raise MemoryForbidden(memory_id)
    return row


def memory_get(*, scope: MemoryScope, memory_id: str) -> MemoryRecord:
    return to_record(memory_owned_row(scope=scope, memory_id=memory_id))


def memory_owner(*, tenant_id: str, memory_id: str) -> str | None:
    """The user of ``tenant_id`` whose memory ``memory_id`` is; None when no memory of that
    tenant has the id. For a door whose by-id calls name no user (``/mem0``): it builds the
    scope from the answer, so another tenant's id stays unknown."""
    row = MemoryRow.objects.filter(id=memory_id).defer("vector").first()
    if row is None:
        return None
    owner_tenant, _, owner_user = row.scope_key.partition(":")
    return owner_user if owner_tenant == tenant_id and owner_user else None


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


def memory_find_by_text(*, scope: MemoryScope, text: str) -> MemoryRecord | None:
    """A live memory of the scope with exactly this text (a superseded or expired one is
    history, not a duplicate)."""
    # ->> text equality, the form the hash index on the text answers (migration 0008).
    rows = live_rows(scope).alias(text=KT("payload__data")).filter(text=text)
    row = rows.defer("vector").first()
    return to_record(row) if row else None


_T = TypeVar("_T")

# How many nearest live memories a new fact is compared with for a semantic duplicate.
DEDUP_CANDIDATES = 5


def memory_near_duplicate(
    *, scope: MemoryScope, text: str, exclude_ids: tuple[str, ...] = ()
) -> MemoryRecord | None:
    """The live memory of the scope that ``text`` repeats (``governance.is_duplicate``: close in
    meaning and no new content word), or None. Raises ``BackendError``."""
    vector = get_engine().embed_query(text)
    [candidates] = memory_nearest_many(scope=scope, vectors=[vector], exclude_ids=exclude_ids)
    memory_id = first_duplicate(text=text, candidates=candidates)
    return memory_get(scope=scope, memory_id=memory_id) if memory_id else None


def first_duplicate(*, text: str, candidates: Sequence[tuple[_T, str, float]]) -> _T | None:
    """The first of ``candidates`` (what it is, its text, similarity; nearest first) that
    ``text`` only repeats, or None."""
    for memory_id, content, score in candidates:
        if governance.is_duplicate(
            existing=content, candidate=text, similarity=score, min_score=settings.DEDUP_MIN_SCORE
        ):
            return memory_id
    return None


def memory_nearest_many(
    *, scope: MemoryScope, vectors: list[list[float]], exclude_ids: tuple[str, ...] = ()
) -> list[list[tuple[str, str, float]]]:
    """For each vector, the scope's ``DEDUP_CANDIDATES`` nearest live memories as (id, text,
    similarity), nearest first, leaving out ``exclude_ids`` — one statement for a whole batch
    (a LATERAL top-k per vector).

    The vectors arrive as ``vector[]``: a ``text`` element cast inside the LATERAL was parsed
    again for every row it was compared with (~100 µs a row, 3 s per vector at 20,000).
    Inside a write, the rows' stored lemmas go to the write's memo (``nlp.remember_lemmas``):
    the duplicate check compares words without a jieba/spaCy pass over each memory."""
    if not vectors:
        return []
    found: list[list[tuple[str, str, float]]] = [[] for _ in vectors]
    with connection.cursor() as cursor:
        cursor.execute(
            f"""
            SELECT c.ord, n.id, n.data, n.lemmas, n.score
            FROM unnest(%s::vector[]) WITH ORDINALITY AS c(v, ord)
            CROSS JOIN LATERAL (
                SELECT m.id, m.payload->>'data' AS data,
                       m.payload->>'text_lemmatized' AS lemmas, 1 - (m.vector <=> c.v) AS score
                FROM {_MEMORIES} m
                WHERE {scope_condition("m")} AND {live_condition("m")}
                  AND NOT (m.id::text = ANY(%s::text[]))
                ORDER BY m.vector <=> c.v
                LIMIT %s
            ) n
            ORDER BY c.ord, n.score DESC
            """,
            [[str(v) for v in vectors], scope.key, list(exclude_ids), DEDUP_CANDIDATES],
        )
        rows = cursor.fetchall()
    for ordinal, memory_id, content, _, score in rows:
        found[int(ordinal) - 1].append((str(memory_id), str(content or ""), float(score)))
    nlp.remember_lemmas((str(content or ""), lemmas) for _, _, content, lemmas, _ in rows)
    return found


def memories_live_by_text(*, scope: MemoryScope, texts: list[str]) -> dict[str, list[str]]:
    """Ids of the scope's live memories with exactly one of ``texts``, by text."""
    found: dict[str, list[str]] = {}
    rows = (
        live_rows(scope)
        .alias(text=KT("payload__data"))
        .filter(text__in=texts)
        .order_by("id")
        .values_list("id", "payload__data")
    )
    for memory_id, text in rows:
        found.setdefault(str(text), []).append(str(memory_id))
    return found


def memories_active_by_keys(*, scope: MemoryScope, memory_keys: list[str]) -> dict[str, MemoryRow]:
    """The current memory of each of ``memory_keys`` that one has, by key."""
    if not memory_keys:
        return {}
    rows = (
        live_rows(scope)
        .alias(key=KT("payload__memory_key"))
        .filter(key__in=memory_keys)
        .defer("vector")
    )
    found: dict[str, MemoryRow] = {}
    for row in rows:
        found.setdefault(str(row.payload.get("memory_key")), row)
    return found


@dataclass(frozen=True)
class MemoryPage:
    items: tuple[MemoryRecord, ...]
    total: int
    page: int
    page_size: int

    @property
    def pages(self) -> int:
        return max(1, math.ceil(self.total / self.page_size))


def memory_list(
    *,
    scope: MemoryScope,
    query: str = "",
    category: str = "",
    source: str = "",
    topic: str = "",
    order: str = "created",
    created_from: datetime | None = None,
    created_before: datetime | None = None,
    status: str = StatusFilter.ACTIVE,
    memory_key: str = "",
    run_id: str = "",
    page: int = 1,
    page_size: int = 20,
) -> MemoryPage:
    """Newest first, straight from the table (works while the SDK is down). ``query`` keeps
    memories that contain every one of its words; ``status`` is ``active`` (the default),
    ``superseded``, ``expired`` or ``all``; ``run_id`` keeps what one agent run wrote. ``order``
    is ``created``, ``updated`` (last change first; a memory never updated counts from its
    creation), ``used`` (most often given to agents first: recalled plus injected) or
    ``last_used`` (most recently given first); never-used memories come last, newest first."""
    rows = rows_with_status(scope_rows(scope), status, now=timezone.now()).defer("vector")
    if memory_key:
        rows = rows.alias(key=KT("payload__memory_key")).filter(key=memory_key)
    if run_id:
        rows = rows.alias(ref=KT("payload__source_ref")).filter(ref=run_id)
    terms = query.split()
    if terms:
        # Every whitespace-separated word must occur ("Poco 飞书" = Poco and 飞书).
        rows = rows.alias(text=KT("payload__data"))
        for term in terms:
            rows = rows.filter(text__icontains=term)
    if category:
        rows = rows.alias(cat=KT("payload__category")).filter(cat=category)
    if source:
        rows = rows.alias(src=KT("payload__source")).filter(src=source)
    if topic:
        rows = rows.filter(id__in=topic_memory_ids(scope=scope, topic=topic))
    rows = rows.alias(created=Cast(KT("payload__created_at"), DateTimeField()))
    if created_from is not None:
        rows = rows.filter(created__gte=created_from)
    if created_before is not None:
        rows = rows.filter(created__lt=created_before)
    if order == "updated":
        rows = rows.alias(
            changed=Coalesce(Cast(KT("payload__updated_at"), DateTimeField()), F("created"))
        ).order_by("-changed", "-id")
    elif order in ("used", "last_used"):
        use = MemoryUse.objects.filter(
            memory_id=OuterRef("id"), tenant_id=scope.tenant_id, user_id=scope.user_id
        )
        if order == "used":
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
    page = max(1, page)
    start = (page - 1) * page_size
    items = tuple(to_record(r) for r in rows[start : start + page_size])
    return MemoryPage(items=items, total=total, page=page, page_size=page_size)


def recall_channels(
    *,
    scope: MemoryScope,
    query: str,
    pool: int,
    min_score: float | None = None,
    filters: SearchFilters | None = None,
) -> dict[Channel, list[ChannelHit]]:
    """What each recall channel finds for ``query`` in ``scope``.

    Raises ``BackendError``; ``memory_search`` turns that into ``available=False``.
    """
    engine = get_engine()  # prepares jieba/spaCy before the query is analysed
    # The second model embeds the query on another thread while this one embeds it with the
    # first, analyses it and runs the first statement: search pays the slower, not the sum.
    meaning = engine.ask_meaning(query, floor=settings.SECOND_MODEL_MIN_SCORE)
    channel_query = analyse(
        query,
        scope_key=scope.key,
        vector=engine.embed_query(query),
        filters=filters or SearchFilters(),
        vector_floor=settings.SEARCH_MIN_SCORE if min_score is None else min_score,
        pool=pool,
    )
    return engine.recall(channel_query, meaning=meaning)


def memory_search(
    *,
    scope: MemoryScope,
    query: str,
    top_k: int | None = None,
    min_score: float | None = None,
    filters: SearchFilters | None = None,
) -> SearchResult:
    """Vector, keyword and entity recall fused by rank (``memories.recall.fusion``).

    ``min_score`` is the vector channel's floor; the keyword and entity channels have their
    own.  No evidence in any channel is zero hits; an outage is ``available=False``.
    """
    started = time.perf_counter()
    limit = top_k or settings.SEARCH_TOP_K
    try:
        channels = recall_channels(
            scope=scope,
            query=query,
            pool=max(limit * 4, MIN_CHANNEL_POOL),
            min_score=min_score,
            filters=filters,
        )
    except BackendError as exc:
        metrics.search_failed.inc()
        return SearchResult(items=(), available=False, error_reason=str(exc))
    hits = fuse(channels, top_k=limit)
    metrics.search_latency.observe(time.perf_counter() - started)
    metrics.search_hits.observe(len(hits))
    return SearchResult(items=hits, available=True)


def memory_attribution(*, memory_id: str) -> str | None:
    """Who Mem0 attributed a stored fact to (``user`` / ``assistant``), None when unset."""
    return get_engine().attribution(memory_id=memory_id)


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
        )
        for e in events
    )


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
    tz = timezone.get_current_timezone()
    first_day = (now - timedelta(days=OVERVIEW_TREND_DAYS - 1)).astimezone(tz).date()
    counts: dict[tuple[str, str], int] = {}
    for r in (
        events.filter(created_at__date__gte=first_day)
        .annotate(day=TruncDate("created_at", tzinfo=tz))
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
            FROM {_ENTITIES} e
            JOIN LATERAL jsonb_array_elements_text(e.payload->'linked_memory_ids') AS link(mid)
              ON true
            JOIN {_MEMORIES} m
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
            FROM {_MEMORIES} m, {_MEMORIES} src
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


def scope_stored_count(*, scope: MemoryScope) -> int:
    """How many memories the scope stores, every status: one row of the size table the
    triggers of migration 0006 keep exact, not a count over the scope's memories."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT n FROM poco_memories_scope_size WHERE scope_key = %s", [scope.key])
        row = cursor.fetchone()
    return int(row[0]) if row else 0


# --- pins and use ------------------------------------------------------------------------------
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
