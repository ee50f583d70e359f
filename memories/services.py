"""Writes. Each service checks ownership, calls the engine once, and records the audit trail.

Outcomes are facts (``memories.types``): a failure is never reported as success, and a write
that fails leaves nothing half-written.
"""

from __future__ import annotations

import contextlib
import logging
from datetime import datetime
from typing import Any

from django.db import DatabaseError, transaction
from django.utils import timezone

from memories import metrics
from memories.admission import AdmissionResult, admit_extracted, admit_text
from memories.engine import ExtractedFact, get_engine
from memories.locks import scope_write_lock
from memories.models import AuditEvent, DeletionMark, MemorySettings
from memories.selectors import (
    memory_find_by_text,
    memory_owned_row,
    memory_switches,
    scope_rows,
)
from memories.signals import scope_deletion_marked
from memories.text import normalize_quotes
from memories.types import (
    SCHEMA_VERSION,
    Actor,
    BackendError,
    Category,
    CleanupError,
    DeleteOutcome,
    DeleteStatus,
    MemoryForbidden,
    MemoryNotFound,
    MemoryScope,
    Source,
    WriteOutcome,
    WriteStatus,
)

logger = logging.getLogger(__name__)

MAX_FACT_LENGTH = 2000


def _audit(
    *,
    scope: MemoryScope,
    memory_id: str,
    event: str,
    actor: Actor,
    source: str,
    run_id: str = "",
    old_text: str = "",
    new_text: str = "",
    status: str = "",
    changes: dict[str, list[Any]] | None = None,
    at: datetime | None = None,
) -> None:
    AuditEvent.objects.create(
        memory_id=memory_id,
        tenant_id=scope.tenant_id,
        user_id=scope.user_id,
        event=event,
        actor_kind=actor.kind.value,
        actor_id=actor.id,
        source=source,
        run_id=run_id,
        old_text=old_text,
        new_text=new_text,
        status=status,
        changes=changes or {},
        created_at=at or timezone.now(),
    )


def _admission_refused(admission: AdmissionResult) -> bool:
    """Count a refusal (by reason, never by content) and say whether there was one."""
    if admission.admitted:
        return False
    metrics.admission_rejected.labels(admission.reason or "unknown").inc()
    return True


def our_metadata(*, category: str, source: str, confidence: float | None = None) -> dict[str, Any]:
    metadata: dict[str, Any] = {
        "category": Category(category).value,
        "source": Source(source).value,
        "embedding_model": get_engine().embedding_model,
        "schema_version": SCHEMA_VERSION,
    }
    if confidence is not None:
        metadata["confidence"] = round(float(confidence), 3)
    return metadata


def memory_add(
    *,
    scope: MemoryScope,
    text: str,
    actor: Actor,
    category: str = Category.FACT,
    source: str = Source.MANAGE,
    run_id: str = "",
    confidence: float | None = None,
    created_at: datetime | None = None,
) -> WriteOutcome:
    """Store exactly one confirmed fact. The same text again stores nothing (NOOP).

    The text passes admission here, so no caller can store what admission refuses; what is
    stored is the admitted text (noise, paths and URLs cut out, ASCII quotes)."""
    text = text.strip()
    if not text or len(text) > MAX_FACT_LENGTH:
        return WriteOutcome(status=WriteStatus.REJECTED, reason="invalid_text")
    admission = admit_text(source=source, text=text)
    if _admission_refused(admission):
        return WriteOutcome(status=WriteStatus.REJECTED, reason=admission.reason)
    text = admission.text
    try:
        with scope_write_lock(scope):
            existing = memory_find_by_text(scope=scope, text=text)
            if existing is not None:
                _audit(
                    scope=scope,
                    memory_id=existing.id,
                    event=AuditEvent.Event.NOOP,
                    actor=actor,
                    source=source,
                    run_id=run_id,
                    status="duplicate",
                )
                metrics.writes.labels("add", "no_effect").inc()
                return WriteOutcome(
                    status=WriteStatus.NO_EFFECT, memory_id=existing.id, reason="duplicate"
                )
            metadata = our_metadata(category=category, source=source, confidence=confidence)
            if created_at is not None:
                metadata["created_at"] = created_at.isoformat()
            memory_id = get_engine().add_fact(scope_key=scope.key, text=text, metadata=metadata)
            try:
                _audit(
                    scope=scope,
                    memory_id=memory_id,
                    event=AuditEvent.Event.ADD,
                    actor=actor,
                    source=source,
                    run_id=run_id,
                    new_text=text,
                    at=created_at,
                )
            except Exception:
                # No memory without its audit trail: take the row back out.
                get_engine().delete_fact(memory_id=memory_id, scope_key=scope.key)
                raise
    except BackendError as exc:
        metrics.writes.labels("add", "backend_error").inc()
        return WriteOutcome(status=WriteStatus.BACKEND_ERROR, reason=str(exc))
    metrics.writes.labels("add", "added").inc()
    return WriteOutcome(status=WriteStatus.ADDED, memory_id=memory_id, inserted_count=1)


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
    run_id: str = "",
) -> WriteOutcome:
    """Adopt a fact Mem0 extracted (infer=True): its category and its audit trail.

    The fact passes admission again (an LLM can reassemble a secret from pieces that were
    harmless one by one); a refused fact is physically removed and never audited."""
    admission = admit_extracted(text=text)
    if _admission_refused(admission):
        memory_discard(scope=scope, memory_ids=[memory_id])
        return WriteOutcome(
            status=WriteStatus.REJECTED, memory_id=memory_id, reason=admission.reason
        )
    if category != Category.FACT:
        metadata = our_metadata(category=category, source=Source.INGEST)
        get_engine().set_metadata(memory_id=memory_id, metadata=metadata)
    _audit(
        scope=scope,
        memory_id=memory_id,
        event=AuditEvent.Event.ADD,
        actor=actor,
        source=Source.INGEST,
        run_id=run_id,
        new_text=text,
    )
    metrics.writes.labels("ingest", "added").inc()
    return WriteOutcome(status=WriteStatus.ADDED, memory_id=memory_id, inserted_count=1)


