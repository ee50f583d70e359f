from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from django.db import connection

from memories.engine.adapter import connection_string_for


def mem0_sql(statement: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Run SQL on Mem0's tables outside the test transaction (Mem0 writes through its own
    connections; a row lock held by the test's transaction would block them)."""
    with psycopg.connect(connection_string_for(connection.settings_dict["NAME"])) as conn:
        cur = conn.execute(statement, params)
        return cur.fetchall() if cur.description else []


@pytest.fixture
def drop_entity_backups() -> Iterator[None]:
    yield
    for (name,) in mem0_sql(
        "SELECT tablename FROM pg_tables WHERE starts_with(tablename, %s)",
        ("poco_memories_entities_backup_",),
    ):
        mem0_sql(f'DROP TABLE "{name}"')
