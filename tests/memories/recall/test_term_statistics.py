"""The keyword channel's counts (migration 0006): how many memories of a scope hold each term,
and how many memories the scope has, stay exact through every kind of write — and leave none
of a forgotten memory's words behind."""

from __future__ import annotations

import pytest
from django.db import connection

from memories import selectors, services
from memories.services import NewMemory
from memories.types import Channel, DeleteStatus, WriteStatus

pytestmark = pytest.mark.django_db


def kept(scope_key: str) -> tuple[dict[str, int], int]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT term, df FROM poco_memories_term_df WHERE scope_key = %s", [scope_key]
        )
        df = {str(term): int(n) for term, n in cursor.fetchall()}
        cursor.execute(
            "SELECT coalesce(sum(n), 0) FROM poco_memories_scope_size WHERE scope_key = %s",
            [scope_key],
        )
        return df, int(cursor.fetchone()[0])


def recounted(scope_key: str) -> tuple[dict[str, int], int]:
    """The same figures read from the memories themselves."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT t.term, count(*) FROM poco_memories m "
            "CROSS JOIN LATERAL unnest(tsvector_to_array("
            "to_tsvector('simple', m.payload->>'text_lemmatized'))) AS t(term) "
            "WHERE m.payload->>'user_id' = %s GROUP BY t.term",
            [scope_key],
        )
        df = {str(term): int(n) for term, n in cursor.fetchall()}
        cursor.execute(
            "SELECT count(*) FROM poco_memories WHERE payload->>'user_id' = %s", [scope_key]
        )
        return df, int(cursor.fetchone()[0])


def test_counts_follow_every_write_and_forget_the_words(scope, other_scope, agent):
    added = [
        services.memory_add(scope=scope, text=text, actor=agent)
        for text in ("用户偏好用飞书沟通。", "Atlas 项目由林清负责。", "Atlas 项目下周上线。")
    ]
    assert [outcome.status for outcome in added] == [WriteStatus.ADDED] * 3
    services.memory_add(scope=other_scope, text="Bob prefers tea over coffee.", actor=agent)
    services.memory_add_many(
        scope=scope,
        items=[
            NewMemory(text="用户每周五写周报。"),
            NewMemory(text="The team deploys on Fridays."),
        ],
        actor=agent,
    )
    assert kept(scope.key) == recounted(scope.key) and kept(scope.key)[1] == 5
    assert kept(scope.key)[0]["atlas"] == 2

    changed = services.memory_update(
        scope=scope, memory_id=str(added[1].memory_id), text="Orion 项目由林清负责。", actor=agent
    )
    assert changed.status == WriteStatus.UPDATED
    assert kept(scope.key) == recounted(scope.key)
    assert kept(scope.key)[0]["atlas"] == 1 and kept(scope.key)[0]["orion"] == 1

    services.memory_delete(scope=scope, memory_id=str(added[2].memory_id), actor=agent)
    df, size = kept(scope.key)
    assert (df, size) == recounted(scope.key) and size == 4
    assert "atlas" not in df and "上线" not in df  # the forgotten memory's own words are gone

    forgotten = services.memory_delete_user(scope=scope, actor=agent)
    assert forgotten.status == DeleteStatus.DELETED
    assert kept(scope.key) == ({}, 0)
    assert kept(other_scope.key) == recounted(other_scope.key) and kept(other_scope.key)[1] == 1


def test_keyword_channel_ranks_by_the_kept_counts(scope, agent):
    """A rare word the vector floor misses is still found, through the kept counts."""
    for text in ("用户在杭州工作。", "用户喜欢喝乌龙茶。", "用户的猫叫豆豆。"):
        services.memory_add(scope=scope, text=text, actor=agent)
    hits = selectors.recall_channels(scope=scope, query="豆豆", pool=10, min_score=0.99)
    assert [hit.content for hit in hits[Channel.KEYWORD]] == ["用户的猫叫豆豆。"]
