"""Writes. Each service checks ownership, calls the engine once, and records the audit trail.

Outcomes are facts (``memories.types``): a failure is never reported as success, and a write
that fails leaves nothing half-written.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import numpy as np
from django.conf import settings
from django.db import DatabaseError, transaction
from django.utils import timezone

from memories import governance, metrics
from memories.admission import AdmissionResult, admit_extracted, admit_text
from memories.engine import ExtractedFact, NewFact, PreparedText, get_engine
from memories.governance import UNSET, Unset
from memories.language import nlp
from memories.locks import scope_write_lock
from memories.models import AuditEvent, DeletionMark, MemoryRow, MemorySettings, MemoryUse
from memories.selectors import (
    DEDUP_CANDIDATES,
    first_duplicate,
    memories_active_by_keys,
    memories_due_to_expire,
    memories_live_by_text,
    memory_active_by_key,
    memory_find_by_text,
    memory_near_duplicate,
    memory_nearest_many,
    memory_owned_row,
    memory_switches,
    pinned_count,
    scope_rows,
    scope_stored_count,
)
from memories.signals import scope_deletion_marked
from memories.text import normalize_quotes
from memories.types import (
    MEMORY_KEY,
    SCHEMA_VERSION,
    Actor,
    ActorKind,
    BackendError,
    Category,
    CleanupError,
    DeleteOutcome,
    DeleteStatus,
    MemoryForbidden,
    MemoryNotFound,
    MemoryScope,
    MemoryStatus,
    Source,
    WriteOutcome,
    WriteStatus,
)
from memories.vacuum import VACUUM_AFTER_DELETING, vacuum_memory_tables_soon

logger = logging.getLogger(__name__)

MAX_FACT_LENGTH = 2000


def _audit(**fields: Any) -> None:
    """Create one audit row (the fields: ``_audit_fields``)."""
    AuditEvent.objects.create(**_audit_fields(**fields))


def _audit_fields(
    *,
    scope: MemoryScope,
    memory_id: str | None,
    event: str,
    actor: Actor,
    source: str,
    run_id: str = "",
    old_text: str = "",
    new_text: str = "",
    status: str = "",
    changes: dict[str, list[Any]] | None = None,
    page: str = "",
    at: datetime | None = None,
) -> dict[str, Any]:
    """The fields of one audit row (``_audit`` creates it; a batch bulk-creates many)."""
    return {
        "memory_id": memory_id,
        "tenant_id": scope.tenant_id,
        "user_id": scope.user_id,
        "event": event,
        "actor_kind": actor.kind.value,
        "actor_id": actor.id,
        "source": source,
        "run_id": run_id,
        "old_text": old_text,
        "new_text": new_text,
        "status": status,
        "changes": changes or {},
        "page": page,
        "created_at": at or timezone.now(),
    }


def _admission_refused(admission: AdmissionResult) -> bool:
    """Count a refusal (by reason, never by content) and say whether there was one."""
    if admission.admitted:
        return False
    metrics.admission_rejected.labels(admission.reason or "unknown").inc()
    return True


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


def _valid_key(memory_key: str) -> bool:
    return not memory_key or bool(MEMORY_KEY.match(memory_key))


def _past(valid_until: datetime | None | Unset) -> bool:
    """A new expiry already over: the write would be expired the moment it lands."""
    return isinstance(valid_until, datetime) and valid_until <= timezone.now()


def _noop(
    *, scope: MemoryScope, memory_id: str, actor: Actor, source: str, run_id: str, reason: str
) -> WriteOutcome:
    """A write that changes nothing, recorded in the audit trail with its reason."""
    _audit(
        scope=scope,
        memory_id=memory_id,
        event=AuditEvent.Event.NOOP,
        actor=actor,
        source=source,
        run_id=run_id,
        status=reason,
    )
    return WriteOutcome(status=WriteStatus.NO_EFFECT, memory_id=memory_id, reason=reason)


def _supersede(
    *, scope: MemoryScope, old: MemoryRow, new_id: str, actor: Actor, source: str, run_id: str
) -> None:
    """Retire ``old`` in favour of ``new_id``: it stays for history and admin, never recalled."""
    get_engine().patch_payload(
        memory_id=str(old.id),
        fields={"status": MemoryStatus.SUPERSEDED.value, "superseded_by": new_id},
    )
    _audit(
        scope=scope,
        memory_id=str(old.id),
        event=AuditEvent.Event.UPDATE,
        actor=actor,
        source=source,
        run_id=run_id,
        status=MemoryStatus.SUPERSEDED,
    )


def _unsupersede(old: MemoryRow) -> None:
    """Undo ``_supersede`` (its write failed half-way): the old memory is current again."""
    get_engine().patch_payload(
        memory_id=str(old.id),
        fields={
            "status": old.payload.get("status") or MemoryStatus.ACTIVE.value,
            "superseded_by": old.payload.get("superseded_by"),
        },
    )


def _record_write(
    *,
    scope: MemoryScope,
    memory_id: str,
    event: str,
    actor: Actor,
    source: str,
    run_id: str,
    old_text: str = "",
    new_text: str = "",
    at: datetime | None = None,
    replaces: MemoryRow | None = None,
    changes: dict[str, list[Any]] | None = None,
) -> None:
    """The audit row of a stored write and, when it takes over a key, the supersede of the
    key's old holder — both or neither: on failure the old holder is current again and the
    caller takes its own write back."""
    try:
        with transaction.atomic():
            _audit(
                scope=scope,
                memory_id=memory_id,
                event=event,
                actor=actor,
                source=source,
                run_id=run_id,
                old_text=old_text,
                new_text=new_text,
                at=at,
                changes=changes,
            )
            if replaces is not None:
                _supersede(
                    scope=scope,
                    old=replaces,
                    new_id=memory_id,
                    actor=actor,
                    source=source,
                    run_id=run_id,
                )
    except Exception:
        if replaces is not None:
            with contextlib.suppress(Exception):
                _unsupersede(replaces)
        raise


def _key_conflict(
    *, scope: MemoryScope, memory_key: str, confidence: float, exclude_id: str = ""
) -> tuple[MemoryRow | None, bool]:
    """The active memory holding ``memory_key`` (if any) and whether a write of
    ``confidence`` may replace it: an inference never replaces an explicit statement."""
    if not memory_key:
        return None, True
    current = memory_active_by_key(scope=scope, memory_key=memory_key)
    if current is None or str(current.id) == exclude_id:
        return None, True
    inference = confidence < governance.EXPLICIT_MIN
    return current, not (inference and governance.is_explicit(current.payload))


QUOTA_EXCEEDED = "quota_exceeded"


def quota_room(*, scope: MemoryScope) -> int | None:
    """How many more memories the scope may store (``MAX_MEMORIES_PER_USER``), None without a
    cap. Exact only under the scope's write lock, where every writer reads it."""
    cap = settings.MAX_MEMORIES_PER_USER
    return None if cap <= 0 else max(0, cap - scope_stored_count(scope=scope))


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
    if not text or len(text) > MAX_FACT_LENGTH:
        return WriteOutcome(status=WriteStatus.REJECTED, reason="invalid_text")
    if not _valid_key(memory_key):
        return WriteOutcome(status=WriteStatus.REJECTED, reason="invalid_memory_key")
    if _past(valid_until):
        return WriteOutcome(status=WriteStatus.REJECTED, reason="valid_until_past")
    confidence = governance.default_confidence(source) if confidence is None else confidence
    if confidence < settings.MIN_CONFIDENCE:
        if counted:
            metrics.admission_rejected.labels("low_confidence").inc()
        return WriteOutcome(status=WriteStatus.REJECTED, reason="low_confidence")
    admission = admit_text(source=source, text=text)
    if _admission_refused(admission) if counted else not admission.admitted:
        return WriteOutcome(status=WriteStatus.REJECTED, reason=admission.reason)
    return admission.text, confidence


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
    stored is the admitted text (noise, paths and URLs cut out, ASCII quotes).

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


