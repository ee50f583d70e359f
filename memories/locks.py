"""Locks that hold across processes and machines: PostgreSQL advisory locks."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from django.db import connection


@contextlib.contextmanager
def advisory_lock(namespace: str, key: str) -> Iterator[None]:
    """Hold a session-level advisory lock for ``namespace:key`` on Django's connection."""
    lock_key = f"{namespace}:{key}"
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_lock(hashtextextended(%s, 0))", [lock_key])
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock(hashtextextended(%s, 0))", [lock_key])
