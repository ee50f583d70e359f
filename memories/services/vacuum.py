"""VACUUM of the memory tables after a large delete-user.

A deleted row's text stays in the table's heap pages (and the indexes') until VACUUM marks the
space free and later writes reuse it; autovacuum gets there only once a table's dead rows pass
its scale factor, which a big table may take days to reach. After a delete-user this large the
tables are vacuumed at once, in a thread of its own on its own autocommit connection (VACUUM
cannot run in a transaction), best-effort: a failure is logged, never an answer to the client.
``docs/deploy.md`` says what else keeps deleted text (WAL, backups) and the operator's knobs.
"""

from __future__ import annotations

import logging
import threading
from typing import Final

import psycopg
from django.db import connection

from memories.engine.adapter import connection_string_for

logger = logging.getLogger(__name__)

# 1,000 memories are a scope's worth of pages: past this a delete-user leaves enough dead rows
# to be worth a vacuum of its own, below it autovacuum's next round is soon enough.
VACUUM_AFTER_DELETING: Final = 1000
MEMORY_TABLES: Final = ("poco_memories", "poco_memories_entities")

_state = threading.Lock()
_running: threading.Thread | None = None
_again = False


def vacuum_memory_tables_soon() -> threading.Thread:
    """Start a vacuum of the memory tables, or have the running one go round once more (rows
    deleted after a VACUUM began may be left for the next one)."""
    global _running, _again
    with _state:
        if _running is not None and _running.is_alive():
            _again = True
            return _running
        # The database is named here: a new thread's Django connection is not set up yet.
        name = str(connection.settings_dict["NAME"])
        _running = threading.Thread(
            target=_vacuum_until_done, args=(name,), name="vacuum-memories", daemon=True
        )
        _running.start()
        return _running


def _vacuum_until_done(database: str) -> None:
    global _again
    while True:
        vacuum_memory_tables(database)
        with _state:
            if not _again:
                return
            _again = False


def vacuum_memory_tables(database: str) -> bool:
    """VACUUM (not FULL: no exclusive lock, searches and writes go on) the memory tables."""
    try:
        with psycopg.connect(connection_string_for(database), autocommit=True) as conn:
            conn.execute("SET statement_timeout = 0")  # a vacuum is as long as the table
            conn.execute(f"VACUUM (ANALYZE) {', '.join(MEMORY_TABLES)}")
    except psycopg.Error as exc:
        logger.warning("vacuum of the memory tables failed: %s", type(exc).__name__)
        return False
    logger.info("memory tables vacuumed after a large delete-user")
    return True