@dataclass
class _Pending:
    """A fact of the batch that will be stored: its place, text, analysis and metadata."""

    index: int
    text: str
    prepared: PreparedText
    unit: np.ndarray
    metadata: dict[str, Any]
    confidence: float
    created_at: datetime | None
    replaces: MemoryRow | _Pending | None = None
    superseded: bool = False
    memory_id: str = ""


def memory_add_many(
    *,
    scope: MemoryScope,
    items: list[NewMemory],
    actor: Actor,
    source: str = Source.IMPORT,
    run_id: str = "",
) -> list[WriteOutcome]:
    """``memory_add`` for many facts of one scope: the same outcome, the same stored payload
    and the same audit rows as calling it for each item in order, with one lock hold, one
    embedding batch, one nearest-neighbour statement and one INSERT.

    An item repeats an earlier item of the batch as it would repeat a stored memory, and a
    later item of a key supersedes an earlier one. A backend failure writes nothing of the
    batch: every item that would have been written is ``backend_error``."""
    outcomes: list[WriteOutcome | None] = [None] * len(items)
    admitted: list[tuple[int, str, float]] = []
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
    try:
        # The text's own work (embedding, entities, lemmas) needs no lock: concurrent writers
        # of the scope do it in parallel and queue only for the statements. Under the lock the
        # duplicate check reuses those lemmas and reads the nearest memories' stored ones
        # (``memory_nearest_many``), for this write only: no jieba/spaCy while others wait.
        engine = get_engine()
        texts = [text for _, text, _ in admitted]
        # The second model embeds the texts on another thread through the first embedding, the
        # analysis, the lock and the duplicate check; the INSERT takes its vectors. An import
        # leaves them to the queue's backfill: it keeps its rate, and search uses whatever is
        # filled.
        second = engine.second_passages(texts) if source != Source.IMPORT else None
        with nlp.lemma_memo():
            with _PREPARE_SLOTS:
                prepared = engine.prepare(texts, second=second)
            with scope_write_lock(scope):
                _add_admitted(
                    scope=scope,
                    items=items,
                    admitted=admitted,
                    prepared=prepared,
                    outcomes=outcomes,
                    actor=actor,
                    source=source,
                    run_id=run_id,
                )
    except BackendError as exc:
        for index, _, _ in admitted:
            metrics.writes.labels("add", "backend_error").inc()
            outcomes[index] = WriteOutcome(status=WriteStatus.BACKEND_ERROR, reason=str(exc))
    return [outcome for outcome in outcomes if outcome is not None]


# How many threads of this process may analyse texts at once. Each request runs on its own
# thread: fifty adds of one scope analysing at once starved the lock holder of the GIL, and
# every add queued behind its stretched locked section (a convoy). Waiting here holds no GIL.
_PREPARE_SLOTS = threading.BoundedSemaphore(max(1, os.cpu_count() or 1))


