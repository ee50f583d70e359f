"""Locks that hold across processes and machines: PostgreSQL advisory locks.

``scope_write_lock`` is THE lock of a memory scope: every writer of the scope (explicit add,
update and delete, corrections from every edge, delete-item, delete-user, ingest extraction and
adoption, import) holds it, so no two writes of one scope interleave anywhere.

The lock is session-level and lives on Django's connection of the current thread, while Mem0
writes through its own pool: it is a mutex between writers, not a transaction. PostgreSQL
counts re-entrant takes per session, and each ``with`` releases exactly what it took, so a
writer may nest it (e.g. a service called under the ingest worker's hold).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from django.db import DatabaseError, connection

from memories.types import BackendError, MemoryScope

SCOPE_WRITE = "scope-write"


@contextlib.contextmanager
def advisory_lock(namespace: str, key: str) -> Iterator[None]:
    """Hold a session-level advisory lock for ``namespace:key`` on Django's connection."""
    lock_key = f"{namespace}:{key}"
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_lock(hashtextextended(%s, 0))", [lock_key])
    except DatabaseError as exc:
        raise BackendError(f"database unavailable: {type(exc).__name__}") from exc
    try:
        yield
    finally:
        # If the connection died meanwhile, the server has released the lock with it.
        with contextlib.suppress(DatabaseError), connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock(hashtextextended(%s, 0))", [lock_key])


def scope_lock_key(scope: MemoryScope) -> str:
    """The text hashed into the scope's advisory lock id (for observers such as tests)."""
    return f"{SCOPE_WRITE}:{scope.key}"


def scope_write_lock(scope: MemoryScope) -> contextlib.AbstractContextManager[None]:
    """The one lock every writer of ``scope`` takes; raises ``BackendError`` on an outage."""
    return advisory_lock(SCOPE_WRITE, scope.key)
