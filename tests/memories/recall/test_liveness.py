"""The liveness and scope rules (``memories.recall.live``) in their three forms — the SQL
predicate, the ORM ``Q`` and the Python check of a payload — agree on real rows in PostgreSQL,
and every reader built on them sees the same memories."""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from django.db import connection

from memories import governance, selectors
from memories.models import EntityRow, MemoryRow
from memories.recall import live
from memories.recall.channels import ChannelQuery, channel_statement
from memories.types import MemoryStatus, SearchFilters, StatusFilter

pytestmark = pytest.mark.django_db

DIMS = 512
DAY = timedelta(days=1)
BEIJING = timezone(timedelta(hours=8))
NEIGHBOURS = ("acme:bob", "other:alice", "acme:alice2", "acme", "alice")


def at(now: datetime, offset: timedelta) -> str:
    return (now + offset).isoformat()


def cases(now: datetime) -> dict[str, tuple[dict[str, Any], bool, str | None]]:
    """name: (governance fields of the payload, live?, status a reader sees). The status is
    None for a value no writer writes: no status filter but ``all`` lists it."""
    return {
        "active": ({"status": "active", "valid_until": at(now, DAY)}, True, "active"),
        "active, no expiry": ({"status": "active", "valid_until": None}, True, "active"),
        "superseded": ({"status": "superseded", "valid_until": at(now, DAY)}, False, "superseded"),
        "superseded and past its day": (
            {"status": "superseded", "valid_until": at(now, -DAY)},
            False,
            "superseded",
        ),
        "expired by status": ({"status": "expired", "valid_until": at(now, DAY)}, False, "expired"),
        "past valid_until, not yet swept": (
            {"status": "active", "valid_until": at(now, -DAY)},
            False,
            "expired",
        ),
        "past valid_until in another offset": (
            {"status": "active", "valid_until": (now - DAY).astimezone(BEIJING).isoformat()},
            False,
            "expired",
        ),
        "neither field (before governance)": ({}, True, "active"),
        "JSON nulls": ({"status": None, "valid_until": None}, True, "active"),
        "no status, past valid_until": ({"valid_until": at(now, -DAY)}, False, "expired"),
        "a status no writer writes": ({"status": "archived"}, False, None),
    }


def insert(scope_key: str | None, text: str, fields: dict[str, Any]) -> str:
    memory_id = str(uuid.uuid4())
    payload = {"data": text, **fields}
    if scope_key is not None:
        payload["user_id"] = scope_key
    vector = [0.0] * DIMS
    vector[len(text) % DIMS] = 1.0
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {MemoryRow._meta.db_table} (id, vector, payload) "
            "VALUES (%s, %s::vector, %s::jsonb)",
            [memory_id, str(vector), json.dumps(payload)],
        )
    return memory_id