def _add_admitted(
    *,
    scope: MemoryScope,
    items: list[NewMemory],
    admitted: list[tuple[int, str, float]],
    prepared: list[PreparedText],
    outcomes: list[WriteOutcome | None],
    actor: Actor,
    source: str,
    run_id: str,
) -> None:
    """The locked part of ``memory_add_many``: decide every admitted item in order, then
    write the survivors, the supersedes and every audit row — all of them or none."""
    if not admitted:
        return
    texts = [text for _, text, _ in admitted]
    vectors = [ready.vector for ready in prepared]
    try:
        same_text = memories_live_by_text(scope=scope, texts=texts)
        nearest = memory_nearest_many(scope=scope, vectors=vectors)
        holders = memories_active_by_keys(
            scope=scope,
            memory_keys=[items[i].memory_key for i, _, _ in admitted if items[i].memory_key],
        )
        room = quota_room(scope=scope)
    except DatabaseError as exc:
        raise BackendError(f"database unavailable: {type(exc).__name__}") from exc
    retired: set[str] = set()  # stored memories a key of this batch superseded
    pending: list[_Pending] = []
    by_key: dict[str, _Pending] = {}
    noops: list[tuple[int, _Pending | str, str]] = []  # index, what it repeats/keeps, reason
    for (index, text, confidence), ready, near in zip(admitted, prepared, nearest, strict=True):
        item = items[index]
        unit = np.asarray(ready.vector, dtype=np.float64)
        unit /= np.linalg.norm(unit) or 1.0
        repeated = _repeated(
            text=text,
            unit=unit,
            same_text=same_text.get(text, []),
            near=near,
            retired=retired,
            pending=pending,
        )
        if repeated is not None:
            noops.append((index, repeated, "duplicate"))
            continue
        holder: MemoryRow | _Pending | None = None
        if item.memory_key:
            holder = by_key.get(item.memory_key)
            if holder is None:
                row = holders.get(item.memory_key)
                holder = row if row is not None and str(row.id) not in retired else None
        if holder is not None and confidence < governance.EXPLICIT_MIN:
            explicit = (
                holder.confidence >= governance.EXPLICIT_MIN
                if isinstance(holder, _Pending)
                else governance.is_explicit(holder.payload)
            )
            if explicit:
                kept = holder if isinstance(holder, _Pending) else str(holder.id)
                noops.append((index, kept, "explicit_statement_kept"))
                continue
        if room is not None and len(pending) >= room:
            # Decided in order and never added to the batch: nothing later depends on it.
            metrics.quota_exceeded.labels(source).inc()
            outcomes[index] = WriteOutcome(status=WriteStatus.REJECTED, reason=QUOTA_EXCEEDED)
            continue
        metadata = our_metadata(
            category=item.category,
            source=source,
            confidence=confidence,
            memory_key=item.memory_key,
            valid_until=item.valid_until,
            source_ref=item.source_ref or run_id,
        )
        if item.created_at is not None:
            metadata["created_at"] = item.created_at.isoformat()
        new = _Pending(
            index=index,
            text=text,
            prepared=ready,
            unit=unit,
            metadata=metadata,
            confidence=confidence,
            created_at=item.created_at,
            replaces=holder,
        )
        if isinstance(holder, _Pending):
            holder.superseded = True
        elif holder is not None:
            retired.add(str(holder.id))
        if item.memory_key:
            by_key[item.memory_key] = new
        pending.append(new)
    _write_batch(
        scope=scope,
        pending=pending,
        noops=noops,
        outcomes=outcomes,
        actor=actor,
        source=source,
        run_id=run_id,
    )


def _audit_row(**fields: Any) -> AuditEvent:
    return AuditEvent(**_audit_fields(**fields))


def _repeated(
    *,
    text: str,
    unit: np.ndarray,
    same_text: list[str],
    near: list[tuple[str, str, float]],
    retired: set[str],
    pending: list[_Pending],
) -> _Pending | str | None:
    """What ``text`` repeats among the live memories as ``memory_add`` would see them after
    the batch's earlier items: the same text first, then the nearest that it only repeats."""
    current = [p for p in pending if not p.superseded]
    exact = [i for i in same_text if i not in retired] + [p for p in current if p.text == text]
    if exact:
        return exact[0]
    scored: list[tuple[_Pending | str, str, float]] = [c for c in near if c[0] not in retired]
    scored += [(p, p.text, float(np.dot(p.unit, unit))) for p in current]
    scored.sort(key=lambda c: -c[2])
    return first_duplicate(text=text, candidates=scored[:DEDUP_CANDIDATES])


