"""Locks that hold across processes and machines: PostgreSQL advisory locks.

``scope_write_lock`` is THE lock of a memory scope: every writer of the scope (explicit add,
update and delete, corrections from every edge, delete-item, delete-user, ingest extraction and
adoption, import) holds it, so no two writes of one scope interleave anywhere. It is a mutex
between writers, not a transaction: the writer's statements run on Django's connection and
Mem0's pool as usual.

Each lock is a transaction-level advisory lock (``pg_advisory_xact_lock``) on a connection of
Django's pool taken for the lock alone and held in an open transaction until the ``with``
ends: the commit releases it, so no session state outlives it on a pooled connection, a
process that dies releases it with its connection, and a transaction-mode PgBouncer keeps the
lock's server connection pinned for as long as it is held (docs/deploy.md). A thread that
holds a lock may take it again (the nested ``with`` holds nothing more).

Writers of one scope wait in order — first in the process (a FIFO gate, holding no database
connection while they queue), then in PostgreSQL's lock queue — for at most
``SCOPE_LOCK_WAIT_SECONDS`` in all, then raise ``ScopeBusy`` (503 with Retry-After). So a flood
of writers to one scope costs each process one waiting connection, and other scopes nothing.
"""

from __future__ import annotations

import contextlib
import math
import threading
import time
from collections import deque
from collections.abc import Iterator
from typing import Any

from django.conf import settings
from django.db import connection
from psycopg import Error as DriverError
from psycopg import errors

from memories.types import BackendError, MemoryScope, ScopeBusy

SCOPE_WRITE = "scope-write"


class _FifoGate:
    """A re-entrant lock whose waiters are served in arrival order, with a timeout."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._queue: deque[object] = deque()
        self._owner: int | None = None
        self._depth = 0
        self.users = 0  # holders and waiters; the gate is dropped when it falls to 0

    @property
    def depth(self) -> int:
        return self._depth if self._owner == threading.get_ident() else 0

    def acquire(self, timeout: float | None) -> bool:
        me = threading.get_ident()
        with self._cond:
            if self._owner == me:
                self._depth += 1
                return True
            ticket = object()
            self._queue.append(ticket)
            if not self._cond.wait_for(
                lambda: self._owner is None and self._queue[0] is ticket, timeout=timeout
            ):
                self._queue.remove(ticket)
                self._cond.notify_all()
                return False
            self._queue.popleft()
            self._owner, self._depth = me, 1
            return True

    def release(self) -> None:
        with self._cond:
            self._depth -= 1
            if self._depth == 0:
                self._owner = None
                self._cond.notify_all()


_gates: dict[str, _FifoGate] = {}
_gates_lock = threading.Lock()


@contextlib.contextmanager
def _process_gate(key: str, timeout: float | None) -> Iterator[_FifoGate | None]:
    """The key's gate once this thread holds it (None if ``timeout`` passed first)."""
    with _gates_lock:
        gate = _gates.setdefault(key, _FifoGate())
        gate.users += 1
    acquired = gate.acquire(timeout)
    try:
        yield gate if acquired else None
    finally:
        if acquired:
            gate.release()
        with _gates_lock:
            gate.users -= 1
            if gate.users == 0:
                del _gates[key]


def _lock_connection() -> Any:
    """A connection of Django's pool of its own (not the thread's, which goes on serving the
    writer's statements), or a plain one where Django runs without a pool."""
    pool = getattr(connection, "pool", None)  # PostgreSQL's backend has one; the stubs don't
    if pool is not None:
        pool.open()
        return pool.connection()
    return contextlib.closing(connection.get_new_connection(connection.get_connection_params()))


@contextlib.contextmanager
def advisory_lock(namespace: str, key: str, *, wait: float | None = None) -> Iterator[None]:
    """Hold the advisory lock ``namespace:key``; ``ScopeBusy`` if it is not ours within
    ``wait`` seconds (None: as long as it takes), ``BackendError`` on an outage."""
    lock_key = f"{namespace}:{key}"
    started = time.monotonic()
    if not connection.in_atomic_block:
        # Queue without a connection: give this thread's back to the pool (its next query
        # takes one again), so waiters of one key never starve requests for other keys.
        connection.close()
    with _process_gate(lock_key, wait) as gate:
        if gate is None:
            raise ScopeBusy(f"{lock_key} busy for {wait} s")
        if gate.depth > 1:
            yield  # this thread holds it already
            return
        remaining = None if wait is None else max(0.001, wait - (time.monotonic() - started))
        with _held_in_postgres(lock_key, remaining):
            yield


@contextlib.contextmanager
def _held_in_postgres(lock_key: str, wait: float | None) -> Iterator[None]:
    try:
        stack = contextlib.ExitStack()
        conn = stack.enter_context(_lock_connection())
        stack.enter_context(conn.transaction())
        if wait is not None:
            conn.execute(f"SET LOCAL lock_timeout = {max(1, math.ceil(wait * 1000))}")
        conn.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", [lock_key])
    except errors.LockNotAvailable as exc:
        stack.close()
        raise ScopeBusy(f"{lock_key} not free within {wait} s") from exc
    except (DriverError, OSError) as exc:
        with contextlib.suppress(Exception):
            stack.close()
        raise BackendError(f"database unavailable: {type(exc).__name__}") from exc
    try:
        yield
    finally:
        # The commit that ends the transaction releases the lock; if the connection died
        # meanwhile, the server released it with the session.
        with contextlib.suppress(Exception):
            stack.close()


def scope_lock_key(scope: MemoryScope) -> str:
    """The text hashed into the scope's advisory lock id (for observers such as tests)."""
    return f"{SCOPE_WRITE}:{scope.key}"


def scope_write_lock(scope: MemoryScope) -> contextlib.AbstractContextManager[None]:
    """The one lock every writer of ``scope`` takes; ``ScopeBusy`` after
    ``SCOPE_LOCK_WAIT_SECONDS`` of waiting, ``BackendError`` on an outage."""
    return advisory_lock(SCOPE_WRITE, scope.key, wait=settings.SCOPE_LOCK_WAIT_SECONDS)
