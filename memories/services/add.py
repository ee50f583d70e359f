"""New memories: one fact (``memory_add``) or many of one scope (``memory_add_many``), each
admitted, checked against what the scope holds (duplicates, key holders, quota) and audited.
``add_refusal`` is the preview of the checks that need no lock."""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import numpy as np
from django.conf import settings
from django.db import DatabaseError

from memories import governance, metrics
from memories.admission import admit_text
from memories.engine import PreparedText, get_engine
from memories.governance import UNSET, Unset
from memories.language import nlp
from memories.locks import scope_write_lock
from memories.models import MemoryRow
from memories.selectors import (
    DEDUP_CANDIDATES,
    first_duplicate,
    memories_active_by_keys,
    memories_live_by_text,
    memory_nearest_many,
    scope_stored_count,
)
from memories.services.batch import Noop, Pending, write_batch
from memories.services.write import (
    WriteContext,
    admission_refused,
    fact_refusal,
)
from memories.text import normalize_quotes
from memories.types import (
    SCHEMA_VERSION,
    Actor,
    BackendError,
    Category,
    MemoryScope,
    MemoryStatus,
    Source,
    WriteOutcome,
    WriteStatus,
)

QUOTA_EXCEEDED = "quota_exceeded"

# How many threads of this process may analyse texts at once. Each request runs on its own
# thread: fifty adds of one scope analysing at once starved the lock holder of the GIL, and
# every add queued behind its stretched locked section (a convoy). Waiting here holds no GIL.
_PREPARE_SLOTS = threading.BoundedSemaphore(max(1, os.cpu_count() or 1))


def our_metadata(
    *,
    category: str,
    source: str,
    confidence: float | None = None,
    memory_key: str = "",
    valid_until: datetime | None | Unset = UNSET,
    source_ref: str = "",
) -> dict[str, Any]:
    """Every field we keep beside Mem0's own on a new memory (README "Governance")."""
    until = governance.default_valid_until() if valid_until is UNSET else valid_until
    return {
        "category": Category(category).value,
        "source": Source(source).value,
        # The run (or page) that wrote it: an agent's run_id, "console", "admin"…
        "source_ref": source_ref,
        "confidence": round(
            float(governance.default_confidence(source) if confidence is None else confidence), 3
        ),
        "memory_key": memory_key or None,
        "status": MemoryStatus.ACTIVE.value,
        "superseded_by": None,
        "valid_until": governance.iso(until),
        "embedding_model": get_engine().embedding_model,
        "schema_version": SCHEMA_VERSION,
    }


def quota_room(*, scope: MemoryScope) -> int | None:
    """How many more memories the scope may store (``MAX_MEMORIES_PER_USER``), None without a
    cap. Exact only under the scope's write lock, where every writer reads it."""
    cap = settings.MAX_MEMORIES_PER_USER
    return None if cap <= 0 else max(0, cap - scope_stored_count(scope=scope))


def add_refusal(
    *,
    text: str,
    source: str,
    confidence: float | None,
    memory_key: str,
    valid_until: datetime | None | Unset,
) -> str | tuple[str]:
    """Why an add of this fact would be ``rejected`` before any lock (admission, key, expiry,
    confidence), or ``(stored text,)`` when it passes: what a preview says, counting nothing."""
    checked = _admit_new(
        text=text,
        source=source,
        confidence=confidence,
        memory_key=memory_key,
        valid_until=valid_until,
        counted=False,
    )
    if isinstance(checked, WriteOutcome):
        return checked.reason or "rejected"
    return (checked[0],)


def memory_add(
    *,
    scope: MemoryScope,
    text: str,
    actor: Actor,
    category: str = Category.FACT,
    source: str = Source.MANAGE,
    run_id: str = "",
    confidence: float | None = None,
    memory_key: str = "",
    valid_until: datetime | None | Unset = UNSET,
    source_ref: str = "",
    created_at: datetime | None = None,
) -> WriteOutcome:
    """Store exactly one confirmed fact, under the scope's write lock:

    * the same text, or a semantic near-duplicate, of an active memory stores nothing
      (``no_effect``, reason ``duplicate``, ``memory_id`` of the memory it repeats);
    * with a ``memory_key`` that an active memory holds, the new fact supersedes it
      (``superseded_id``) — unless the new one is an inference and the old one an explicit
      statement (``no_effect``, reason ``explicit_statement_kept``);
    * below ``settings.MIN_CONFIDENCE`` nothing is stored (``rejected``, ``low_confidence``).

    The text passes admission here, so no caller can store what admission refuses; what is
    stored is the admitted text (noise, paths and URLs cut out; quotes as typed).

    It is ``memory_add_many`` of one: one way to decide and store a new fact, one embedding
    per add, computed before the lock."""
    (outcome,) = memory_add_many(
        scope=scope,
        items=[
            NewMemory(
                text=text,
                category=category,
                confidence=confidence,
                memory_key=memory_key,
                valid_until=valid_until,
                source_ref=source_ref,
                created_at=created_at,
            )
        ],
        actor=actor,
        source=source,
        run_id=run_id,
    )
    return outcome