def _write_batch(
    *,
    scope: MemoryScope,
    pending: list[_Pending],
    noops: list[tuple[int, _Pending | str, str]],
    outcomes: list[WriteOutcome | None],
    actor: Actor,
    source: str,
    run_id: str,
) -> None:
    """Insert the batch's survivors, supersede what they replace and write every audit row
    in input order — all or nothing (no memory without its audit trail)."""
    engine = get_engine()
    ids = engine.add_many(
        scope.key,
        [NewFact(text=p.text, metadata=p.metadata) for p in pending],
        prepared=[p.prepared for p in pending],
    )
    for p, memory_id in zip(pending, ids, strict=True):
        p.memory_id = memory_id

    def ident(target: _Pending | str | MemoryRow) -> str:
        if isinstance(target, _Pending):
            return target.memory_id
        return target if isinstance(target, str) else str(target.id)

    steps: list[tuple[int, _Pending | tuple[_Pending | str, str]]] = [
        (p.index, p) for p in pending
    ] + [(index, (target, reason)) for index, target, reason in noops]
    steps.sort(key=lambda step: step[0])
    events: list[AuditEvent] = []
    patched: list[MemoryRow] = []
    try:
        with transaction.atomic():
            for index, step in steps:
                if isinstance(step, _Pending):
                    events.append(
                        _audit_row(
                            scope=scope,
                            memory_id=step.memory_id,
                            event=AuditEvent.Event.ADD,
                            actor=actor,
                            source=source,
                            run_id=run_id,
                            new_text=step.text,
                            at=step.created_at,
                        )
                    )
                    if step.replaces is not None:
                        old_id = ident(step.replaces)
                        engine.patch_payload(
                            memory_id=old_id,
                            fields={
                                "status": MemoryStatus.SUPERSEDED.value,
                                "superseded_by": step.memory_id,
                            },
                        )
                        if isinstance(step.replaces, MemoryRow):
                            patched.append(step.replaces)
                        events.append(
                            _audit_row(
                                scope=scope,
                                memory_id=old_id,
                                event=AuditEvent.Event.UPDATE,
                                actor=actor,
                                source=source,
                                run_id=run_id,
                                status=MemoryStatus.SUPERSEDED,
                            )
                        )
                    outcomes[index] = WriteOutcome(
                        status=WriteStatus.ADDED,
                        memory_id=step.memory_id,
                        inserted_count=1,
                        superseded_id=ident(step.replaces) if step.replaces is not None else None,
                    )
                else:
                    target, reason = step
                    events.append(
                        _audit_row(
                            scope=scope,
                            memory_id=ident(target),
                            event=AuditEvent.Event.NOOP,
                            actor=actor,
                            source=source,
                            run_id=run_id,
                            status=reason,
                        )
                    )
                    outcomes[index] = WriteOutcome(
                        status=WriteStatus.NO_EFFECT, memory_id=ident(target), reason=reason
                    )
            AuditEvent.objects.bulk_create(events)
    except Exception as exc:
        for old in patched:
            with contextlib.suppress(Exception):
                _unsupersede(old)
        for memory_id in ids:
            with contextlib.suppress(Exception):
                engine.delete_fact(memory_id=memory_id, scope_key=scope.key)
        if isinstance(exc, BackendError):
            raise
        raise BackendError(f"batch add failed: {type(exc).__name__}") from exc
    for _, step in steps:
        result = "added" if isinstance(step, _Pending) else "no_effect"
        metrics.writes.labels("add", result).inc()


def memory_extract(
    *,
    scope: MemoryScope,
    messages: list[dict[str, str]],
    metadata: dict[str, Any],
    instructions: str,
) -> list[ExtractedFact]:
    """Let Mem0 extract facts (infer=True) from real user/assistant messages. What it stores is
    provisional: the caller validates it, then adopts (``memory_record_extracted``) or discards
    (``memory_discard``) every fact."""
    return get_engine().extract(
        scope_key=scope.key, messages=messages, metadata=metadata, instructions=instructions
    )


def memory_discard(*, scope: MemoryScope, memory_ids: list[str]) -> None:
    """Physically remove provisional facts (rows and entity links); no audit trail, as they
    were never adopted."""
    engine = get_engine()
    for memory_id in memory_ids:
        with contextlib.suppress(LookupError):  # already gone
            engine.delete_fact(memory_id=memory_id, scope_key=scope.key)


def memory_record_extracted(
    *,
    scope: MemoryScope,
    memory_id: str,
    text: str,
    actor: Actor,
    category: str,
    memory_key: str = "",
    run_id: str = "",
) -> WriteOutcome:
    """Adopt a fact Mem0 extracted (infer=True): its category, key and audit trail.

    The fact passes admission again (an LLM can reassemble a secret from pieces that were
    harmless one by one); a refused fact is physically removed and never audited. The same
    governance as ``memory_add`` holds: a fact repeating an active memory is removed and
    answers ``no_effect`` (``duplicate``), one whose key holds an explicit statement is removed
    (``explicit_statement_kept``), otherwise it supersedes the key's current memory. The caller
    holds the scope's write lock (the ingest worker, from extraction to adoption)."""
    admission = admit_extracted(text=text)
    if _admission_refused(admission):
        memory_discard(scope=scope, memory_ids=[memory_id])
        return WriteOutcome(
            status=WriteStatus.REJECTED, memory_id=memory_id, reason=admission.reason
        )
    if not _valid_key(memory_key):
        memory_key = ""
    with scope_write_lock(scope):
        row = memory_owned_row(scope=scope, memory_id=memory_id)
        job = row.payload.get("ingest_job_id")
        # Other facts of the same extraction are not adopted yet: never a duplicate of them.
        provisional = (
            tuple(
                str(i)
                for i in scope_rows(scope)
                .filter(payload__ingest_job_id=job)
                .values_list("id", flat=True)
            )
            if job
            else (memory_id,)
        )
        repeated = memory_find_by_text(scope=scope, text=text)
        if repeated is not None and repeated.id in provisional:
            repeated = None
        repeated = repeated or memory_near_duplicate(
            scope=scope, text=text, exclude_ids=provisional
        )
        confidence = float(row.payload.get("confidence") or governance.INFERRED_CONFIDENCE)
        current, may_replace = _key_conflict(
            scope=scope, memory_key=memory_key, confidence=confidence, exclude_id=memory_id
        )
        if repeated is not None or (current is not None and not may_replace):
            memory_discard(scope=scope, memory_ids=[memory_id])
            kept = repeated.id if repeated is not None else str(current.id)  # type: ignore[union-attr]
            reason = "duplicate" if repeated is not None else "explicit_statement_kept"
            metrics.writes.labels("ingest", "no_effect").inc()
            return _noop(
                scope=scope,
                memory_id=kept,
                actor=actor,
                source=Source.INGEST,
                run_id=run_id,
                reason=reason,
            )
        # The extraction's facts are stored already, this one among them, so the size counts
        # them: near the cap a fact that would just have fit may be refused, never one too many.
        cap = settings.MAX_MEMORIES_PER_USER
        if cap > 0 and scope_stored_count(scope=scope) > cap:
            memory_discard(scope=scope, memory_ids=[memory_id])
            metrics.quota_exceeded.labels(Source.INGEST).inc()
            return WriteOutcome(
                status=WriteStatus.REJECTED, memory_id=memory_id, reason=QUOTA_EXCEEDED
            )
        fields: dict[str, Any] = {"category": Category(category).value}
        if memory_key:
            fields["memory_key"] = memory_key
        get_engine().patch_payload(memory_id=memory_id, fields=fields)
        _record_write(
            scope=scope,
            memory_id=memory_id,
            event=AuditEvent.Event.ADD,
            actor=actor,
            source=Source.INGEST,
            run_id=run_id,
            new_text=text,
            replaces=current,
        )
    metrics.writes.labels("ingest", "added").inc()
    return WriteOutcome(
        status=WriteStatus.ADDED,
        memory_id=memory_id,
        inserted_count=1,
        superseded_id=str(current.id) if current is not None else None,
    )


