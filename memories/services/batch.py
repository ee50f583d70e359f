"""Storing a decided batch of new memories (``memory_add_many``'s last step): one INSERT, the
supersedes and every audit row in input order, all or nothing."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import numpy as np
from django.db import transaction
from django.utils import timezone

from memories import metrics
from memories.engine import Mem0Adapter, NewFact, PreparedText, get_engine
from memories.models import AuditEvent, MemoryRow
from memories.services.supersede import superseded_fields, unsupersede
from memories.services.write import WriteContext, audit_row
from memories.types import BackendError, MemoryScope, MemoryStatus, WriteOutcome, WriteStatus


@dataclass
class Pending:
    """A fact of the batch that will be stored: its place, text, analysis and metadata."""

    index: int
    text: str
    prepared: PreparedText
    unit: np.ndarray
    metadata: dict[str, Any]
    confidence: float
    created_at: datetime | None
    replaces: MemoryRow | Pending | None = None
    superseded: bool = False
    memory_id: str = ""


# An item that stores nothing: its input index, what it repeats or keeps, and why.
Noop = tuple[int, Pending | str, str]
# One decided item in input order: the fact to store, or the (target, reason) of a no-op.
Step = tuple[int, Pending | tuple[Pending | str, str]]


def write_batch(
    ctx: WriteContext,
    *,
    pending: list[Pending],
    noops: list[Noop],
    outcomes: list[WriteOutcome | None],
) -> None:
    """Insert the batch's survivors, supersede what they replace and write every audit row
    in input order — all or nothing (no memory without its audit trail)."""
    engine = get_engine()
    _stamp(pending, at=timezone.now())
    ids = engine.add_many(
        ctx.scope.key,
        [NewFact(text=p.text, metadata=p.metadata) for p in pending],
        prepared=[p.prepared for p in pending],
    )
    for p, memory_id in zip(pending, ids, strict=True):
        p.memory_id = memory_id
    steps = _in_input_order(pending, noops)
    patched: list[MemoryRow] = []  # stored memories superseded so far, to put back on failure
    try:
        with transaction.atomic():
            events: list[AuditEvent] = []
            for index, step in steps:
                events += _record_step(
                    ctx, engine, index=index, step=step, outcomes=outcomes, patched=patched
                )
            AuditEvent.objects.bulk_create(events)
    except Exception as exc:
        _take_back(ctx.scope, engine, patched=patched, ids=ids)
        if isinstance(exc, BackendError):
            raise
        raise BackendError(f"batch add failed: {type(exc).__name__}") from exc
    for _, step in steps:
        result = "added" if isinstance(step, Pending) else "no_effect"
        metrics.writes.labels("add", result).inc()


def _stamp(pending: list[Pending], *, at: datetime) -> None:
    """Give every fact that keeps no time of its own (an import's ``created_at``) the batch's
    one clock reading: it is the fact's ``created_at``, its ADD row's time and the
    ``superseded_at`` of the memory it replaces, so the old validity ends exactly where the new
    one begins and a search ``as_of`` any instant sees one version (docs/retrieval.md, "As
    of"). Two readings, one at the INSERT and one at the supersede, left both valid for the
    milliseconds between them."""
    for p in pending:
        if p.created_at is None:
            p.created_at = at
            p.metadata["created_at"] = at.isoformat()


def _ident(target: Pending | str | MemoryRow) -> str:
    if isinstance(target, Pending):
        return target.memory_id
    return target if isinstance(target, str) else str(target.id)


def _in_input_order(pending: list[Pending], noops: list[Noop]) -> list[Step]:
    steps: list[Step] = [(p.index, p) for p in pending]
    steps += [(index, (target, reason)) for index, target, reason in noops]
    steps.sort(key=lambda step: step[0])
    return steps


def _record_step(
    ctx: WriteContext,
    engine: Mem0Adapter,
    *,
    index: int,
    step: Pending | tuple[Pending | str, str],
    outcomes: list[WriteOutcome | None],
    patched: list[MemoryRow],
) -> list[AuditEvent]:
    """One item's audit rows and outcome; a stored fact that takes over a key supersedes its
    old holder here (``patched`` collects the stored ones)."""
    if not isinstance(step, Pending):
        target, reason = step
        row = audit_row(ctx, memory_id=_ident(target), event=AuditEvent.Event.NOOP, status=reason)
        outcomes[index] = WriteOutcome(
            status=WriteStatus.NO_EFFECT, memory_id=_ident(target), reason=reason
        )
        return [row]
    events = [
        audit_row(
            ctx,
            memory_id=step.memory_id,
            event=AuditEvent.Event.ADD,
            new_text=step.text,
            at=step.created_at,
        )
    ]
    if step.replaces is not None:
        old_id = _ident(step.replaces)
        engine.patch_payload(
            memory_id=old_id, fields=superseded_fields(step.memory_id, at=step.created_at)
        )
        if isinstance(step.replaces, MemoryRow):
            patched.append(step.replaces)
        events.append(
            audit_row(
                ctx, memory_id=old_id, event=AuditEvent.Event.UPDATE, status=MemoryStatus.SUPERSEDED
            )
        )
    outcomes[index] = WriteOutcome(
        status=WriteStatus.ADDED,
        memory_id=step.memory_id,
        inserted_count=1,
        superseded_id=_ident(step.replaces) if step.replaces is not None else None,
    )
    return events


def _take_back(
    scope: MemoryScope, engine: Mem0Adapter, *, patched: list[MemoryRow], ids: list[str]
) -> None:
    """Undo a batch whose audit trail failed: the memories it superseded are current again and
    the ones it inserted are gone (best effort: each step's own failure is ignored)."""
    for old in patched:
        with contextlib.suppress(Exception):
            unsupersede(old)
    for memory_id in ids:
        with contextlib.suppress(Exception):
            engine.delete_fact(memory_id=memory_id, scope_key=scope.key)
