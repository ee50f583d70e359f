"""Locks that hold across processes and machines: PostgreSQL advisory locks.

``scope_write_lock`` is THE lock of a memory scope: every writer of the scope (explicit add,
update and delete, corrections from every edge, delete-item, delete-user, ingest extraction and
adoption, import) holds it, so no two writes of one scope interleave anywhere.

The lock is session-level and lives on Django's connection of the current thread, while Mem0
writes through its own pool: it is a mutex between writers, not a transaction. PostgreSQL
counts re-entrant takes per session, and each ``with`` releases exactly what it took, so a
writer may nest it (e.g. a service called under the ingest worker's hold).

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

from django.conf import settings
from django.db import DatabaseError, connection

from memories.types import BackendError, MemoryScope, ScopeBusy

SCOPE_WRITE = "scope-write"
LOCK_NOT_AVAILABLE = "55P03"  # PostgreSQL's SQLSTATE when lock_timeout ends a wait

_held = threading.local()  # session-level advisory locks this thread holds on its connection


def _held_count() -> int:
    return int(getattr(_held, "count", 0))


class _FifoGate:
    """A re-entrant lock whose waiters are served in arrival order, with a timeout."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._queue: deque[object] = deque()
        self._owner: int | None = None
        self._depth = 0
        self.users = 0  # holders and waiters; the gate is dropped when it falls to 0

    def acquire(self, timeout: float) -> bool:
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
def _process_gate(key: str, timeout: float) -> Iterator[bool]:
    with _gates_lock:
        gate = _gates.setdefault(key, _FifoGate())
        gate.users += 1
    acquired = gate.acquire(timeout)
    try:
        yield acquired
    finally:
        if acquired:
            gate.release()
        with _gates_lock:
            gate.users -= 1
            if gate.users == 0:
                del _gates[key]


def _take(lock_key: str, timeout: float | None) -> None:
    """``pg_advisory_lock``, waiting at most ``timeout`` seconds (None: as long as it takes)."""
    in_transaction = connection.in_atomic_block
    with connection.cursor() as cursor:
        if timeout is not None:
            # Local to the transaction inside an atomic block (a timeout aborts it anyway);
            # otherwise the session's setting, reset below: pooled connections are reused.
            milliseconds = max(1, math.ceil(timeout * 1000))
            cursor.execute(
                "SELECT set_config('lock_timeout', %s, %s)", [f"{milliseconds}ms", in_transaction]
            )
        try:
            cursor.execute("SELECT pg_advisory_lock(hashtextextended(%s, 0))", [lock_key])
        finally:
            if timeout is not None and not in_transaction:
                with contextlib.suppress(DatabaseError):
                    cursor.execute("RESET lock_timeout")


@contextlib.contextmanager
def advisory_lock(namespace: str, key: str, *, wait: float | None = None) -> Iterator[None]:
    """Hold a session-level advisory lock for ``namespace:key`` on Django's connection;
    ``ScopeBusy`` if it is not ours within ``wait`` seconds, ``BackendError`` on an outage."""
    lock_key = f"{namespace}:{key}"
    try:
        _take(lock_key, wait)
    except DatabaseError as exc:
        if getattr(exc.__cause__, "sqlstate", None) == LOCK_NOT_AVAILABLE:
            raise ScopeBusy(f"{lock_key} not free within {wait} s") from exc
        raise BackendError(f"database unavailable: {type(exc).__name__}") from exc
    _held.count = _held_count() + 1
    try:
        yield
    finally:
        _held.count = _held_count() - 1
        # If the connection died meanwhile, the server has released the lock with it.
        with contextlib.suppress(DatabaseError), connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock(hashtextextended(%s, 0))", [lock_key])


def scope_lock_key(scope: MemoryScope) -> str:
    """The text hashed into the scope's advisory lock id (for observers such as tests)."""
    return f"{SCOPE_WRITE}:{scope.key}"


@contextlib.contextmanager
def scope_write_lock(scope: MemoryScope) -> Iterator[None]:
    """The one lock every writer of ``scope`` takes; ``ScopeBusy`` after
    ``SCOPE_LOCK_WAIT_SECONDS`` of waiting, ``BackendError`` on an outage."""
    wait = settings.SCOPE_LOCK_WAIT_SECONDS
    started = time.monotonic()
    if _held_count() == 0 and not connection.in_atomic_block:
        # Queue without a connection: give this thread's back to the pool (a later query
        # takes one again), so waiters of one scope never starve requests of other scopes.
        connection.close()
    with _process_gate(scope.key, wait) as acquired:
        if not acquired:
            raise ScopeBusy(f"{scope.key} busy for {wait} s")
        remaining = max(0.001, wait - (time.monotonic() - started))
        with advisory_lock(SCOPE_WRITE, scope.key, wait=remaining):
            yield