def _owned_row(*, scope: MemoryScope, memory_id: str) -> MemoryRow | WriteOutcome:
    """The scope's memory ``memory_id``, or the ``not_found`` / ``forbidden`` outcome a write
    of it answers (the caller holds the scope's write lock)."""
    try:
        return memory_owned_row(scope=scope, memory_id=memory_id)
    except MemoryNotFound:
        return WriteOutcome(status=WriteStatus.NOT_FOUND, memory_id=memory_id)
    except MemoryForbidden:
        return WriteOutcome(status=WriteStatus.FORBIDDEN, memory_id=memory_id)


def memory_update(
    *,
    scope: MemoryScope,
    memory_id: str,
    text: str,
    actor: Actor,
    category: str | None = None,
    memory_key: str | None = None,
    valid_until: datetime | None | Unset = UNSET,
    source: str = Source.MANAGE,
    run_id: str = "",
    occurred_at: datetime | None = None,
) -> WriteOutcome:
    """Correct a fact in place: the id stays, the text is re-embedded, entities relinked.

    A correction is new text: it passes the same admission as a new fact.
    ``memory_key`` (``""`` removes it) and ``valid_until`` (``None``: never expires) change
    only when given; taking a key that another active memory holds supersedes that memory
    (``superseded_id``). A correction is the user's (or their agent's) explicit word: the
    memory becomes an explicit statement, current again if it was superseded or expired."""
    text = text.strip()
    if not text or len(text) > MAX_FACT_LENGTH:
        return WriteOutcome(status=WriteStatus.REJECTED, memory_id=memory_id, reason="invalid_text")
    if memory_key is not None and not _valid_key(memory_key):
        return WriteOutcome(
            status=WriteStatus.REJECTED, memory_id=memory_id, reason="invalid_memory_key"
        )
    if _past(valid_until):
        return WriteOutcome(
            status=WriteStatus.REJECTED, memory_id=memory_id, reason="valid_until_past"
        )
    admission = admit_text(source=source, text=text)
    if _admission_refused(admission):
        return WriteOutcome(
            status=WriteStatus.REJECTED, memory_id=memory_id, reason=admission.reason
        )
    text = admission.text
    try:
        with scope_write_lock(scope):
            row = _owned_row(scope=scope, memory_id=memory_id)
            if isinstance(row, WriteOutcome):
                return row
            old_text = row.content
            changes: dict[str, Any] = {}
            if category and category != row.category:
                changes["category"] = Category(category).value
            if memory_key is not None and memory_key != (row.payload.get("memory_key") or ""):
                changes["memory_key"] = memory_key or None
            if valid_until is not UNSET and governance.iso(valid_until) != row.payload.get(
                "valid_until"
            ):
                changes["valid_until"] = governance.iso(valid_until)
            # Quote style alone is no change: admission stores “x” as "x".
            same_text = normalize_quotes(old_text) == normalize_quotes(text)
            if same_text and not changes:
                return _noop(
                    scope=scope,
                    memory_id=memory_id,
                    actor=actor,
                    source=source,
                    run_id=run_id,
                    reason="unchanged",
                )
            key = changes.get("memory_key", row.payload.get("memory_key")) or ""
            current, _ = _key_conflict(
                scope=scope,
                memory_key=key,
                confidence=governance.EXPLICIT_CONFIDENCE,
                exclude_id=memory_id,
            )
            until = governance.parse_instant(
                changes.get("valid_until", row.payload.get("valid_until"))
            )
            metadata = {
                **changes,
                "confidence": governance.EXPLICIT_CONFIDENCE,
                "embedding_model": get_engine().embedding_model,
                "schema_version": SCHEMA_VERSION,
            }
            if until is None or until > timezone.now():
                metadata |= {"status": MemoryStatus.ACTIVE.value, "superseded_by": None}
            get_engine().update_fact(memory_id=memory_id, text=text, metadata=metadata)
            try:
                _record_write(
                    scope=scope,
                    memory_id=memory_id,
                    event=AuditEvent.Event.UPDATE,
                    actor=actor,
                    source=source,
                    run_id=run_id,
                    old_text=old_text,
                    new_text=text,
                    # What changed besides the text, old → new, for the history.
                    changes={
                        field: [
                            row.category if field == "category" else row.payload.get(field),
                            value,
                        ]
                        for field, value in changes.items()
                    }
                    or None,
                    at=occurred_at,
                    replaces=current,
                )
            except Exception:
                # No change without its audit trail: put the old text and metadata back.
                previous = {key: row.payload.get(key) for key in metadata}
                get_engine().update_fact(memory_id=memory_id, text=old_text, metadata=previous)
                raise
    except BackendError as exc:
        metrics.writes.labels("update", "backend_error").inc()
        return WriteOutcome(status=WriteStatus.BACKEND_ERROR, memory_id=memory_id, reason=str(exc))
    metrics.writes.labels("update", "updated").inc()
    return WriteOutcome(
        status=WriteStatus.UPDATED,
        memory_id=memory_id,
        superseded_id=str(current.id) if current is not None else None,
    )


