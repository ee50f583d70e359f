"""After a large delete-user the memory tables are vacuumed, off the request and best-effort."""

from __future__ import annotations

import psycopg
import pytest
from django.db import connection

from memories.engine.adapter import connection_string_for
from memories.services import delete, memory_add, memory_delete_user, vacuum
from memories.types import Actor, ActorKind, DeleteStatus, WriteStatus

AGENT = Actor(kind=ActorKind.AGENT, id="agent-test")


def vacuum_counts() -> dict[str, int]:
    # A connection of its own: a session caches the statistics it has read.
    with psycopg.connect(connection_string_for(connection.settings_dict["NAME"])) as conn:
        rows = conn.execute(
            "SELECT relname, vacuum_count FROM pg_stat_user_tables WHERE relname = ANY(%s)",
            (list(vacuum.MEMORY_TABLES),),
        ).fetchall()
    return dict(rows)


@pytest.mark.django_db(transaction=True)
def test_a_large_delete_user_vacuums_the_memory_tables(scope, monkeypatch):
    # The threshold is a size no test should have to write: three stand in for a thousand.
    monkeypatch.setattr(delete, "VACUUM_AFTER_DELETING", 3)
    for text in ("用户喜欢绿茶。", "用户住在杭州。", "用户偏好简洁的回答。"):
        assert memory_add(scope=scope, text=text, actor=AGENT).status == WriteStatus.ADDED
    before = vacuum_counts()

    outcome = memory_delete_user(scope=scope, actor=AGENT)
    assert vacuum._running is not None
    vacuum._running.join(timeout=120)

    assert outcome.status == DeleteStatus.DELETED and outcome.deleted_count == 3
    after = vacuum_counts()
    assert all(after[table] > before.get(table, 0) for table in vacuum.MEMORY_TABLES), after


def test_a_vacuum_that_cannot_run_is_logged_not_raised(caplog):
    assert vacuum.vacuum_memory_tables("no_such_database") is False
    assert "vacuum of the memory tables failed" in caplog.text
