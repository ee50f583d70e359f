"""Search ``as_of`` an instant: what was true then (``memories.recall.live``, validity at an
instant). The rule's SQL, ORM and Python forms agree on real rows; recall through the real
channels returns the superseded and expired memories whose validity covered the instant, with
their validity, and never a deleted one."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from django.utils import timezone as dj_timezone

from memories import selectors, services
from memories.engine import get_engine
from memories.instants import read_instant
from memories.models import MemoryRow
from memories.recall import live
from memories.types import MemoryStatus, SearchFilters, WriteStatus
from tests.memories.recall.test_liveness import insert, orm_ids, python_ids, sql_ids

pytestmark = pytest.mark.django_db

DAY = timedelta(days=1)
BEIJING = timezone(timedelta(hours=8))
T0 = datetime(2026, 1, 1, tzinfo=UTC)


def iso(days: float) -> str:
    return (T0 + days * DAY).isoformat()


# name: governance fields (days after T0), and the instants (days after T0) it was valid at.
CASES: dict[str, tuple[dict[str, Any], set[float]]] = {
    "active since day 10": ({"status": "active", "created_at": iso(10)}, {10, 15, 30, 40, 70}),
    "active until day 60": (
        {"status": "active", "created_at": iso(10), "valid_until": iso(60)},
        {10, 15, 30, 40},
    ),
    "superseded on day 30": (
        {"status": "superseded", "created_at": iso(0), "superseded_at": iso(30)},
        {5, 10, 15},
    ),
    "superseded on day 30, offset +08:00": (
        {
            "status": "superseded",
            "created_at": (T0 + 12 * DAY).astimezone(BEIJING).isoformat(),
            "superseded_at": (T0 + 30 * DAY).astimezone(BEIJING).isoformat(),
        },
        {15},
    ),
    "superseded, expiry before its successor": (
        {
            "status": "superseded",
            "created_at": iso(0),
            "valid_until": iso(12),
            "superseded_at": iso(30),
        },
        {5, 10},
    ),
    "superseded before superseded_at was kept": ({"status": "superseded"}, set()),
    "expired on day 20": (
        {"status": "expired", "created_at": iso(0), "valid_until": iso(20)},
        {5, 10, 15},
    ),
    "past its day, not yet swept": (
        {"status": "active", "created_at": iso(0), "valid_until": iso(20)},
        {5, 10, 15},
    ),
    "before governance": ({}, {5, 10, 15, 30, 40, 70}),
    "JSON nulls": (
        {"status": None, "created_at": iso(10), "valid_until": None, "superseded_at": None},
        {10, 15, 30, 40, 70},
    ),
    "a status no writer writes": ({"status": "archived", "created_at": iso(0)}, set()),
}
INSTANTS = (5, 10, 15, 30, 40, 70)  # day 10 is one case's creation instant: included


def test_sql_orm_and_python_agree_on_validity_at_an_instant(scope):
    ids = {name: insert(scope.key, name, fields) for name, (fields, _) in CASES.items()}
    insert("acme:bob", "another scope's memory", {"created_at": iso(0)})
    for day in INSTANTS:
        at = T0 + day * DAY
        expected = {ids[name] for name, (_, valid) in CASES.items() if day in valid}
        condition = live.valid_at_condition("m", "%s")
        # A positional placeholder is bound once per appearance.
        by_sql = sql_ids(
            f"{live.scope_condition('m')} AND {condition}",
            [scope.key, *[at] * condition.count("%s")],
        )
        by_orm = orm_ids(live.scope_q(scope.key) & live.valid_at_q(at))
        by_python = python_ids(
            lambda p, at=at: live.in_scope(p, scope.key) and live.is_valid_at(p, at=at)
        )
        assert by_sql == expected, day
        assert by_orm == expected, day
        assert by_python == expected, day


def test_validity_now_is_liveness_for_what_writers_write(scope):
    """As of now, a memory the service wrote is valid exactly when it is live."""
    now = dj_timezone.now()
    fields = {
        "live": {"status": "active", "created_at": iso(0), "valid_until": None},
        "expires later": {"status": "active", "created_at": iso(0), "valid_until": iso(10_000)},
        "superseded": {"status": "superseded", "created_at": iso(0), "superseded_at": iso(1)},
        "expired": {"status": "expired", "created_at": iso(0), "valid_until": iso(2)},
    }
    for name, payload in fields.items():
        insert(scope.key, name, payload)
    rows = list(MemoryRow.objects.all())
    assert len(rows) == len(fields)
    for row in rows:
        assert live.is_valid_at(row.payload, at=now) == live.is_live(row.payload, now=now)


# --- through the services and the real channels -------------------------------------------------
KEY = "preference.editor"
OLD = "用户写代码用 Vim 编辑器"
NEW = "用户写代码改用 VS Code 编辑器"
QUERY = "用户用什么编辑器写代码"


def found(scope, query: str = QUERY, **filters: Any) -> dict[str, Any]:
    result = selectors.memory_search(
        scope=scope, query=query, top_k=10, min_score=0.0, filters=SearchFilters(**filters)
    )
    assert result.available
    return {hit.content: hit for hit in result.items}


@pytest.fixture
def editors(scope, agent) -> dict[str, str]:
    return store_editors(scope, agent)


def store_editors(scope, agent) -> dict[str, str]:
    """Vim from 11 January, VS Code from 1 March 09:00 Beijing (superseding it), and a deleted
    memory that held in between (every door's as_of test reads this story)."""
    old = services.memory_add(
        scope=scope, text=OLD, actor=agent, memory_key=KEY, created_at=T0 + 10 * DAY
    )
    deleted = services.memory_add(
        scope=scope, text="用户的编辑器配色是 Solarized", actor=agent, created_at=T0 + 20 * DAY
    )
    new = services.memory_add(
        scope=scope,
        text=NEW,
        actor=agent,
        memory_key=KEY,
        created_at=datetime(2026, 3, 1, 9, tzinfo=BEIJING),
    )
    assert new.superseded_id == old.memory_id
    assert (
        services.memory_delete(scope=scope, memory_id=deleted.memory_id, actor=agent).status.value
        == "deleted"
    )
    return {"old": old.memory_id, "new": new.memory_id, "deleted": deleted.memory_id}


def test_supersede_records_when_the_successor_began_to_hold(scope, editors):
    payload = MemoryRow.objects.get(id=editors["old"]).payload
    assert payload["status"] == MemoryStatus.SUPERSEDED
    assert read_instant(payload["superseded_at"]) == datetime(2026, 3, 1, 1, tzinfo=UTC)


def test_search_as_of_returns_what_was_true_then_with_its_validity(scope, editors):
    assert OLD not in found(scope) and NEW in found(scope)  # without as_of: now, as before

    before = found(scope, as_of=datetime(2026, 2, 15, tzinfo=UTC))
    assert OLD in before and NEW not in before
    validity = before[OLD].validity
    assert validity is not None and validity.status == MemoryStatus.SUPERSEDED
    assert validity.valid_from == T0 + 10 * DAY
    assert validity.valid_until == datetime(2026, 3, 1, 1, tzinfo=UTC)

    after = found(scope, as_of=datetime(2026, 3, 2, tzinfo=UTC))
    assert NEW in after and OLD not in after
    assert after[NEW].validity is not None and after[NEW].validity.status == "active"
    assert found(scope)[NEW].validity is None  # validity is said only when asked as_of

    # Before either held: nothing about editors.
    assert not {OLD, NEW} & set(found(scope, as_of=T0))


def test_a_deleted_memory_never_comes_back(scope, editors):
    assert not MemoryRow.objects.filter(id=editors["deleted"]).exists()  # its text is gone
    for day in (15, 25, 40):
        hits = found(scope, "编辑器配色", as_of=T0 + day * DAY)
        assert editors["deleted"] not in {h.id for h in hits.values()}


def test_an_expired_memory_is_found_as_of_a_day_it_held(scope, agent):
    outcome = services.memory_add(
        scope=scope, text="用户本周在上海出差", actor=agent, created_at=T0
    )
    assert outcome.status == WriteStatus.ADDED
    # Its week passes: the expiry moves into the past and the sweep marks it.
    get_engine().patch_payload(
        memory_id=outcome.memory_id, fields={"valid_until": (T0 + 7 * DAY).isoformat()}
    )
    assert services.memories_expire() == 1
    assert "用户本周在上海出差" not in found(scope, "用户在哪里出差")
    hit = found(scope, "用户在哪里出差", as_of=T0 + 3 * DAY)["用户本周在上海出差"]
    assert hit.validity is not None and hit.validity.valid_until == T0 + 7 * DAY
    assert hit.validity.status == MemoryStatus.EXPIRED
    assert "用户本周在上海出差" not in found(scope, "用户在哪里出差", as_of=T0 + 8 * DAY)
