"""When a newer memory of a key takes over, the old one's validity ends exactly where the new
one's begins: one clock reading, so a search ``as_of`` any instant sees exactly one version.
Real PostgreSQL, Mem0 and the bundled embedder."""

from __future__ import annotations

from datetime import timedelta

import pytest

from memories import selectors, services
from memories.engine import get_engine
from memories.instants import read_instant
from memories.models import MemoryRow
from memories.services import NewMemory, our_metadata
from memories.types import SearchFilters, WriteStatus

pytestmark = pytest.mark.django_db

KEY = "preference.editor"
VIM = "用户的主力编辑器是 Vim"
VSCODE = "用户的主力编辑器换成了 VS Code"


def payload(memory_id: str) -> dict:
    return MemoryRow.objects.get(id=memory_id).payload


def valid_ids(scope, query: str, at) -> set[str]:
    result = selectors.memory_search(
        scope=scope, query=query, top_k=10, min_score=0.0, filters=SearchFilters(as_of=at)
    )
    assert result.available
    return {hit.id for hit in result.items}  # related ones too: they obey as_of as well


def assert_intervals_meet(scope, old: str, new: str) -> None:
    ended, began = payload(old)["superseded_at"], payload(new)["created_at"]
    assert ended == began  # the same value, not two readings of the clock
    start = read_instant(began)
    assert start is not None
    tick = timedelta(microseconds=1)
    assert valid_ids(scope, "用户用什么编辑器", start) == {new}
    assert valid_ids(scope, "用户用什么编辑器", start - tick) == {old}


def test_a_key_taken_over_by_an_add_ends_where_the_new_memory_begins(scope, agent):
    old = services.memory_add(scope=scope, text=VIM, actor=agent, memory_key=KEY).memory_id
    new = services.memory_add(scope=scope, text=VSCODE, actor=agent, memory_key=KEY)
    assert new.superseded_id == old

    assert_intervals_meet(scope, old, new.memory_id)


def test_a_key_taken_over_twice_in_one_batch_chains_the_intervals(scope, agent):
    outcomes = services.memory_add_many(
        scope=scope,
        items=[
            NewMemory(text=VIM, memory_key=KEY),
            NewMemory(text=VSCODE, memory_key=KEY),
            NewMemory(text="用户的主力编辑器换成了 Zed", memory_key=KEY),
        ],
        actor=agent,
        source="manage",
    )
    first, second, third = (o.memory_id for o in outcomes)
    assert payload(first)["superseded_at"] == payload(second)["created_at"]
    assert payload(second)["superseded_at"] == payload(third)["created_at"]


def test_an_adopted_inference_takes_over_from_its_own_created_at(scope, agent):
    old = services.memory_add(
        scope=scope, text=VIM, actor=agent, memory_key=KEY, confidence=0.7
    ).memory_id
    extracted = get_engine().add_fact(
        scope_key=scope.key,
        text=VSCODE,
        metadata=our_metadata(category="preference", source="ingest"),
    )

    outcome = services.memory_record_extracted(
        scope=scope,
        memory_id=extracted,
        text=VSCODE,
        actor=agent,
        category="preference",
        memory_key=KEY,
    )

    assert outcome.status == WriteStatus.ADDED and outcome.superseded_id == old
    assert read_instant(payload(old)["superseded_at"]) == read_instant(
        payload(extracted)["created_at"]
    )