@dataclass(frozen=True)
class NewMemory:
    """One fact for ``memory_add_many``: ``memory_add``'s per-fact arguments."""

    text: str
    category: str = Category.FACT
    confidence: float | None = None
    memory_key: str = ""
    valid_until: datetime | None | Unset = UNSET
    source_ref: str = ""
    created_at: datetime | None = None
    # Payload fields an import brings back as they were exported (the pin, the original
    # source, the last change, the import's own marks), laid over the new memory's.
    restored: dict[str, Any] = field(default_factory=dict)


# An admitted item: its input index, the admitted text and the confidence it is stored with.
Admitted = tuple[int, str, float]


@dataclass(frozen=True)
class ImportChunkReady:
    """What ``memory_add_many`` does to an import's chunk before it needs the database or the
    lock: the admission of every item and the analysis of the admitted texts (``prepare_import``).
    An import computes it for its next chunk while the current one is written."""

    items: list[NewMemory]
    outcomes: tuple[WriteOutcome | None, ...]  # the refusals, by input index
    admitted: tuple[Admitted, ...]
    prepared: tuple[PreparedText, ...]


def prepare_import(items: list[NewMemory]) -> ImportChunkReady:
    """Admit and analyse an import's chunk: no database, no lock, so it may run on another
    thread. An import stores no second vectors (the backfill fills them), so none are
    computed. Raises ``BackendError`` when the analysis fails."""
    outcomes, admitted = _admit_all(items, source=Source.IMPORT)
    with _PREPARE_SLOTS:
        prepared = get_engine().prepare([text for _, text, _ in admitted])
    return ImportChunkReady(
        items=items, outcomes=tuple(outcomes), admitted=tuple(admitted), prepared=tuple(prepared)
    )


def memory_add_many(
    *,
    scope: MemoryScope,
    items: list[NewMemory],
    actor: Actor,
    source: str = Source.IMPORT,
    run_id: str = "",
    ready: ImportChunkReady | None = None,
) -> list[WriteOutcome]:
    """``memory_add`` for many facts of one scope: the same outcome, the same stored payload
    and the same audit rows as calling it for each item in order, with one lock hold, one
    embedding batch, one nearest-neighbour statement and one INSERT. ``ready`` (an import's
    chunk, from ``prepare_import`` of the same ``items``) skips the work done there.

    An item repeats an earlier item of the batch as it would repeat a stored memory, and a
    later item of a key supersedes an earlier one. A backend failure writes nothing of the
    batch: every item that would have been written is ``backend_error``."""
    ctx = WriteContext(scope=scope, actor=actor, source=source, run_id=run_id)
    if ready is not None and (ready.items is not items or source != Source.IMPORT):
        raise ValueError("ready is an import's analysis of these very items")
    if ready is None:
        outcomes, admitted = _admit_all(items, source=source)
    else:
        outcomes, admitted = list(ready.outcomes), list(ready.admitted)
    try:
        _prepare_and_store(
            ctx,
            items=items,
            admitted=admitted,
            outcomes=outcomes,
            prepared=None if ready is None else list(ready.prepared),
        )
    except BackendError as exc:
        for index, _, _ in admitted:
            metrics.writes.labels("add", "backend_error").inc()
            outcomes[index] = WriteOutcome(status=WriteStatus.BACKEND_ERROR, reason=str(exc))
    return [outcome for outcome in outcomes if outcome is not None]


def _admit_all(
    items: list[NewMemory], *, source: str
) -> tuple[list[WriteOutcome | None], list[Admitted]]:
    """Every item's checks that need no lock: its refusal, or its admitted text."""
    outcomes: list[WriteOutcome | None] = [None] * len(items)
    admitted: list[Admitted] = []
    for index, item in enumerate(items):
        checked = _admit_new(
            text=item.text,
            source=source,
            confidence=item.confidence,
            memory_key=item.memory_key,
            valid_until=item.valid_until,
        )
        if isinstance(checked, WriteOutcome):
            outcomes[index] = checked
        else:
            admitted.append((index, *checked))
    return outcomes, admitted


