"""Locks that hold across processes and machines: PostgreSQL advisory locks."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from django.db import DatabaseError, connection

from memories.types import BackendError


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
