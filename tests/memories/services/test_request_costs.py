"""Guards on the request hot path: costs that must not come back silently."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.backends.utils import CursorDebugWrapper

from memories import services
from memories.types import WriteStatus
from tests.memories.conftest import body

pytestmark = pytest.mark.django_db


def test_no_debug_cursor_outside_debug(v1, scope, settings):
    """Django wraps every cursor to log its SQL when DEBUG is on (or a test forces it); off,
    a search must run on plain cursors and keep no query log."""
    settings.DEBUG = False
    answer = v1.post("search", body(scope, query="技术方案用什么语言写"))
    assert answer.status_code == 200 and answer.json()["available"] is True
    assert connection.queries_logged is False
    assert not isinstance(connection.cursor(), CursorDebugWrapper)
    assert len(connection.queries_log) == 0


def test_vectors_are_stored_beside_their_payload(v1, scope, agent):
    """A distance computed in an exact scan must not fetch the vector from TOAST (migration
    0005): new memories, their entity rows and what the batch path writes stay in the heap."""
    for text in ("用户偏好用飞书沟通。", "Project Kestrel ships in March, owned by Dana."):
        answer = v1.post("manage", body(scope, action="add", text=text))
        assert answer.json()["status"] == "added", answer.content
    batch = services.memory_add_many(
        scope=scope, items=[services.NewMemory(text="用户每周五下午复盘 Atlas 项目。")], actor=agent
    )
    assert [outcome.status for outcome in batch] == [WriteStatus.ADDED]
    with connection.cursor() as cursor:
        for table in ("poco_memories", "poco_memories_entities"):
            cursor.execute(
                "SELECT count(*), count(*) FILTER (WHERE pg_column_compression(vector) IS NULL "
                "AND pg_column_size(vector) >= 2048) FROM " + table
            )
            total, inline = cursor.fetchone()
            assert total > 0 and inline == total, table
            cursor.execute(
                "SELECT c.reltoastrelid::regclass::text FROM pg_class c WHERE c.relname = %s",
                [table],
            )
            (toast,) = cursor.fetchone()
            cursor.execute(f"SELECT count(*) FROM {toast}")
            assert cursor.fetchone() == (0,), table
