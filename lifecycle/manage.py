"""The agent's explicit lifecycle entry: add / update / delete / none by real memory id.

Its answer is the services' own ``WriteOutcome`` with the agent's action on it, so ``/v1``
manage and MCP's manage tool serialize one type (``edges.contract.shapes.WriteOutput``).
"""

from __future__ import annotations

import dataclasses
from datetime import datetime

from lifecycle import metrics, policy
from memories import services
from memories.categories import categorize
from memories.governance import UNSET, Unset
from memories.types import (
    Actor,
    MemoryScope,
    Source,
    WriteOutcome,
    WriteStatus,
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
) -> WriteOutcome:
    """One explicit decision of the agent. Registers the run's writer before anything else, so
    a later auto-ingest of the same run is skipped even if this call is refused or fails."""
    policy.register_explicit_writer(scope=scope, run_id=run_id, action=action)
    refusal = policy.write_refusal(scope=scope, run_kind=run_kind)
    if refusal:
        metrics.policy_refused.labels(refusal).inc()
        return WriteOutcome(
            status=WriteStatus.REFUSED, memory_id=memory_id, reason=refusal, action=action
        )
    if action == "none":
        return WriteOutcome(status=WriteStatus.NO_EFFECT, action="none")
    if action == "add":
        # Admission happens inside the service: no write path can skip it.
        added = services.memory_add(
            scope=scope,
            text=text,
            actor=actor,
            # None named: read from the key and the wording, as an ingest's facts are.
            category=category or categorize(text, memory_key=memory_key or ""),
            source=Source.MANAGE,
            run_id=run_id,
            confidence=confidence,
            memory_key=memory_key or "",
            valid_until=valid_until,
        )
        return dataclasses.replace(added, action=action)
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
        return dataclasses.replace(corrected, action=action)
    if action == "delete":
        deleted = services.memory_delete(
            scope=scope, memory_id=memory_id, actor=actor, source=Source.MANAGE, run_id=run_id
        )
        return WriteOutcome.of_delete(memory_id, deleted)
    raise ValueError(f"unknown action {action!r}")
