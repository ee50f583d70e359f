"""The list's rows with what the audit trail and the use ledger say about them: when each
last changed (``selectors.memories_last_changed``, the one clock the console shows for "last
changed") and how often agents were given it."""

from __future__ import annotations

import dataclasses

from edges.console.presenters import MemoryItem
from memories.selectors import memories_last_changed, memory_uses
from memories.types import MemoryScope


def with_last_changed(scope: MemoryScope, items: list[MemoryItem]) -> list[MemoryItem]:
    """The items with ``updated_at`` taken from the audit trail (the payload's own clock only
    for a memory the trail does not know)."""
    changed = memories_last_changed(scope=scope, memory_ids=[i.id for i in items])
    return [dataclasses.replace(i, updated_at=changed.get(i.id, i.updated_at)) for i in items]


def with_use(scope: MemoryScope, items: list[MemoryItem]) -> list[MemoryItem]:
    """The items with how often agents were given them (``use``; None when never)."""
    uses = memory_uses(scope=scope, memory_ids=[i.id for i in items])
    return [dataclasses.replace(i, use=uses.get(i.id)) for i in items]