def _admit_new(
    *,
    text: str,
    source: str,
    confidence: float | None,
    memory_key: str,
    valid_until: datetime | None | Unset,
    counted: bool = True,
) -> WriteOutcome | tuple[str, float]:
    """The checks of a new fact that need no lock: the ``rejected`` outcome, or the admitted
    text and the confidence it is stored with (shared by ``memory_add`` and its batch).
    ``counted``: a refusal counts in the metrics (not for a preview)."""
    text = text.strip()
    refusal = fact_refusal(text=text, memory_key=memory_key, valid_until=valid_until)
    if refusal:
        return WriteOutcome(status=WriteStatus.REJECTED, reason=refusal)
    confidence = governance.default_confidence(source) if confidence is None else confidence
    if confidence < settings.MIN_CONFIDENCE:
        if counted:
            metrics.admission_rejected.labels("low_confidence").inc()
        return WriteOutcome(status=WriteStatus.REJECTED, reason="low_confidence")
    admission = admit_text(source=source, text=text)
    if admission_refused(admission) if counted else not admission.admitted:
        return WriteOutcome(status=WriteStatus.REJECTED, reason=admission.reason)
    return admission.text, confidence


def _prepare_and_store(
    ctx: WriteContext,
    *,
    items: list[NewMemory],
    admitted: list[Admitted],
    outcomes: list[WriteOutcome | None],
    prepared: list[PreparedText] | None = None,
) -> None:
    """Analyse the admitted texts outside the lock (unless ``prepared`` already holds that
    analysis), then decide and store them under it."""
    # The text's own work (embedding, entities, lemmas) needs no lock: concurrent writers of the
    # scope do it in parallel and queue only for the statements. Under the lock the duplicate
    # check reuses those lemmas and reads the nearest memories' stored ones
    # (``memory_nearest_many``), for this write only: no jieba/spaCy while others wait.
    engine = get_engine()
    texts = [text for _, text, _ in admitted]
    # The second model embeds the texts on another thread through the first embedding, the
    # analysis, the lock and the duplicate check; the INSERT takes the vectors ready by then and
    # the others are stored as soon as they are (the add never waits for them). An import
    # leaves them to the queue's backfill: it keeps its rate, and search uses whatever is filled.
    second = engine.second_passages(texts) if ctx.source != Source.IMPORT else None
    with nlp.lemma_memo():
        if prepared is None:
            with _PREPARE_SLOTS:
                prepared = engine.prepare(texts, second=second)
        else:  # analysed on another thread: its lemmas join this write's memo
            nlp.remember_lemmas(zip(texts, (ready.lemmatized for ready in prepared), strict=True))
        with scope_write_lock(ctx.scope):
            _add_admitted(ctx, items=items, admitted=admitted, prepared=prepared, outcomes=outcomes)


@dataclass(frozen=True)
class _ScopeNow:
    """What the locked part reads of the scope once for the whole batch."""

    same_text: dict[str, list[str]]  # folded text -> ids of live memories with that text
    nearest: list[list[tuple[str, str, float]]]  # per admitted text: (id, text, similarity)
    holders: dict[str, MemoryRow]  # memory_key -> its active holder
    room: int | None  # how many more the scope may store, None without a cap


@dataclass
class _Plan:
    """The batch decided so far, in input order."""

    pending: list[Pending] = field(default_factory=list)
    noops: list[Noop] = field(default_factory=list)
    retired: set[str] = field(default_factory=set)  # stored memories a key here superseded
    by_key: dict[str, Pending] = field(default_factory=dict)  # the batch's last fact per key


def _add_admitted(
    ctx: WriteContext,
    *,
    items: list[NewMemory],
    admitted: list[Admitted],
    prepared: list[PreparedText],
    outcomes: list[WriteOutcome | None],
) -> None:
    """The locked part of ``memory_add_many``: decide every admitted item in order, then
    write the survivors, the supersedes and every audit row — all of them or none."""
    if not admitted:
        return
    now = _read_scope(ctx.scope, items=items, admitted=admitted, prepared=prepared)
    plan = _Plan()
    for (index, text, confidence), ready, near in zip(admitted, prepared, now.nearest, strict=True):
        reason = _decide(
            ctx,
            plan,
            now,
            item=items[index],
            admitted=(index, text, confidence),
            ready=ready,
            near=near,
        )
        if reason is not None:
            outcomes[index] = WriteOutcome(status=WriteStatus.REJECTED, reason=reason)
    write_batch(ctx, pending=plan.pending, noops=plan.noops, outcomes=outcomes)


