"""How the service's counters commit: the rate windows (``memories.ratelimits``) and the use
counts (``memories.usage``), written on the request path of every search and write.

A commit normally waits until its WAL record is flushed to disk (``synchronous_commit``): on
the bench machine's disk an ``fdatasync`` of 0.2-0.7 ms when nothing else writes and about 4 ms
while an import's second vectors are written, paid by every search twice (its rate window, then
its use counts) for rows nobody needs to survive a crash to the millisecond. A counter's
transaction commits without that wait (``SET LOCAL synchronous_commit TO OFF``, PostgreSQL's
own switch for "transactions of less importance"): a crash of the database server may lose the
last moments of counts (at most three times ``wal_writer_delay``, 0.6 s by default), never
leaves them half-written, and no other transaction's durability changes.

Only a transaction the counter opens itself is relaxed: a counter written inside a larger
transaction (a test's, or a service's that writes memories in the same block) commits with it,
as durably as that transaction asks.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from django.db import connection, transaction


@contextlib.contextmanager
def counter_transaction() -> Iterator[None]:
    """One atomic block for a counter's statements; its commit does not wait for the disk when
    the block is the connection's outermost (see the module's note)."""
    outermost = not connection.in_atomic_block
    with transaction.atomic():
        if outermost:
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL synchronous_commit TO OFF")
        yield
