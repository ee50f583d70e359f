"""The trace staff leave when they read a scope's memories on an admin page."""

from __future__ import annotations

from memories.models import AuditEvent
from memories.services.write import WriteContext, audit
from memories.types import Actor, MemoryScope, Source

REASON_LENGTH = 200


def staff_view_record(
    *,
    scope: MemoryScope,
    actor: Actor,
    page: str,
    memory_id: str | None = None,
    reason: str = "",
) -> None:
    """Staff read the scope's memories on an admin page: one content-free VIEW row (who, when,
    which page, which memory when the page shows one). A delete-user treats it like the scope's
    other audit rows; it never holds text to forget."""
    ctx = WriteContext(scope=scope, actor=actor, source=Source.ADMIN)
    audit(
        ctx,
        memory_id=memory_id,
        event=AuditEvent.Event.VIEW,
        page=page,
        reason=reason.strip()[:REASON_LENGTH],
    )
