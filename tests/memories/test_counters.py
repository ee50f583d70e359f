"""The counters' commits (``memories.counters``): a rate window and a use count written in a
transaction of their own commit without waiting for the disk; inside a larger transaction they
commit with it, as durably as it asks. Real PostgreSQL, real transactions (no test wrapper)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, transaction

from memories import services
from memories.counters import counter_transaction
from memories.ratelimits import RateKind, rate_check
from memories.usage import Use, count_use

pytestmark = pytest.mark.django_db(transaction=True)


def synchronous_commit() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SHOW synchronous_commit")
        return str(cursor.fetchone()[0])


def test_a_counter_of_its_own_commits_without_waiting_and_the_setting_ends_with_it():
    assert synchronous_commit() == "on"
    with counter_transaction():
        assert synchronous_commit() == "off"
    assert synchronous_commit() == "on"  # SET LOCAL: gone with the commit


def test_inside_a_larger_transaction_a_counter_commits_with_it_as_durably():
    with transaction.atomic():
        with counter_transaction():
            assert synchronous_commit() == "on"
        assert synchronous_commit() == "on"


def test_a_counter_that_fails_rolls_back_and_leaves_the_connection_as_it_was():
    with pytest.raises(ZeroDivisionError), counter_transaction():
        raise ZeroDivisionError
    assert not connection.in_atomic_block
    assert synchronous_commit() == "on"


def settings_at_counts() -> tuple[list[str], Callable[..., Any]]:
    """The ``synchronous_commit`` each counter statement ran under, read on its own
    transaction just before it (a wrapper of the connection's statements)."""
    seen: list[str] = []

    def wrapper(execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any):
        if "INSERT INTO poco_rate_windows" in sql or "INSERT INTO memories_memoryuse" in sql:
            context["cursor"].execute("SHOW synchronous_commit")
            seen.append(context["cursor"].fetchone()[0])
        return execute(sql, params, many, context)

    return seen, wrapper


def test_a_search_door_counts_its_rate_window_and_its_uses_without_waiting(scope, agent):
    added = services.memory_add(scope=scope, text="用户周末喜欢爬山。", actor=agent)
    assert added.memory_id is not None
    seen, wrapper = settings_at_counts()
    with connection.execute_wrapper(wrapper):
        rate_check(kind=RateKind.SEARCH, scope=scope, token="agent-token")
        count_use(scope=scope, memory_ids=[added.memory_id], use=Use.RECALLED)
    assert seen == ["off", "off"]
    assert synchronous_commit() == "on"
    with connection.cursor() as cursor:  # both counted, and committed
        cursor.execute("SELECT sum(hits) FROM poco_rate_windows")
        assert cursor.fetchone()[0] == 2  # the token's key and the scope's
        cursor.execute("SELECT recalled_count FROM memories_memoryuse")
        assert cursor.fetchall() == [(1,)]
