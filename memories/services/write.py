"""What every write shares: who writes where (``WriteContext``), its audit rows, and the checks
and answers the services have in common."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils import timezone

from memories import metrics
from memories.admission import AdmissionResult, find_key_secret
from memories.governance import Unset
from memories.models import AuditEvent, MemoryRow
from memories.recall import live
from memories.selectors import memory_owned_row
from memories.types import (
    MEMORY_KEY,
    Actor,
    MemoryForbidden,
    MemoryNotFound,
    MemoryScope,
    WriteOutcome,
    WriteStatus,
)

MAX_FACT_LENGTH = 2000


@dataclass(frozen=True)
class WriteContext:
    """Who writes (``actor``) to which scope, through which door (``source``) and in which run:
    the part of every audit row that one write repeats."""

    scope: MemoryScope
    actor: Actor
    source: str
    run_id: str = ""


def audit_fields(
    ctx: WriteContext,
    *,
    memory_id: str | None,
    event: str,
    old_text: str = "",
    new_text: str = "",
    status: str = "",
    changes: dict[str, list[Any]] | None = None,
    page: str = "",
    at: datetime | None = None,
    reason: str = "",
) -> dict[str, Any]:
    """The fields of one audit row (``audit`` creates it; a batch bulk-creates many)."""
    return {
        "memory_id": memory_id,
        "tenant_id": ctx.scope.tenant_id,
        "user_id": ctx.scope.user_id,
        "event": event,
        "actor_kind": ctx.actor.kind.value,
        "actor_id": ctx.actor.id,
        "source": ctx.source,
        "run_id": ctx.run_id,
        "old_text": old_text,
        "new_text": new_text,
        "status": status,
        "changes": changes or {},
        "page": page,
        "reason": reason,
        "created_at": at or timezone.now(),
    }


def audit(ctx: WriteContext, **fields: Any) -> None:
    """Create one audit row (the fields: ``audit_fields``)."""
    AuditEvent.objects.create(**audit_fields(ctx, **fields))


def audit_row(ctx: WriteContext, **fields: Any) -> AuditEvent:
    """One audit row, unsaved, for a batch to bulk-create."""
    return AuditEvent(**audit_fields(ctx, **fields))


def noop(ctx: WriteContext, *, memory_id: str, reason: str) -> WriteOutcome:
    """A write that changes nothing, recorded in the audit trail with its reason."""
    audit(ctx, memory_id=memory_id, event=AuditEvent.Event.NOOP, status=reason)
    return WriteOutcome(status=WriteStatus.NO_EFFECT, memory_id=memory_id, reason=reason)


def owned_row(*, scope: MemoryScope, memory_id: str) -> MemoryRow | WriteOutcome:
    """The scope's memory ``memory_id``, or the ``not_found`` / ``forbidden`` outcome a write
    of it answers (the caller holds the scope's write lock)."""
    try:
        return memory_owned_row(scope=scope, memory_id=memory_id)
    except MemoryNotFound:
        return WriteOutcome(status=WriteStatus.NOT_FOUND, memory_id=memory_id)
    except MemoryForbidden:
        return WriteOutcome(status=WriteStatus.FORBIDDEN, memory_id=memory_id)


def admission_refused(admission: AdmissionResult) -> bool:
    """Count a refusal (by reason, never by content) and say whether there was one."""
    if admission.admitted:
        return False
    metrics.admission_rejected.labels(admission.reason or "unknown").inc()
    return True


def valid_key(memory_key: str) -> bool:
    """No key, or one of the ``MEMORY_KEY`` form."""
    return not memory_key or bool(MEMORY_KEY.match(memory_key))


def past(valid_until: datetime | None | Unset) -> bool:
    """A new expiry already over: the write would be expired the moment it lands."""
    return isinstance(valid_until, datetime) and live.is_over(valid_until)


def fact_refusal(
    *, text: str, memory_key: str | None, valid_until: datetime | None | Unset
) -> str | None:
    """Why a written fact is rejected before admission reads it (its stripped ``text`` empty or
    too long, a malformed key, an expiry already over), or None. ``memory_key`` None: no key
    given."""
    if not text or len(text) > MAX_FACT_LENGTH:
        return "invalid_text"
    if memory_key is not None and not valid_key(memory_key):
        return "invalid_memory_key"
    if memory_key:
        secret = find_key_secret(memory_key)
        if secret is not None:
            return secret[0]
    if past(valid_until):
        return "valid_until_past"
    return None