def memory_set_validity(
    *,
    scope: MemoryScope,
    memory_id: str,
    valid_until: datetime | None,
    actor: Actor,
    source: str = Source.CONSOLE,
) -> WriteOutcome:
    """Extend, shorten or clear (``None``) a memory's expiry. An expired memory given a future
    (or no) expiry is current again, unless another active memory holds its key now."""
    try:
        with scope_write_lock(scope):
            row = _owned_row(scope=scope, memory_id=memory_id)
            if isinstance(row, WriteOutcome):
                return row
            if row.payload.get("status") == MemoryStatus.SUPERSEDED:
                return WriteOutcome(
                    status=WriteStatus.REJECTED, memory_id=memory_id, reason="superseded"
                )
            fields: dict[str, Any] = {"valid_until": governance.iso(valid_until)}
            live = valid_until is None or valid_until > timezone.now()
            key = str(row.payload.get("memory_key") or "")
            if live and row.payload.get("status") == MemoryStatus.EXPIRED:
                holder, _ = _key_conflict(
                    scope=scope, memory_key=key, confidence=1.0, exclude_id=memory_id
                )
                if holder is not None:
                    return WriteOutcome(
                        status=WriteStatus.REJECTED, memory_id=memory_id, reason="key_in_use"
                    )
                fields["status"] = MemoryStatus.ACTIVE.value
            if fields == {k: row.payload.get(k) for k in fields}:
                return _noop(
                    scope=scope,
                    memory_id=memory_id,
                    actor=actor,
                    source=source,
                    run_id="",
                    reason="unchanged",
                )
            get_engine().patch_payload(memory_id=memory_id, fields=fields)
            _audit(
                scope=scope,
                memory_id=memory_id,
                event=AuditEvent.Event.UPDATE,
                actor=actor,
                source=source,
                status="valid_until",
            )
    except BackendError as exc:
        return WriteOutcome(status=WriteStatus.BACKEND_ERROR, memory_id=memory_id, reason=str(exc))
    return WriteOutcome(status=WriteStatus.UPDATED, memory_id=memory_id)


EXPIRY_ACTOR = Actor(kind=ActorKind.SYSTEM, id="expiry")


def memories_expire(*, now: datetime | None = None) -> int:
    """Mark every active memory past its ``valid_until`` ``expired`` (the periodic sweep),
    scope by scope under its write lock. Readers already treat them as expired; the mark makes
    the list, the admin and exports say so. Returns how many were marked."""
    now = now or timezone.now()
    due: dict[str, list[str]] = {}
    for scope_key, memory_id in memories_due_to_expire(now=now):
        due.setdefault(scope_key, []).append(memory_id)
    marked = 0
    for scope_key, memory_ids in due.items():
        scope = MemoryScope.from_key(scope_key)
        with scope_write_lock(scope):
            for memory_id in memory_ids:
                try:
                    get_engine().patch_payload(
                        memory_id=memory_id, fields={"status": MemoryStatus.EXPIRED.value}
                    )
                except LookupError:
                    continue  # deleted meanwhile
                _audit(
                    scope=scope,
                    memory_id=memory_id,
                    event=AuditEvent.Event.UPDATE,
                    actor=EXPIRY_ACTOR,
                    source="expiry",
                    status=MemoryStatus.EXPIRED,
                )
                marked += 1
    if marked:
        logger.info("expired %s memories", marked)
    return marked


def _forget_audit_text(
    *, scope: MemoryScope, memory_id: str, actor: Actor, source: str, run_id: str, status: str
) -> None:
    """Remove the text from every audit row of the id; keep a content-free tombstone. How
    often agents used it goes too."""
    with transaction.atomic():
        AuditEvent.objects.filter(
            memory_id=memory_id, tenant_id=scope.tenant_id, user_id=scope.user_id
        ).update(old_text="", new_text="")
        MemoryUse.objects.filter(
            memory_id=memory_id, tenant_id=scope.tenant_id, user_id=scope.user_id
        ).delete()
        _audit(
            scope=scope,
            memory_id=memory_id,
            event=AuditEvent.Event.DELETE,
            actor=actor,
            source=source,
            run_id=run_id,
            status=status,
        )


def memory_delete(
    *,
    scope: MemoryScope,
    memory_id: str,
    actor: Actor,
    source: str = Source.MANAGE,
    run_id: str = "",
) -> DeleteOutcome:
    """Forget one memory everywhere: main row, entity links, Mem0 history, audit text. A
    deletion mark keeps ingest jobs accepted earlier from adding the same fact back."""
    try:
        with scope_write_lock(scope):
            try:
                row = memory_owned_row(scope=scope, memory_id=memory_id)
            except MemoryNotFound:
                return DeleteOutcome(status=DeleteStatus.NOT_FOUND)
            except MemoryForbidden:
                return DeleteOutcome(status=DeleteStatus.FORBIDDEN)
            _mark_deleted(scope=scope, memory_id=memory_id, text=row.content)
            return _delete_owned(
                scope=scope, memory_id=memory_id, actor=actor, source=source, run_id=run_id
            )
    except BackendError as exc:
        return DeleteOutcome(status=DeleteStatus.BACKEND_ERROR, reason=str(exc))


def _mark_deleted(*, scope: MemoryScope, memory_id: str | None = None, text: str = "") -> datetime:
    """Leave the deletion mark that in-flight writers accepted earlier obey (committed at once,
    so a worker on another connection sees it)."""
    try:
        mark = DeletionMark.objects.create(
            tenant_id=scope.tenant_id,
            user_id=scope.user_id,
            memory_id=memory_id,
            fact_digest=DeletionMark.digest_of(text) if text else "",
        )
    except DatabaseError as exc:
        raise BackendError(f"deletion mark failed: {type(exc).__name__}") from exc
    return mark.created_at


