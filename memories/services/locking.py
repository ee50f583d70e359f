"""The locks a unit of work takes when it writes through more than one service call.

Each service takes the scope's one write lock (``memories.locks.scope_write_lock``) around its
own write. Some work is one write made of several calls and must not interleave with any other
writer of the scope: the ingest worker's extraction through adoption, an import chunk's
duplicate check and batch add, an operator tool's patch of stored payloads. It runs inside
``scope_write_exclusive``; the services it calls take the same lock again at no cost (a thread
that holds it may take it again). Nothing outside the services takes a lock itself.
"""

from __future__ import annotations

from contextlib import AbstractContextManager

from memories.locks import advisory_lock, scope_write_lock
from memories.types import MemoryScope

RUN_WRITER = "run-writer"


def scope_write_exclusive(*, scope: MemoryScope) -> AbstractContextManager[None]:
    """Hold the scope's write lock for a unit of work: no other writer of ``scope`` runs until
    it ends. ``ScopeBusy`` after ``SCOPE_LOCK_WAIT_SECONDS`` of waiting, ``BackendError`` on an
    outage."""
    return scope_write_lock(scope)


def run_writer_exclusive(*, scope: MemoryScope, run_id: str) -> AbstractContextManager[None]:
    """Serialise the decision "who writes this run" (an agent's explicit ``/manage`` or the
    ingest of its conversation) across processes."""
    return advisory_lock(RUN_WRITER, f"{scope.key}:{run_id}")