def memory_update(
    *,
    scope: MemoryScope,
    memory_id: str,
    text: str,
    actor: Actor,
    category: str | None = None,
    source: str = Source.MANAGE,
    run_id: str = "",
    occurred_at: datetime | None = None,
) -> WriteOutcome:
    """Correct a fact in place: the id stays, the text is re-embedded, entities relinked.

    A correction is new text: it passes the same admission as a new fact (seed 000 §7)."""
    text = text.strip()
    if not text or len(text) > MAX_FACT_LENGTH:
        return WriteOutcome(status=WriteStatus.REJECTED, memory_id=memory_id, reason="invalid_text")
    admission = admit_text(source=source, text=text)
    if _admission_refused(admission):
        return WriteOutcome(
            status=WriteStatus.REJECTED, memory_id=memory_id, reason=admission.reason
        )
    text = admission.text
    try:
        with scope_write_lock(scope):
            try:
                row = memory_owned_row(scope=scope, memory_id=memory_id)
            except MemoryNotFound:
                return WriteOutcome(status=WriteStatus.NOT_FOUND, memory_id=memory_id)
            except MemoryForbidden:
                return WriteOutcome(status=WriteStatus.FORBIDDEN, memory_id=memory_id)
            old_text = row.content
            new_category = category or row.category
            # Quote style alone is no change: admission stores “x” as "x" (seed 000 §4.1).
            same_text = normalize_quotes(old_text) == normalize_quotes(text)
            if same_text and new_category == row.category:
                _audit(
                    scope=scope,
                    memory_id=memory_id,
                    event=AuditEvent.Event.NOOP,
                    actor=actor,
                    source=source,
                    run_id=run_id,
                    status="unchanged",
                )
                return WriteOutcome(
                    status=WriteStatus.NO_EFFECT, memory_id=memory_id, reason="unchanged"
                )
            metadata = our_metadata(category=new_category, source=row.source)
            metadata["confidence"] = row.payload.get("confidence")
            metadata = {k: v for k, v in metadata.items() if v is not None}
            get_engine().update_fact(memory_id=memory_id, text=text, metadata=metadata)
            try:
                _audit(
                    scope=scope,
                    memory_id=memory_id,
                    event=AuditEvent.Event.UPDATE,
                    actor=actor,
                    source=source,
                    run_id=run_id,
                    old_text=old_text,
                    new_text=text,
                    changes=(
                        {"category": [row.category, new_category]}
                        if new_category != row.category
                        else None
                    ),
                    at=occurred_at,
                )
            except Exception:
                # No change without its audit trail: put the old text and metadata back.
                previous = {key: row.payload[key] for key in metadata if key in row.payload}
                get_engine().update_fact(memory_id=memory_id, text=old_text, metadata=previous)
                raise
    except BackendError as exc:
        metrics.writes.labels("update", "backend_error").inc()
        return WriteOutcome(status=WriteStatus.BACKEND_ERROR, memory_id=memory_id, reason=str(exc))
    metrics.writes.labels("update", "updated").inc()
    return WriteOutcome(status=WriteStatus.UPDATED, memory_id=memory_id)


def _forget_audit_text(
    *, scope: MemoryScope, memory_id: str, actor: Actor, source: str, run_id: str, status: str
) -> None:
    """Remove the text from every audit row of the id; keep a content-free tombstone."""
    with transaction.atomic():
        AuditEvent.objects.filter(
            memory_id=memory_id, tenant_id=scope.tenant_id, user_id=scope.user_id
        ).update(old_text="", new_text="")
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
        AuditEvent.objects.filter(tenant_id=scope.tenant_id, user_id=scope.user_id).update(
            old_text="", new_text=""
        )
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
