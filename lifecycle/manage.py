"""The agent's explicit lifecycle entry: add / update / delete / none by real memory id."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from lifecycle import metrics, policy
from memories import services
from memories.governance import UNSET, Unset
from memories.types import (
    Actor,
    Category,
    DeleteOutcome,
    MemoryScope,
    Source,
    WriteOutcome,
)


@dataclass(frozen=True)
class ManageOutcome:
    action: str
    success: bool
    status: str
    memory_id: str | None
    inserted_count: int = 0
    reason: str | None = None
    superseded_id: str | None = None

    @classmethod
    def from_write(cls, action: str, outcome: WriteOutcome) -> ManageOutcome:
        return cls(
            action=action,
            success=outcome.success,
            status=outcome.status.value,
            memory_id=outcome.memory_id,
            inserted_count=outcome.inserted_count,
            reason=outcome.reason,
            superseded_id=outcome.superseded_id,
        )

    @classmethod
    def from_delete(cls, memory_id: str, outcome: DeleteOutcome) -> ManageOutcome:
        reason = (
            outcome.reason
            if outcome.reason
            else (None if outcome.success else outcome.status.value)
        )
        return cls(
            action="delete",
            success=outcome.success,
            status=outcome.status.value,
            memory_id=memory_id,
            reason=reason,
        )


def manage_memory(
    *,
    scope: MemoryScope,
    action: str,
    actor: Actor,
    memory_id: str | None = None,
    text: str = "",
    category: str | None = None,
    confidence: float | None = None,
    memory_key: str | None = None,
    valid_until: datetime | None | Unset = UNSET,
    run_id: str = "",
    run_kind: str = "",
) -> ManageOutcome:
    """One explicit decision of the agent. Registers the run's writer before anything else, so
    a later auto-ingest of the same run is skipped even if this call is refused or fails."""
    policy.register_explicit_writer(scope=scope, run_id=run_id, action=action)
    refusal = policy.write_refusal(scope=scope, run_kind=run_kind)
    if refusal:
        metrics.policy_refused.labels(refusal).inc()
        return ManageOutcome(
            action=action, success=False, status="refused", memory_id=memory_id, reason=refusal
        )
    if action == "none":
        return ManageOutcome(action="none", success=True, status="no_effect", memory_id=None)
    if action == "add":
        # Admission happens inside the service: no write path can skip it.
        added = services.memory_add(
            scope=scope,
            text=text,
            actor=actor,
            category=category or Category.FACT,
            source=Source.MANAGE,
            run_id=run_id,
            confidence=confidence,
            memory_key=memory_key or "",
            valid_until=valid_until,
        )
        return ManageOutcome.from_write(action, added)
    assert memory_id is not None, "update and delete need a memory id (validated at the edge)"
    if action == "update":
        corrected = services.memory_update(
            scope=scope,
            memory_id=memory_id,
            text=text,
            actor=actor,
            category=category,
            memory_key=memory_key,
            valid_until=valid_until,
            source=Source.MANAGE,
            run_id=run_id,
        )
        return ManageOutcome.from_write(action, corrected)
    if action == "delete":
        deleted = services.memory_delete(
            scope=scope, memory_id=memory_id, actor=actor, source=Source.MANAGE, run_id=run_id
        )
        return ManageOutcome.from_delete(memory_id, deleted)
    raise ValueError(f"unknown action {action!r}")
