"""The connection class of every pool (Django's and the engine's): a statement that gets no
answer within ``BoundedConnection.statement_timeout`` seconds is an outage, not a hang.

PostgreSQL's own ``statement_timeout`` cannot help when the server itself does not answer (a
frozen host, a stopped process, a dead network path): the wait happens in the client. psycopg
waits for every answer in ``Connection.wait``, which takes a deadline; past it the connection
is in an unknown state, so it is closed (its pool replaces it) and the caller gets an
``OperationalError`` — a 503 like any outage. Serving processes set the bound at start
(``poco_memory.asgi``); commands such as ``migrate`` keep statements unbounded, since an index
build on a large table may rightly take minutes.
"""

from __future__ import annotations

from typing import Any, ClassVar

import psycopg
from psycopg import errors


class BoundedConnection(psycopg.Connection[Any]):
    statement_timeout: ClassVar[float | None] = None

    def wait(self, gen: Any, interval: float = 0.1, timeout: float | None = None) -> Any:
        bound = self.statement_timeout if timeout is None else timeout
        try:
            return super().wait(gen, interval=interval, timeout=bound)
        except errors._WaitTimeout:
            self.pgconn.finish()
            raise psycopg.OperationalError(
                f"no answer from PostgreSQL within {bound} s; connection closed"
            ) from None