def _read_scope(
    scope: MemoryScope,
    *,
    items: list[NewMemory],
    admitted: list[Admitted],
    prepared: list[PreparedText],
) -> _ScopeNow:
    """Everything the decisions need from the database, read once under the lock."""
    try:
        return _ScopeNow(
            same_text=memories_live_by_text(scope=scope, texts=[text for _, text, _ in admitted]),
            nearest=memory_nearest_many(scope=scope, vectors=[p.vector for p in prepared]),
            holders=memories_active_by_keys(
                scope=scope,
                memory_keys=[items[i].memory_key for i, _, _ in admitted if items[i].memory_key],
            ),
            room=quota_room(scope=scope),
        )
    except DatabaseError as exc:
        raise BackendError(f"database unavailable: {type(exc).__name__}") from exc


def _decide(
    ctx: WriteContext,
    plan: _Plan,
    now: _ScopeNow,
    *,
    item: NewMemory,
    admitted: Admitted,
    ready: PreparedText,
    near: list[tuple[str, str, float]],
) -> str | None:
    """Decide one admitted item against the scope and the batch's earlier items: a no-op
    (duplicate, or an explicit statement kept), a fact to store, or the reason it is refused."""
    index, text, confidence = admitted
    unit = np.asarray(ready.vector, dtype=np.float64)
    unit /= np.linalg.norm(unit) or 1.0
    repeated = _repeated(
        text=text,
        unit=unit,
        same_text=now.same_text.get(normalize_quotes(text), []),
        near=near,
        retired=plan.retired,
        pending=plan.pending,
    )
    if repeated is not None:
        plan.noops.append((index, repeated, "duplicate"))
        return None
    holder = _key_holder(plan, now, memory_key=item.memory_key)
    if holder is not None and confidence < governance.EXPLICIT_MIN and _explicit(holder):
        kept = holder if isinstance(holder, Pending) else str(holder.id)
        plan.noops.append((index, kept, "explicit_statement_kept"))
        return None
    if now.room is not None and len(plan.pending) >= now.room:
        # Decided in order and never added to the batch: nothing later depends on it.
        metrics.quota_exceeded.labels(ctx.source).inc()
        return QUOTA_EXCEEDED
    new = Pending(
        index=index,
        text=text,
        prepared=ready,
        unit=unit,
        metadata=_new_metadata(ctx, item=item, confidence=confidence),
        confidence=confidence,
        created_at=item.created_at,
        replaces=holder,
    )
    if isinstance(holder, Pending):
        holder.superseded = True
    elif holder is not None:
        plan.retired.add(str(holder.id))
    if item.memory_key:
        plan.by_key[item.memory_key] = new
    plan.pending.append(new)
    return None


def _repeated(
    *,
    text: str,
    unit: np.ndarray,
    same_text: list[str],
    near: list[tuple[str, str, float]],
    retired: set[str],
    pending: list[Pending],
) -> Pending | str | None:
    """What ``text`` repeats among the live memories as ``memory_add`` would see them after
    the batch's earlier items: the same text first, then the nearest that it only repeats."""
    current = [p for p in pending if not p.superseded]
    folded = normalize_quotes(text)
    exact: list[Pending | str] = [i for i in same_text if i not in retired]
    exact += [p for p in current if normalize_quotes(p.text) == folded]
    if exact:
        return exact[0]
    scored: list[tuple[Pending | str, str, float]] = [c for c in near if c[0] not in retired]
    scored += [(p, p.text, float(np.dot(p.unit, unit))) for p in current]
    scored.sort(key=lambda c: -c[2])
    return first_duplicate(text=text, candidates=scored[:DEDUP_CANDIDATES])


def _key_holder(plan: _Plan, now: _ScopeNow, *, memory_key: str) -> MemoryRow | Pending | None:
    """The current holder of ``memory_key``: the batch's last fact of it, else the stored
    memory holding it unless the batch superseded that one already."""
    if not memory_key:
        return None
    holder = plan.by_key.get(memory_key)
    if holder is not None:
        return holder
    row = now.holders.get(memory_key)
    return row if row is not None and str(row.id) not in plan.retired else None


def _explicit(holder: MemoryRow | Pending) -> bool:
    """Whether the holder is an explicit statement, which an inference never replaces."""
    if isinstance(holder, Pending):
        return holder.confidence >= governance.EXPLICIT_MIN
    return governance.is_explicit(holder.payload)


def _new_metadata(ctx: WriteContext, *, item: NewMemory, confidence: float) -> dict[str, Any]:
    """The payload fields a new fact is stored with; the run is its source reference unless the
    item names its own."""
    metadata = our_metadata(
        category=item.category,
        source=ctx.source,
        confidence=confidence,
        memory_key=item.memory_key,
        valid_until=item.valid_until,
        source_ref=item.source_ref or ctx.run_id,
    )
    if item.created_at is not None:
        metadata["created_at"] = item.created_at.isoformat()
    metadata.update(item.restored)
    return metadata
