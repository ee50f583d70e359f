"""Correcting a memory that is history (superseded or expired): its text changes, its place in
history does not, and the key's current value is never displaced by it. Real PostgreSQL, Mem0
and the bundled embedder."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from memories import selectors, services
from memories.engine import get_engine
from memories.models import MemoryRow
from memories.types import SearchFilters, WriteStatus
from tests.memories.conftest import body

pytestmark = pytest.mark.django_db

KEY = "profile.home_city"
WUHAN = "用户住在武汉"
HANGZHOU = "用户搬到了杭州"


def payload(memory_id: str) -> dict:
    return MemoryRow.objects.get(id=memory_id).payload


def search_ids(scope, query: str) -> list[str]:
    result = selectors.memory_search(
        scope=scope, query=query, top_k=10, min_score=0.0, filters=SearchFilters()
    )
    assert result.available
    return [hit.id for hit in result.items]


def moved(scope, agent) -> tuple[str, str]:
    """武汉, then 杭州 under the same key: (the superseded id, the current id)."""
    old = services.memory_add(scope=scope, text=WUHAN, actor=agent, memory_key=KEY).memory_id
    new = services.memory_add(scope=scope, text=HANGZHOU, actor=agent, memory_key=KEY)
    assert new.superseded_id == old
    return old, new.memory_id


def expire(memory_id: str) -> None:
    """Move the memory's valid_until a day into the past (the sweep has not run)."""
    get_engine().patch_payload(
        memory_id=memory_id,
        fields={"valid_until": (timezone.now() - timedelta(days=1)).isoformat()},
    )


def assert_still_history(old: str, current: str, before: dict) -> None:
    """``old`` is still superseded by ``current``, from the same instant, and ``current`` is
    still the key's one active value."""
    after = payload(old)
    assert after["status"] == "superseded"
    assert after["superseded_by"] == current
    assert after["superseded_at"] == before["superseded_at"]
    now = payload(current)
    assert now["status"] == "active" and now.get("superseded_by") is None


def test_correcting_a_superseded_memory_keeps_it_superseded(scope, agent):
    old, current = moved(scope, agent)
    before = payload(old)

    outcome = services.memory_update(
        scope=scope, memory_id=old, text="用户以前住在武汉", actor=agent
    )

    assert outcome.status == WriteStatus.UPDATED and outcome.superseded_id is None
    assert MemoryRow.objects.get(id=old).content == "用户以前住在武汉"
    assert_still_history(old, current, before)
    assert str(selectors.memory_active_by_key(scope=scope, memory_key=KEY).id) == current
    assert search_ids(scope, "我住在哪个城市")[:1] == [current]
    assert old not in search_ids(scope, "我住在哪个城市")


@pytest.mark.parametrize("op", ["update-item", "manage"])
def test_correcting_a_superseded_memory_through_v1_keeps_the_current_value(v1, scope, agent, op):
    old, current = moved(scope, agent)
    before = payload(old)
    fields = {"memory_id": old, "text": "用户以前住在武汉"}
    if op == "manage":
        fields["action"] = "update"
    answer = v1.post(op, body(scope, **fields)).json()

    assert answer["status"] == "updated" and answer["superseded_id"] is None, answer
    assert_still_history(old, current, before)
    listed = v1.post("list-user", body(scope, status="active")).json()
    assert [m["id"] for m in listed["items"]] == [current]


def test_a_superseded_memory_given_another_key_takes_nothing_over(scope, agent):
    old, current = moved(scope, agent)
    other = services.memory_add(
        scope=scope, text="用户常驻上海办公室", actor=agent, memory_key="profile.office"
    ).memory_id
    before = payload(old)

    outcome = services.memory_update(
        scope=scope,
        memory_id=old,
        text="用户以前在武汉办公室",
        actor=agent,
        memory_key="profile.office",
    )

    assert outcome.status == WriteStatus.UPDATED and outcome.superseded_id is None
    assert payload(old)["memory_key"] == "profile.office"
    assert_still_history(old, current, before)
    assert payload(other)["status"] == "active"