def deletion_marks_prune(*, before: datetime) -> int:
    """Forget deletion marks older than ``before`` (no job that could need them is pending)."""
    deleted, _ = DeletionMark.objects.filter(created_at__lt=before).delete()
    return deleted


def _residue(memory_id: str) -> int:
    """Derived rows (entity links) still holding a deleted id; an unanswerable check counts as
    residue, as nothing may be reported clean that was not seen clean."""
    try:
        return get_engine().entity_links(memory_id=memory_id)
    except Exception:  # noqa: BLE001 - any failure to look is "not known to be clean"
        return 1


def _delete_owned(
    *, scope: MemoryScope, memory_id: str, actor: Actor, source: str, run_id: str
) -> DeleteOutcome:
    try:
        get_engine().delete_fact(memory_id=memory_id, scope_key=scope.key)
    except LookupError:
        return DeleteOutcome(status=DeleteStatus.NOT_FOUND)
    except CleanupError as exc:
        left = _residue(memory_id)
        status = DeleteStatus.PARTIAL_CLEANUP if left else DeleteStatus.DELETED
        _forget_audit_text(
            scope=scope,
            memory_id=memory_id,
            actor=actor,
            source=source,
            run_id=run_id,
            status=status,
        )
        if not left:
            return DeleteOutcome(status=DeleteStatus.DELETED, deleted_count=1)
        metrics.delete_item_partial_cleanup.inc()
        logger.warning("delete left residue: memory=%s scope=%s", memory_id, scope.key)
        return DeleteOutcome(
            status=DeleteStatus.PARTIAL_CLEANUP,
            deleted_count=1,
            remaining_count=1,
            reason=str(exc),
        )
    _forget_audit_text(
        scope=scope,
        memory_id=memory_id,
        actor=actor,
        source=source,
        run_id=run_id,
        status=DeleteStatus.DELETED,
    )
    return DeleteOutcome(status=DeleteStatus.DELETED, deleted_count=1)


def memory_delete_user(
    *, scope: MemoryScope, actor: Actor, source: str = Source.MANAGE
) -> DeleteOutcome:
    """Forget every memory of the scope in set-based statements.

    The deletion mark comes first: a job accepted before it never writes, even one holding the
    scope lock right now. The answer is a fact: ``deleted`` only when nothing of the scope is
    left, ``partial_cleanup`` with the count of what is.
    """
    try:
        marked_at = _mark_deleted(scope=scope)
    except BackendError as exc:
        return DeleteOutcome(status=DeleteStatus.BACKEND_ERROR, reason=str(exc))
    for receiver, error in scope_deletion_marked.send_robust(
        sender=memory_delete_user, scope=scope, marked_at=marked_at
    ):
        if isinstance(error, Exception):
            # Not fatal: a job that was not decided here still obeys the mark when it runs.
            logger.warning("deletion-mark receiver %s failed: %s", receiver, type(error).__name__)
    deleted: list[str] = []
    residue = 0
    failure: str | None = None
    try:
        with scope_write_lock(scope):
            engine = get_engine()
            gone = engine.delete_scope(scope_key=scope.key)
            deleted, residue = gone.memory_ids, gone.residue
            _forget_scope_audit_text(
                scope=scope,
                memory_ids=deleted,
                actor=actor,
                source=source,
                status=DeleteStatus.PARTIAL_CLEANUP if residue else DeleteStatus.DELETED,
            )
    except BackendError as exc:
        failure = str(exc)
    try:
        remaining = _scope_remaining(scope=scope) + residue
    except BackendError as exc:
        failure = failure or str(exc)
        remaining = None
    if len(deleted) >= VACUUM_AFTER_DELETING:
        vacuum_memory_tables_soon()  # deleted text lingers in heap pages until vacuumed
    if remaining == 0:
        return DeleteOutcome(status=DeleteStatus.DELETED, deleted_count=len(deleted))
    if not deleted and failure:
        return DeleteOutcome(status=DeleteStatus.BACKEND_ERROR, reason=failure)
    metrics.delete_user_partial_cleanup.inc()
    left = "an unknown number of" if remaining is None else str(remaining)
    return DeleteOutcome(
        status=DeleteStatus.PARTIAL_CLEANUP,
        deleted_count=len(deleted),
        remaining_count=remaining or 0,
        reason=f"{left} memories left" + (f" ({failure})" if failure else ""),
    )


def _forget_scope_audit_text(
    *, scope: MemoryScope, memory_ids: list[str], actor: Actor, source: str, status: str
) -> None:
    """``_forget_audit_text`` for a whole scope at once: every audit row of the scope loses
    its text, and each deleted memory gets its content-free tombstone."""
    now = timezone.now()
    with transaction.atomic():
        # The run id is the client's own reference: it goes with the text.
        AuditEvent.objects.filter(tenant_id=scope.tenant_id, user_id=scope.user_id).update(
            old_text="", new_text="", run_id=""
        )
        MemoryUse.objects.filter(tenant_id=scope.tenant_id, user_id=scope.user_id).delete()
        AuditEvent.objects.bulk_create(
            [
                AuditEvent(
                    memory_id=memory_id,
                    tenant_id=scope.tenant_id,
                    user_id=scope.user_id,
                    event=AuditEvent.Event.DELETE,
                    actor_kind=actor.kind.value,
                    actor_id=actor.id,
                    source=source,
                    status=status,
                    created_at=now,
                )
                for memory_id in memory_ids
            ],
            batch_size=2000,
        )


def _scope_remaining(*, scope: MemoryScope) -> int:
    """Memories of the scope still present."""
    try:
        return scope_rows(scope).count()
    except Exception as exc:  # noqa: BLE001 - an outage while counting: unknown, not zero
        raise BackendError(f"count after delete failed: {type(exc).__name__}") from exc


