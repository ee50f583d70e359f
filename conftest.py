"""Test fixtures shared by every suite: the real embedded PostgreSQL, Mem0 tables kept clean."""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.db import connection

CHROMIUM = "/usr/bin/chromium"


def pytest_configure(config: pytest.Config) -> None:
    """The session owns the embedded PostgreSQL when DATABASE_URL is unset (settings only know
    where it listens); a server that runs already, e.g. `make run`'s, is joined and left alone."""
    from poco_memory import embedded_db

    embedded_db.start_if_configured()


def pytest_unconfigure(config: pytest.Config) -> None:
    from poco_memory import embedded_db

    embedded_db.stop()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Browser tests need Debian's chromium. CI (POCO_REQUIRE_E2E=1) must have it; elsewhere
    they are skipped with a message saying how to get them."""
    if shutil.which(CHROMIUM):
        return
    if os.environ.get("POCO_REQUIRE_E2E"):
        raise pytest.UsageError(
            f"{CHROMIUM} is missing: apt-get install chromium fonts-wqy-microhei"
        )
    skip = pytest.mark.skip(reason="needs chromium: apt-get install chromium fonts-wqy-microhei")
    for item in items:
        if item.get_closest_marker("e2e"):
            item.add_marker(skip)


def _empty_mem0_tables() -> None:
    """On a connection of its own: the test's transaction may still be open (and would roll a
    TRUNCATE back); DELETE does not wait for the read locks that transaction holds."""
    import psycopg

    from memories.engine.adapter import connection_string_for

    with psycopg.connect(connection_string_for(connection.settings_dict["NAME"])) as conn:
        conn.execute("DELETE FROM poco_memories")
        conn.execute("DELETE FROM poco_memories_entities")
        # A test's own trigger (tests/lifecycle/test_forgetting.py) can make the counts drift.
        conn.execute("DELETE FROM poco_memories_term_df")
        conn.execute("DELETE FROM poco_memories_scope_size")
        # Not a Django model, so no flush empties it: a test's requests never count for the next.
        conn.execute("DELETE FROM poco_rate_windows")


@pytest.fixture(autouse=True)
def _default_language() -> Iterator[None]:
    """Each test starts in the site's language. A request's LocaleMiddleware leaves the language
    it chose active in the thread (tests/test_language.py asks in English), and a later test
    reading a text outside a request (tests/edges/console/test_outcomes.py) got English: the
    suite's result depended on the order xdist gave the tests."""
    from django.conf import settings
    from django.utils import translation

    with translation.override(settings.LANGUAGE_CODE):
        yield


@pytest.fixture(autouse=True)
def _second_vectors_with_their_write(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every write stores its second vector before it answers, so that a test searching right
    after an add sees what it would see a moment later in production, and no vector is still
    being stored when the next test begins. The tests of the write that answers first
    (tests/memories/recall/test_second_model.py) set the production bound again."""
    from memories.engine import second_vectors

    monkeypatch.setattr(second_vectors, "SECOND_VECTORS_BEHIND", 0)


@pytest.fixture(autouse=True)
def _clean_mem0(request: pytest.FixtureRequest):
    """Mem0 writes through its own connections, outside the test transaction: wipe its tables
    after each test that used the database."""
    yield
    uses_db = request.node.get_closest_marker("django_db") is not None
    if not uses_db and "django_db_setup" not in request.fixturenames:
        return
    _empty_mem0_tables()


@pytest.fixture
def server_data_dir() -> Iterator[Path]:
    """A POCO_DATA_DIR for a server the test starts in a child process. Inside the project, not
    in pytest's tmp_path: as root, PostgreSQL runs as the `embedded_postgres` user, and pytest
    makes its tmp folders 0700 again whenever any pytest run (another worktree's too) starts."""
    from django.conf import settings

    path = settings.DATA_DIR / "test-servers" / uuid.uuid4().hex[:8]
    path.mkdir(parents=True)
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture
def scope():
    from memories.scope import scope_of

    return scope_of(tenant_id="acme", user_id="alice")


@pytest.fixture
def other_scope():
    from memories.scope import scope_of

    return scope_of(tenant_id="acme", user_id="bob")


@pytest.fixture
def agent():
    from memories.types import Actor, ActorKind

    return Actor(kind=ActorKind.AGENT, id="agent-test")


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup):
    """Mem0's engine on the test database: one built before it existed (a test without the
    database that searched or wrote, run first on its worker) is connected to the server's
    default database, where no table is; and its pools closed before pytest-django drops the
    test database."""
    from memories.engine import reset_engine

    reset_engine()
    yield
    reset_engine()
