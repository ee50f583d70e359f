"""Signals the memory core sends to the layers above it (which it never imports)."""

from __future__ import annotations

from django.dispatch import Signal

# Sent by delete-user after its deletion mark is written, before it deletes anything; kwargs:
# ``scope`` (MemoryScope) and ``marked_at`` (datetime). The ingest pipeline answers by deciding
# the scope's waiting jobs at once, so no candidate text outlives the deletion in the queue.
scope_deletion_marked = Signal()
