"""``selectors.tenant_users`` (``/mem0``'s entity list) reads the indexed ``scope_key`` column,
and a tenant id is a literal prefix, never a LIKE pattern."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from memories import selectors
from memories.scope import scope_of
from memories.services import memory_add

pytestmark = pytest.mark.django_db


def test_users_of_a_tenant_come_from_the_scope_key_column(agent):
    for tenant, user, text in (
        ("t_1", "alice", "用户偏好简洁的回答"),
        ("t_1", "alice", "User likes green tea"),
        ("t_1", "bob", "用户住在杭州"),
        ("tx1", "mallory", "User works at night"),  # '_' would match 'x' as a LIKE pattern
        ("t_10", "carol", "用户喜欢跑步"),
    ):
        scope = scope_of(tenant_id=tenant, user_id=user)
        assert memory_add(scope=scope, text=text, actor=agent).memory_id

    with CaptureQueriesContext(connection) as queries:
        users = selectors.tenant_users(tenant_id="t_1")
    assert [(u.user_id, u.total) for u in users] == [("alice", 2), ("bob", 1)]
    assert all(u.first_created_at and u.last_created_at for u in users)
    [sql] = [q["sql"] for q in queries.captured_queries]
    where = sql.split("WHERE", 1)[1]
    assert "scope_key" in where and "payload" not in where
