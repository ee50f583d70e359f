"""Forgetting: one memory (``memory_delete``) or a whole scope (``memory_delete_user``), with
every derived row and the audit text, behind a deletion mark that earlier ingest jobs obey."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime

from django.db import DatabaseError, transaction
from django.utils import timezone

from memories import metrics
from memories.digests import log_name
from memories.engine import get_engine
from memories.locks import scope_write_lock
from memories.models import AuditEvent, DeletionMark, MemoryUse
from memories.selectors import memory_owned_row, scope_rows
from memories.services.vacuum import VACUUM_AFTER_DELETING, vacuum_memory_tables_soon
from memories.services.write import WriteContext, audit
from memories.signals import scope_deletion_marked
from memories.types import (
    Actor,
    BackendError,
    CleanupError,
    DeleteOutcome,
    DeleteStatus,
    MemoryForbidden,
    MemoryNotFound,
    MemoryScope,
    Source,
)

logger = logging.getLogger(__name__)


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
    ctx = WriteContext(scope=scope, actor=actor, source=source, run_id=run_id)
    try:
        with scope_write_lock(scope):
            try:
                row = memory_owned_row(scope=scope, memory_id=memory_id)
            except MemoryNotFound:
                return DeleteOutcome(status=DeleteStatus.NOT_FOUND)
            except MemoryForbidden:
                return DeleteOutcome(status=DeleteStatus.FORBIDDEN)
            _mark_deleted(scope=scope, memory_id=memory_id, text=row.content)
            return _delete_owned(ctx, memory_id=memory_id)
    except BackendError as exc:
        return DeleteOutcome(status=DeleteStatus.BACKEND_ERROR, reason=str(exc))


def deletion_marks_prune(*, before: datetime) -> int:
    """Forget deletion marks older than ``before`` (no job that could need them is pending)."""
    deleted, _ = DeletionMark.objects.filter(created_at__lt=before).delete()
    return deleted


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


def _delete_owned(ctx: WriteContext, *, memory_id: str) -> DeleteOutcome:
    """Delete the scope's memory and its audit text; ``partial_cleanup`` when derived rows the
    engine could not remove still hold its id."""
    try:
        get_engine().delete_fact(memory_id=memory_id, scope_key=ctx.scope.key)
    except LookupError:
        return DeleteOutcome(status=DeleteStatus.NOT_FOUND)
    except CleanupError as exc:
        left = _residue(memory_id)
        status = DeleteStatus.PARTIAL_CLEANUP if left else DeleteStatus.DELETED
        _forget_audit_text(ctx, memory_id=memory_id, status=status)
        if not left:
            return DeleteOutcome(status=DeleteStatus.DELETED, deleted_count=1)
        metrics.delete_item_partial_cleanup.inc()
        logger.warning(
            "delete left residue: memory=%s scope=%s", memory_id, log_name(ctx.scope.key)
        )
        return DeleteOutcome(
            status=DeleteStatus.PARTIAL_CLEANUP,
            deleted_count=1,
            remaining_count=1,
            reason=str(exc),
        )
    _forget_audit_text(ctx, memory_id=memory_id, status=DeleteStatus.DELETED)
    return DeleteOutcome(status=DeleteStatus.DELETED, deleted_count=1)


def _residue(memory_id: str) -> int:
    """Derived rows (entity links) still holding a deleted id; an unanswerable check counts as
    residue, as nothing may be reported clean that was not seen clean."""
    try:
        return get_engine().entity_links(memory_id=memory_id)
    except Exception:  # noqa: BLE001 - any failure to look is "not known to be clean"
        return 1


def _forget_audit_text(ctx: WriteContext, *, memory_id: str, status: str) -> None:
    """Remove the text from every audit row of the id; keep a content-free tombstone. How
    often agents used it goes too."""
    scope = ctx.scope
    with transaction.atomic():
        AuditEvent.objects.filter(
            memory_id=memory_id, tenant_id=scope.tenant_id, user_id=scope.user_id
        ).update(old_text="", new_text="")
        MemoryUse.objects.filter(
            memory_id=memory_id, tenant_id=scope.tenant_id, user_id=scope.user_id
        ).delete()
        audit(ctx, memory_id=memory_id, event=AuditEvent.Event.DELETE, status=status)


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
    _announce_mark(scope=scope, marked_at=marked_at)
    gone = _delete_scope(WriteContext(scope=scope, actor=actor, source=source))
    try:
        gone.remaining = _scope_remaining(scope=scope) + gone.residue
    except BackendError as exc:
        gone.failure = gone.failure or str(exc)
    if len(gone.deleted) >= VACUUM_AFTER_DELETING:
        vacuum_memory_tables_soon()  # deleted text lingers in heap pages until vacuumed
    return gone.outcome()


@dataclass
class _ScopeDeletion:
    """What a delete-user removed, what is left (None: unknown) and the failure on the way."""

    deleted: list[str]
    residue: int = 0
    failure: str | None = None
    remaining: int | None = None

    def outcome(self) -> DeleteOutcome:
        if self.remaining == 0:
            return DeleteOutcome(status=DeleteStatus.DELETED, deleted_count=len(self.deleted))
        if not self.deleted and self.failure:
            return DeleteOutcome(status=DeleteStatus.BACKEND_ERROR, reason=self.failure)
        metrics.delete_user_partial_cleanup.inc()
        left = "an unknown number of" if self.remaining is None else str(self.remaining)
        return DeleteOutcome(
            status=DeleteStatus.PARTIAL_CLEANUP,
            deleted_count=len(self.deleted),
            remaining_count=self.remaining or 0,
            reason=f"{left} memories left" + (f" ({self.failure})" if self.failure else ""),
        )


def _announce_mark(*, scope: MemoryScope, marked_at: datetime) -> None:
    """Tell the layers above (ingest) that the scope is marked, so they drop what waits."""
    for receiver, error in scope_deletion_marked.send_robust(
        sender=memory_delete_user, scope=scope, marked_at=marked_at
    ):
        if isinstance(error, Exception):
            # Not fatal: a job that was not decided here still obeys the mark when it runs.
            logger.warning("deletion-mark receiver %s failed: %s", receiver, type(error).__name__)


def _delete_scope(ctx: WriteContext) -> _ScopeDeletion:
    """Delete the scope's memories and their audit text under the scope's lock; a backend
    failure is recorded, not raised (what is left gets counted after)."""
    result = _ScopeDeletion(deleted=[])
    try:
        with scope_write_lock(ctx.scope):
            gone = get_engine().delete_scope(scope_key=ctx.scope.key)
            result.deleted, result.residue = gone.memory_ids, gone.residue
            _forget_scope_audit_text(
                ctx,
                memory_ids=result.deleted,
                status=DeleteStatus.PARTIAL_CLEANUP if result.residue else DeleteStatus.DELETED,
            )
    except BackendError as exc:
        result.failure = str(exc)
    return result


def _forget_scope_audit_text(ctx: WriteContext, *, memory_ids: list[str], status: str) -> None:
    """``_forget_audit_text`` for a whole scope at once: every audit row of the scope loses
    its text, and each deleted memory gets its content-free tombstone."""
    scope = ctx.scope
    now = timezone.now()
    with transaction.atomic():
        # The run id is the client's own reference: it goes with the text; so does the reason
        # staff gave for a view, which may quote what they read.
        AuditEvent.objects.filter(tenant_id=scope.tenant_id, user_id=scope.user_id).update(
            old_text="", new_text="", run_id="", reason=""
        )
        MemoryUse.objects.filter(tenant_id=scope.tenant_id, user_id=scope.user_id).delete()
        AuditEvent.objects.bulk_create(
            [
                AuditEvent(
                    memory_id=memory_id,
                    tenant_id=scope.tenant_id,
                    user_id=scope.user_id,
                    event=AuditEvent.Event.DELETE,
                    actor_kind=ctx.actor.kind.value,
                    actor_id=ctx.actor.id,
                    source=ctx.source,
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