def sql_now() -> datetime:
    """The statement clock the SQL form reads (``now()``: the transaction's start)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT now()")
        return cursor.fetchone()[0]


def sql_ids(where: str, params: list[Any]) -> set[str]:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT m.id FROM {MemoryRow._meta.db_table} m WHERE {where}", params)
        return {str(r[0]) for r in cursor.fetchall()}


def orm_ids(q) -> set[str]:
    return {str(i) for i in MemoryRow.objects.filter(q).values_list("id", flat=True)}


def python_ids(check) -> set[str]:
    return {str(row.id) for row in MemoryRow.objects.defer("vector") if check(row.payload)}


@pytest.fixture
def rows(scope) -> dict[str, str]:
    """Every case in ``scope``, by name, beside copies in neighbouring scopes."""
    now = sql_now()
    ids = {name: insert(scope.key, name, fields) for name, (fields, _, _) in cases(now).items()}
    for neighbour in NEIGHBOURS:
        for name, (fields, _, _) in cases(now).items():
            insert(neighbour, name, fields)
    insert(None, "a row with no scope at all", {})
    return ids


def test_sql_orm_and_python_agree_on_which_memories_are_live(scope, rows):
    now = sql_now()
    expected = {rows[name] for name, (_, alive, _) in cases(now).items() if alive}

    by_sql = sql_ids(f"{live.scope_condition('m')} AND {live.live_condition('m')}", [scope.key])
    by_orm = orm_ids(live.scope_q(scope.key) & live.live_q(now))
    by_python = python_ids(lambda p: live.in_scope(p, scope.key) and live.is_live(p, now=now))

    assert by_sql == expected
    assert by_orm == expected
    assert by_python == expected
    assert {str(r.id) for r in selectors.live_rows(scope)} == expected


def test_sql_orm_and_python_agree_on_the_scope(scope, rows):
    assert len(sql_ids("true", [])) == (1 + len(NEIGHBOURS)) * len(rows) + 1
    for key in (scope.key, *NEIGHBOURS, "acme:", "ACME:alice"):
        by_sql = sql_ids(live.scope_condition("m"), [key])
        assert by_sql == orm_ids(live.scope_q(key)), key
        assert by_sql == python_ids(lambda p, key=key: live.in_scope(p, key)), key
        assert len(by_sql) == (len(rows) if key in (scope.key, *NEIGHBOURS) else 0), key
    assert sql_ids(live.scope_condition("m"), [scope.key]) == set(rows.values())
    assert {str(r.id) for r in selectors.scope_rows(scope)} == set(rows.values())


def test_each_status_filter_lists_what_payload_status_reads(scope, rows):
    now = sql_now()
    read = {rows[name]: status for name, (_, _, status) in cases(now).items()}
    for status in (StatusFilter.ACTIVE, StatusFilter.SUPERSEDED, StatusFilter.EXPIRED):
        listed = {
            str(r.id)
            for r in selectors.rows_with_status(selectors.scope_rows(scope), status, now=now)
        }
        assert listed == {memory_id for memory_id, s in read.items() if s == status}, status
        by_python = {
            str(r.id)
            for r in MemoryRow.objects.filter(id__in=rows.values())
            if governance.payload_status(r.payload, now=now) == status
            and read[str(r.id)] is not None
        }
        assert by_python == listed, status
    everything = selectors.rows_with_status(selectors.scope_rows(scope), StatusFilter.ALL, now=now)
    assert {str(r.id) for r in everything} == set(rows.values())


def test_a_status_no_writer_writes_is_never_read_as_active(scope, rows):
    now = sql_now()
    [row] = MemoryRow.objects.filter(id=rows["a status no writer writes"])
    assert not live.is_live(row.payload, now=now)
    assert governance.payload_status(row.payload, now=now) != MemoryStatus.ACTIVE


def test_the_sweep_finds_exactly_the_active_memories_past_their_day(scope, rows):
    now = sql_now()
    due = {m for key, m in selectors.memories_due_to_expire(now=now) if key == scope.key}
    assert due == {
        rows["past valid_until, not yet swept"],
        rows["past valid_until in another offset"],
        rows["no status, past valid_until"],
    }


def test_recall_and_the_raw_readers_see_only_live_memories_of_the_scope(scope, rows):
    """The channels' statement, nearest-neighbour duplicates, related memories and topics
    filter through the same rules."""
    now = sql_now()
    alive = {rows[name] for name, (_, is_alive, _) in cases(now).items() if is_alive}
    vector = [1.0 / DIMS**0.5] * DIMS

    query = ChannelQuery(
        scope_key=scope.key,
        vector=vector,
        terms=[],
        slips=[],
        grams=[],
        quoted=[],
        misspellings=[],
        pinyin=[],
        filters=SearchFilters(),
        vector_floor=-1.0,
        keyword_min_coverage=0.0,
        keyword_max_share=1.0,
        pool=100,
    )
    statement, params = channel_statement(
        query, memories=MemoryRow._meta.db_table, entities=EntityRow._meta.db_table
    )
    with connection.cursor() as cursor:
        cursor.execute(statement.as_string(cursor.connection), params)
        recalled = {str(r[1]) for r in cursor.fetchall()}
    assert recalled == alive

    [nearest] = selectors.memory_nearest_many(scope=scope, vectors=[vector])
    assert {memory_id for memory_id, _, _ in nearest} <= alive
    assert len(nearest) == min(selectors.DEDUP_CANDIDATES, len(alive))

    related = selectors.memory_related(scope=scope, memory_id=rows["superseded"], limit=100)
    assert {r.id for r in related} == alive

    entity_id = str(uuid.uuid4())
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {EntityRow._meta.db_table} (id, vector, payload) "
            "VALUES (%s, %s::vector, %s::jsonb)",
            [
                entity_id,
                str(vector),
                json.dumps(
                    {
                        "data": "Kestrel",
                        "user_id": scope.key,
                        "linked_memory_ids": list(rows.values()),
                    }
                ),
            ],
        )
    [topic] = selectors.topic_heatmap(scope=scope)
    assert (topic.id, topic.memory_count) == (entity_id, len(alive))
    assert selectors.topic_count(scope=scope) == 1


def test_an_expiry_is_over_from_its_instant_on():
    now = datetime(2026, 3, 1, 12, tzinfo=UTC)
    assert not live.is_over(None, now=now)  # no expiry: never over
    assert live.is_over(now, now=now)
    assert not live.is_over(now + timedelta(microseconds=1), now=now)
    assert live.is_due({"valid_until": now.isoformat()}, now=now)
