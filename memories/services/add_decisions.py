"""The locked part of an add: every admitted fact decided in order against what the scope holds
and the batch's earlier facts (a duplicate, an explicit statement kept, the quota, a key
holder superseded), then the survivors written with their audit rows, all or none."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from django.conf import settings
from django.db import DatabaseError

from memories import governance, metrics
from memories.engine import PreparedText
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
from memories.services.new_memory import Admitted, NewMemory, new_metadata
from memories.services.write import WriteContext
from memories.text import normalize_quotes
from memories.types import BackendError, MemoryScope, WriteOutcome, WriteStatus

QUOTA_EXCEEDED = "quota_exceeded"


def quota_room(*, scope: MemoryScope) -> int | None:
    """How many more memories the scope may store (``MAX_MEMORIES_PER_USER``), None without a
    cap. Exact only under the scope's write lock, where every writer reads it."""
    cap = settings.MAX_MEMORIES_PER_USER
    return None if cap <= 0 else max(0, cap - scope_stored_count(scope=scope))


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


def add_admitted(
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
        metadata=new_metadata(ctx, item=item, confidence=confidence),
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
