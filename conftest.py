"""Test fixtures shared by every suite: the real embedded PostgreSQL, Mem0 tables kept clean."""

from __future__ import annotations

import pytest
from django.db import connection


def _truncate_mem0_tables() -> None:
    with connection.cursor() as cursor:
        cursor.execute("TRUNCATE poco_memories, poco_memories_entities")


@pytest.fixture(autouse=True)
def _clean_mem0(request: pytest.FixtureRequest, django_db_blocker):
    """Mem0 writes through its own connections, outside the test transaction: wipe its tables
    (and its SQLite side) after each test that used the database."""
    yield
    if "django_db_setup" not in request.fixturenames:
        return
    from memories.engine import adapter

    with django_db_blocker.unblock():
        _truncate_mem0_tables()
    engine = adapter._engine
    if engine is not None:
        with engine._db._lock:
            engine._db.connection.execute("DELETE FROM history")
            engine._db.connection.execute("DELETE FROM messages")
            engine._db.connection.commit()


@pytest.fixture
def scope():
    from memories.types import MemoryScope

    return MemoryScope(tenant_id="acme", user_id="alice")


@pytest.fixture
def other_scope():
    from memories.types import MemoryScope

    return MemoryScope(tenant_id="acme", user_id="bob")


@pytest.fixture
def agent():
    from memories.types import Actor, ActorKind

    return Actor(kind=ActorKind.AGENT, id="agent-test")


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup):
    """Close Mem0's connection pools before pytest-django drops the test database."""
    yield
    from memories.engine import reset_engine

    reset_engine()
