"""The explicit add at scale: one embedding per add, the text's own work done before
the scope's write lock, and concurrent adds of one scope each stored exactly once."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.db import connection, connections

from memories import services
from memories.engine import get_engine
from memories.models import AuditEvent, EntityRow, MemoryRow
from memories.types import WriteStatus
from tests.memories.conftest import waiting_for_advisory_lock
from tests.support import eventually

PEOPLE = ["林清", "王磊", "张敏", "李娜", "陈晨", "刘洋", "杨帆", "赵雷", "黄蕾", "周杰"]
WORK = ["预算评审", "接口设计", "灰度发布", "性能压测", "安全审计"]


def distinct_facts(count: int) -> list[str]:
    """Facts that share names (so their entity links meet) but never repeat one another."""
    facts = [f"{person}负责“{work}”。" for work in WORK for person in PEOPLE]
    assert len(facts) >= count
    return facts[:count]


@pytest.fixture
def embedded(monkeypatch) -> list[str]:
    """Every text the embedder is asked for, in order (from any thread)."""
    model = get_engine()._memory.embedding_model
    seen: list[str] = []
    guard = threading.Lock()
    batch, one = model.embed_batch, model.embed

    def embed_batch(texts: list[str], memory_action: str = "add") -> list[list[float]]:
        with guard:
            seen.extend(texts)
        return batch(texts, memory_action)

    def embed(text: str, memory_action: Any = None) -> list[float]:
        with guard:
            seen.append(text)
        return one(text, memory_action)

    monkeypatch.setattr(model, "embed_batch", embed_batch)
    monkeypatch.setattr(model, "embed", embed)
    return seen


def in_threads(calls: list[Callable[[], Any]]) -> list[Any]:
    """Run every call at once, each thread on its own Django connection."""
    start = threading.Barrier(len(calls))

    def run(call: Callable[[], Any]) -> Any:
        try:
            start.wait()
            return call()
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=len(calls)) as pool:
        return list(pool.map(run, calls))


@pytest.mark.django_db
def test_an_add_embeds_its_text_once(scope, agent, embedded):
    services.memory_add(scope=scope, text="团队使用“飞书”沟通。", actor=agent)
    embedded.clear()

    text = "“飞书”里每周五发周报。"
    outcome = services.memory_add(scope=scope, text=text, actor=agent)

    assert outcome.status == WriteStatus.ADDED
    stored = MemoryRow.objects.get(id=outcome.memory_id)
    assert stored.content == text
    # The sentence once (duplicate check and stored vector alike); after it only the names
    # new to the scope's entity index ("周报"), never "飞书" again.
    assert embedded[0] == stored.content
    assert stored.content not in embedded[1:] and "飞书" not in embedded
    links = EntityRow.objects.get(payload__user_id=scope.key, payload__data="飞书")
    assert outcome.memory_id in links.payload["linked_memory_ids"]


@pytest.mark.django_db
def test_the_duplicate_check_reads_stored_lemmas_instead_of_analysing_memories_again(
    scope, agent, monkeypatch
):
    from memories.language import nlp

    stored = "The user prefers dark mode in every editor."
    services.memory_add(scope=scope, text=stored, actor=agent)
    analysed: list[str] = []
    lemmatize = nlp._lemmatize

    def spy(text: str) -> str:
        analysed.append(text)
        return lemmatize(text)

    monkeypatch.setattr(nlp, "_lemmatize", spy)
    outcome = services.memory_add(
        scope=scope, text="The user prefers dark mode in every editor, always.", actor=agent
    )

    assert outcome.status == WriteStatus.NO_EFFECT and outcome.reason == "duplicate"
    assert stored not in analysed  # its words came from its stored text_lemmatized
    assert analysed  # the new text itself was analysed


@pytest.mark.django_db
def test_an_add_looks_for_its_nearest_memories_once(scope, agent):
    from django.test.utils import CaptureQueriesContext

    services.memory_add(scope=scope, text="团队使用“飞书”沟通。", actor=agent)
    with CaptureQueriesContext(connection) as queries:
        outcome = services.memory_add(scope=scope, text="“飞书”里每周五发周报。", actor=agent)

    assert outcome.status == WriteStatus.ADDED
    nearest = [q for q in queries.captured_queries if "::vector[]" in q["sql"]]
    assert len(nearest) == 1


@pytest.mark.django_db(transaction=True)
def test_an_add_embeds_and_analyses_before_it_waits_for_the_scope_lock(
    scope, agent, embedded, scope_lock_held
):
    text = "林清负责“预算评审”。"

    def add() -> Any:
        try:
            return services.memory_add(scope=scope, text=text, actor=agent)
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=1) as pool:
        future = pool.submit(add)
        try:
            eventually(
                lambda: waiting_for_advisory_lock() or future.done(),
                what="the add queued for the scope lock",
            )
            assert not future.done(), future.result()
            # Queued behind another writer with its text already embedded; nothing stored yet.
            assert embedded[:1] == [text]
            assert not MemoryRow.objects.filter(payload__user_id=scope.key).exists()
        finally:
            scope_lock_held()  # else the pool would wait forever for the queued add
        outcome = future.result(timeout=60)

    assert outcome.status == WriteStatus.ADDED
    stored = list(MemoryRow.objects.values_list("payload__data", flat=True))
    assert stored == [text]


@pytest.mark.django_db(transaction=True)
def test_fifty_concurrent_adds_of_distinct_facts_store_each_once(scope, agent):
    facts = distinct_facts(50)

    outcomes = in_threads(
        [
            lambda text=text: services.memory_add(scope=scope, text=text, actor=agent)
            for text in facts
        ]
    )

    assert [o.status for o in outcomes] == [WriteStatus.ADDED] * len(facts)
    stored = list(MemoryRow.objects.values_list("payload__data", flat=True))
    assert sorted(stored) == sorted(f for f in facts)
    assert AuditEvent.objects.filter(event=AuditEvent.Event.ADD).count() == len(facts)
    # Each name has one entity row, linking every fact that names it (no row raced in twice).
    rows = [(r.payload["data"], r.payload["linked_memory_ids"]) for r in EntityRow.objects.all()]
    assert len({name for name, _ in rows}) == len(rows)
    by_text = dict(MemoryRow.objects.values_list("payload__data", "id"))
    for name, linked in rows:
        assert sorted(linked) == sorted(str(i) for t, i in by_text.items() if name in t), name
    assert len(rows) >= 5  # the people jieba knows as names


@pytest.mark.django_db(transaction=True)
def test_ten_concurrent_adds_of_one_fact_store_it_once(scope, agent):
    text = "张敏负责“灰度发布”。"

    outcomes = in_threads(
        [lambda: services.memory_add(scope=scope, text=text, actor=agent) for _ in range(10)]
    )

    added = [o for o in outcomes if o.status == WriteStatus.ADDED]
    assert len(added) == 1
    repeats = [(o.status, o.reason, o.memory_id) for o in outcomes if o not in added]
    assert repeats == [(WriteStatus.NO_EFFECT, "duplicate", added[0].memory_id)] * 9
    assert list(MemoryRow.objects.values_list("payload__data", flat=True)) == [text]