def staff_view_record(
    *, scope: MemoryScope, actor: Actor, page: str, memory_id: str | None = None
) -> None:
    """Staff read the scope's memories on an admin page: one content-free VIEW row (who, when,
    which page, which memory when the page shows one). A delete-user treats it like the scope's
    other audit rows (``_forget_scope_audit_text``); it never holds text to forget."""
    _audit(
        scope=scope,
        memory_id=memory_id,
        event=AuditEvent.Event.VIEW,
        actor=actor,
        source=Source.ADMIN,
        page=page,
    )


def memory_switches_update(
    *,
    scope: MemoryScope,
    memory_save_enabled: bool | None = None,
    memory_reference_enabled: bool | None = None,
) -> None:
    current = memory_switches(scope=scope)
    MemorySettings.objects.update_or_create(
        tenant_id=scope.tenant_id,
        user_id=scope.user_id,
        defaults={
            "memory_save_enabled": current.memory_save_enabled
            if memory_save_enabled is None
            else memory_save_enabled,
            "memory_reference_enabled": current.memory_reference_enabled
            if memory_reference_enabled is None
            else memory_reference_enabled,
        },
    )


def _patch_audited(
    *, memory_id: str, fields: dict[str, Any], before: dict[str, Any], **audit: Any
) -> None:
    """Merge ``fields`` into a memory's payload with its audited UPDATE row: both or neither
    (the payload is put back as ``before`` when the audit row cannot be written)."""
    get_engine().patch_payload(memory_id=memory_id, fields=fields)
    try:
        _audit(memory_id=memory_id, event=AuditEvent.Event.UPDATE, **audit)
    except Exception:
        with contextlib.suppress(Exception):
            get_engine().patch_payload(memory_id=memory_id, fields=before)
        raise


# How many memories one user may mark "always use": the context endpoint injects at most three
# facts, so more pins than a handful would only compete with each other.
MAX_PINS = 10
PIN_LIMIT = "pin_limit"


def memory_pin(
    *,
    scope: MemoryScope,
    memory_id: str,
    pinned: bool,
    actor: Actor,
    source: str = Source.CONSOLE,
) -> WriteOutcome:
    """Mark a memory "always use" (``pinned``) or take the mark off. The context endpoint gives
    pinned memories its first places; only a current (active) memory can be pinned, and at
    most ``MAX_PINS`` per scope (``rejected``, reason ``pin_limit``)."""
    try:
        with scope_write_lock(scope):
            row = _owned_row(scope=scope, memory_id=memory_id)
            if isinstance(row, WriteOutcome):
                return row
            if bool(row.payload.get("pinned")) == pinned:
                return WriteOutcome(
                    status=WriteStatus.NO_EFFECT, memory_id=memory_id, reason="unchanged"
                )
            if pinned:
                if governance.payload_status(row.payload) != MemoryStatus.ACTIVE:
                    return WriteOutcome(
                        status=WriteStatus.REJECTED, memory_id=memory_id, reason="not_active"
                    )
                if pinned_count(scope=scope) >= MAX_PINS:
                    return WriteOutcome(
                        status=WriteStatus.REJECTED, memory_id=memory_id, reason=PIN_LIMIT
                    )
            fields = {
                "pinned": pinned,
                "pinned_at": timezone.now().isoformat() if pinned else None,
            }
            _patch_audited(
                memory_id=memory_id,
                fields=fields,
                before={key: row.payload.get(key) for key in fields},
                scope=scope,
                actor=actor,
                source=source,
                status="pinned" if pinned else "unpinned",
            )
    except (BackendError, DatabaseError) as exc:
        reason = str(exc) if isinstance(exc, BackendError) else "database unavailable"
        return WriteOutcome(status=WriteStatus.BACKEND_ERROR, memory_id=memory_id, reason=reason)
    return WriteOutcome(status=WriteStatus.UPDATED, memory_id=memory_id)


def memories_set_category(
    *,
    scope: MemoryScope,
    memory_ids: list[str],
    category: str,
    actor: Actor,
    source: str = Source.CONSOLE,
) -> list[WriteOutcome]:
    """Give several memories of the scope one category, under one hold of the scope's lock:
    the text, vector and everything else stay; each change is an audited UPDATE naming the old
    and new category. One outcome per id, in order (``not_found`` / ``forbidden`` for ids that
    are not the scope's, ``no_effect`` where the category was already that one)."""
    new = Category(category).value
    outcomes: list[WriteOutcome] = []
    try:
        with scope_write_lock(scope):
            for memory_id in memory_ids:
                row = _owned_row(scope=scope, memory_id=memory_id)
                if isinstance(row, WriteOutcome):
                    outcomes.append(row)
                    continue
                if row.category == new:
                    outcomes.append(
                        WriteOutcome(
                            status=WriteStatus.NO_EFFECT, memory_id=memory_id, reason="unchanged"
                        )
                    )
                    continue
                _patch_audited(
                    memory_id=memory_id,
                    fields={"category": new},
                    before={"category": row.payload.get("category")},
                    scope=scope,
                    actor=actor,
                    source=source,
                    changes={"category": [row.category, new]},
                )
                outcomes.append(WriteOutcome(status=WriteStatus.UPDATED, memory_id=memory_id))
    except (BackendError, DatabaseError) as exc:
        reason = str(exc) if isinstance(exc, BackendError) else "database unavailable"
        done = {o.memory_id for o in outcomes}
        outcomes += [
            WriteOutcome(status=WriteStatus.BACKEND_ERROR, memory_id=m, reason=reason)
            for m in memory_ids
            if m not in done
        ]
    return outcomes
