"""Who holds a ``memory_key``, and how a write takes it over: the old holder is superseded (kept
for history and admin, never recalled) together with the new write's audit row."""

from __future__ import annotations

import contextlib
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from memories import governance
from memories.engine import get_engine
from memories.models import AuditEvent, MemoryRow
from memories.selectors import memory_active_by_key
from memories.services.write import WriteContext, audit
from memories.types import MemoryScope, MemoryStatus


def key_conflict(
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


def superseded_fields(new_id: str, *, at: datetime | None = None) -> dict[str, Any]:
    """The payload of a memory that ``new_id`` replaces from ``at`` (default: now) on: when
    its fact stopped holding, which a search ``as_of`` an earlier instant reads
    (``memories.recall.live``). A write that keeps its own time (an import's ``created_at``,
    a correction's ``occurred_at``) passes it, so the two validities meet."""
    return {
        "status": MemoryStatus.SUPERSEDED.value,
        "superseded_by": new_id,
        "superseded_at": governance.iso(at or timezone.now()),
    }


def supersede(
    ctx: WriteContext, *, old: MemoryRow, new_id: str, at: datetime | None = None
) -> None:
    """Retire ``old`` in favour of ``new_id`` (from ``at`` on), with its audited UPDATE row."""
    get_engine().patch_payload(memory_id=str(old.id), fields=superseded_fields(new_id, at=at))
    audit(
        ctx,
        memory_id=str(old.id),
        event=AuditEvent.Event.UPDATE,
        status=MemoryStatus.SUPERSEDED,
    )


def unsupersede(old: MemoryRow) -> None:
    """Undo ``supersede`` (its write failed half-way): the old memory is current again."""
    get_engine().patch_payload(
        memory_id=str(old.id),
        fields={
            "status": old.payload.get("status") or MemoryStatus.ACTIVE.value,
            "superseded_by": old.payload.get("superseded_by"),
            "superseded_at": old.payload.get("superseded_at"),
        },
    )


def record_write(
    ctx: WriteContext,
    *,
    memory_id: str,
    event: str,
    old_text: str = "",
    new_text: str = "",
    at: datetime | None = None,
    replaces: MemoryRow | None = None,
    since: datetime | None = None,
    changes: dict[str, list[Any]] | None = None,
    status: str = "",
) -> None:
    """The audit row of a stored write and, when it takes over a key, the supersede of the
    key's old holder from ``since`` (when the written memory begins to hold: its
    ``created_at``; default ``at``) — both or neither: on failure the old holder is current
    again and the caller takes its own write back."""
    try:
        with transaction.atomic():
            audit(
                ctx,
                memory_id=memory_id,
                event=event,
                old_text=old_text,
                new_text=new_text,
                at=at,
                changes=changes,
                status=status,
            )
            if replaces is not None:
                supersede(ctx, old=replaces, new_id=memory_id, at=since or at)
    except Exception:
        if replaces is not None:
            with contextlib.suppress(Exception):
                unsupersede(replaces)
        raise
