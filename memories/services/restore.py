"""Restoring a past version of a memory's text from its change trail: a correction like any
other (``memory_update``: the same admission, the same key rules), audited as ``restored``."""

from __future__ import annotations

from memories.selectors import memory_past_text
from memories.services.update import memory_update
from memories.types import (
    Actor,
    MemoryForbidden,
    MemoryNotFound,
    MemoryScope,
    Source,
    WriteOutcome,
    WriteStatus,
)

RESTORED = "restored"


def memory_restore_version(
    *,
    scope: MemoryScope,
    memory_id: str,
    event_id: int,
    actor: Actor,
    source: str = Source.CONSOLE,
) -> WriteOutcome:
    """Make the text a past change of this memory wrote (its trail entry ``event_id``) the
    current text. An entry that is not this memory's, or holds no text, is ``not_found``; the
    text is admitted again, so what admission refuses now stays refused (``rejected``)."""
    try:
        text = memory_past_text(scope=scope, memory_id=memory_id, event_id=event_id)
    except MemoryNotFound:
        return WriteOutcome(status=WriteStatus.NOT_FOUND, memory_id=memory_id)
    except MemoryForbidden:
        return WriteOutcome(status=WriteStatus.FORBIDDEN, memory_id=memory_id)
    if not text:
        return WriteOutcome(status=WriteStatus.NOT_FOUND, memory_id=memory_id, reason="no_version")
    return memory_update(
        scope=scope,
        memory_id=memory_id,
        text=text,
        actor=actor,
        source=source,
        status=RESTORED,
    )