def test_restoring_a_past_version_of_a_superseded_memory_keeps_it_superseded(scope, agent):
    old, current = moved(scope, agent)
    services.memory_update(scope=scope, memory_id=old, text="用户以前住在武汉", actor=agent)
    before = payload(old)
    first = selectors.memory_history(scope=scope, memory_id=old)[0]

    outcome = services.memory_restore_version(
        scope=scope, memory_id=old, event_id=first.id, actor=agent
    )

    assert outcome.status == WriteStatus.UPDATED and outcome.superseded_id is None
    assert MemoryRow.objects.get(id=old).content == WUHAN
    assert_still_history(old, current, before)


@pytest.mark.parametrize("swept", [False, True])
def test_correcting_an_expired_memory_never_displaces_the_keys_holder(scope, agent, swept):
    old = services.memory_add(scope=scope, text=WUHAN, actor=agent, memory_key=KEY).memory_id
    expire(old)
    if swept:
        assert services.memories_expire() == 1
    current = services.memory_add(scope=scope, text=HANGZHOU, actor=agent, memory_key=KEY)
    assert current.superseded_id is None  # an expired memory holds no key

    outcome = services.memory_update(
        scope=scope, memory_id=old, text="用户以前住在武汉", actor=agent
    )

    assert outcome.status == WriteStatus.UPDATED and outcome.superseded_id is None
    assert MemoryRow.objects.get(id=old).content == "用户以前住在武汉"
    assert selectors.memory_get(scope=scope, memory_id=old).status == "expired"
    assert payload(current.memory_id)["status"] == "active"
    assert str(selectors.memory_active_by_key(scope=scope, memory_key=KEY).id) == current.memory_id


def test_an_expired_memory_is_not_extended_over_the_keys_holder(scope, agent):
    old = services.memory_add(scope=scope, text=WUHAN, actor=agent, memory_key=KEY).memory_id
    expire(old)
    services.memories_expire()
    current = services.memory_add(scope=scope, text=HANGZHOU, actor=agent, memory_key=KEY).memory_id
    before = payload(old)

    outcome = services.memory_update(
        scope=scope,
        memory_id=old,
        text="用户又住在武汉了",
        actor=agent,
        valid_until=timezone.now() + timedelta(days=365),
    )

    # As the console's expiry change answers: the key has a current value.
    assert (outcome.status, outcome.reason) == (WriteStatus.REJECTED, "key_in_use")
    assert payload(old) == before
    assert MemoryRow.objects.get(id=old).content == WUHAN
    assert payload(current)["status"] == "active"


def test_an_expired_memory_whose_key_is_free_is_current_again_when_extended(scope, agent):
    old = services.memory_add(scope=scope, text=WUHAN, actor=agent, memory_key=KEY).memory_id
    expire(old)
    services.memories_expire()
    until = timezone.now() + timedelta(days=365)

    outcome = services.memory_update(
        scope=scope, memory_id=old, text="用户住在武汉市", actor=agent, valid_until=until
    )

    assert outcome.status == WriteStatus.UPDATED
    assert payload(old)["status"] == "active"
    assert parse_datetime(payload(old)["valid_until"]) == until
    assert str(selectors.memory_active_by_key(scope=scope, memory_key=KEY).id) == old


def test_correcting_the_current_value_still_takes_a_key_over(scope, agent):
    """The rule for an active memory is unchanged: taking a held key supersedes its holder."""
    holder = services.memory_add(scope=scope, text=WUHAN, actor=agent, memory_key=KEY).memory_id
    loose = services.memory_add(scope=scope, text="用户喜欢喝龙井茶", actor=agent).memory_id

    outcome = services.memory_update(
        scope=scope, memory_id=loose, text=HANGZHOU, actor=agent, memory_key=KEY
    )

    assert outcome.status == WriteStatus.UPDATED and outcome.superseded_id == holder
    assert payload(holder)["status"] == "superseded"
    assert payload(loose)["status"] == "active"
