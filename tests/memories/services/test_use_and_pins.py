"""What agents were given, counted by the service; memories the user pins ("始终使用").

Real PostgreSQL, the real embedder and recall: /v1 search and context count each memory they
answer (never the query), the counts go with the memory and with delete-user, and the context
endpoint puts pinned memories first within its budget.
"""

from __future__ import annotations

import pytest
from django.db import connection

from memories import selectors, services
from memories.context import BUDGET_CHARS, FRAMES, MAX_FACTS
from memories.models import MemoryUse
from memories.types import ListOrder, ListQuery, WriteStatus
from memories.usage import Use, count_use
from tests.memories.conftest import body

pytestmark = pytest.mark.django_db


@pytest.fixture
def remember(scope, agent):
    def add(text: str, target=None) -> str:
        outcome = services.memory_add(scope=target or scope, text=text, actor=agent)
        assert outcome.memory_id is not None, outcome
        return outcome.memory_id

    return add


def use_rows() -> list[tuple]:
    """Every column of every row of the use table, as text."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT * FROM memories_memoryuse")
        return [tuple(str(v) for v in row) for row in cursor.fetchall()]


def test_search_and_context_count_each_memory_they_answer_and_never_the_query(v1, scope, remember):
    atlas = remember('"Atlas"项目的发布窗口定在三月底。')
    hiking = remember("用户周末喜欢爬山。")
    query = "Atlas 项目什么时候发布"
    found = v1.post("search", body(scope, query=query)).json()
    assert atlas in [item["id"] for item in found["items"]]
    recalled = {item["id"] for item in found["items"]}
    v1.post("search", body(scope, query=query))
    asked = body(scope, input="帮我看看 Atlas 项目的发布安排", run_kind="chat")
    context = v1.post("context", asked)
    assert context.json()["injected_count"] >= 1

    use = selectors.memory_use(scope=scope, memory_id=atlas)
    assert use.recalled_count == 2 and use.last_recalled_at is not None
    assert use.injected_count == 1 and use.last_injected_at is not None
    assert use.total == 3 and use.last_used_at == max(use.last_recalled_at, use.last_injected_at)
    if hiking not in recalled:
        assert selectors.memory_use(scope=scope, memory_id=hiking).total == 0
    # Counts and times only: neither the query nor the input is anywhere in the table.
    stored = " ".join(" ".join(row) for row in use_rows())
    assert "Atlas" not in stored and "发布" not in stored

    # The list sorts by it: most used first, never-used after.
    page = selectors.memory_list(scope=scope, query=ListQuery(order=ListOrder.USED))
    assert page.items[0].id == atlas
    assert (
        selectors.memory_list(scope=scope, query=ListQuery(order=ListOrder.LAST_USED)).items[0].id
        in recalled
    )


def test_use_counts_go_with_the_memory_and_with_delete_user(
    v1, scope, other_scope, remember, agent
):
    first = remember("团队使用飞书做日常沟通。")
    second = remember("周报每周五发给林清。")
    theirs = remember("团队使用飞书做日常沟通。", other_scope)
    for target in (scope, other_scope):
        v1.post("search", body(target, query="飞书 周报 林清 沟通"))
    assert MemoryUse.objects.filter(memory_id=first).exists()
    assert MemoryUse.objects.filter(memory_id=theirs).exists()

    assert services.memory_delete(scope=scope, memory_id=first, actor=agent).success
    assert not MemoryUse.objects.filter(memory_id=first).exists()

    assert services.memory_delete_user(scope=scope, actor=agent).success
    assert not MemoryUse.objects.filter(tenant_id=scope.tenant_id, user_id=scope.user_id).exists()
    assert not MemoryUse.objects.filter(memory_id=second).exists()
    # Another user's counts stay.
    assert selectors.memory_use(scope=other_scope, memory_id=theirs).recalled_count == 1


@pytest.mark.django_db(transaction=True)
def test_a_memory_deleted_outside_the_services_takes_its_count_along(scope, remember):
    """A staff tool or a provisional fact's clean-up deletes rows itself: the trigger on
    ``poco_memories`` takes the counts along (committed rows, as in production)."""
    memory_id = remember("团队使用飞书做日常沟通。")
    count_use(scope=scope, memory_ids=[memory_id], use=Use.RECALLED)
    assert MemoryUse.objects.filter(memory_id=memory_id).exists()
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM poco_memories WHERE id = %s", [memory_id])
    assert not MemoryUse.objects.filter(memory_id=memory_id).exists()
    count_use(scope=scope, memory_ids=[memory_id], use=Use.RECALLED)  # a hit deleted meanwhile
    assert not MemoryUse.objects.filter(memory_id=memory_id).exists()


def test_pinned_memories_come_first_within_the_context_budget(v1, scope, remember, agent):
    atlas = [
        remember('"Atlas"项目的发布窗口定在三月底。'),
        remember('"Atlas"的文档统一用简体中文写，结论先行。'),
        remember('"Atlas"的需求对接人是林清。'),
    ]
    pinned = remember("回答技术问题时先给可运行的最小示例，再解释原理。")
    outcome = services.memory_pin(scope=scope, memory_id=pinned, pinned=True, actor=agent)
    assert outcome.status == WriteStatus.UPDATED
    data = v1.post(
        "context", body(scope, input="“Atlas”项目接下来要注意什么？", run_kind="chat")
    ).json()
    frame = FRAMES["zh"]
    facts = [line[2:] for line in data["text"][len(frame) :].split("\n")]
    assert data["injected_count"] == MAX_FACTS == len(facts)
    assert facts[0] == "回答技术问题时先给可运行的最小示例，再解释原理。"
    assert len(data["text"]) <= BUDGET_CHARS
    assert set(data) == {"text", "injected_count", "available", "error_reason"}  # no ids
    assert selectors.memory_use(scope=scope, memory_id=pinned).injected_count == 1
    assert sum(selectors.memory_use(scope=scope, memory_id=m).injected_count for m in atlas) == 2

    # Unpinned, it is an ordinary memory again: not relevant, not injected.
    services.memory_pin(scope=scope, memory_id=pinned, pinned=False, actor=agent)
    again = v1.post(
        "context", body(scope, input="“Atlas”项目接下来要注意什么？", run_kind="chat")
    ).json()
    assert "最小示例" not in again["text"]


def test_pins_are_capped_per_user_and_only_for_current_own_memories(
    scope, other_scope, remember, agent
):
    ids = [remember(f"第 {n} 条固定记忆：项目代号 P{n} 的负责人是同事 {n} 号。") for n in range(11)]
    for memory_id in ids[: services.MAX_PINS]:
        assert services.memory_pin(
            scope=scope, memory_id=memory_id, pinned=True, actor=agent
        ).success
    refused = services.memory_pin(scope=scope, memory_id=ids[-1], pinned=True, actor=agent)
    assert refused.status == WriteStatus.REJECTED and refused.reason == services.PIN_LIMIT
    assert selectors.pinned_count(scope=scope) == services.MAX_PINS
    again = services.memory_pin(scope=scope, memory_id=ids[0], pinned=True, actor=agent)
    assert again.status == WriteStatus.NO_EFFECT
    foreign = services.memory_pin(scope=other_scope, memory_id=ids[0], pinned=False, actor=agent)
    assert foreign.status == WriteStatus.FORBIDDEN
    assert selectors.memory_get(scope=scope, memory_id=ids[0]).metadata["pinned"] is True
    history = selectors.memory_history(scope=scope, memory_id=ids[0])
    assert [e.status for e in history if e.event == "UPDATE"] == ["pinned"]


def test_bulk_category_change_keeps_text_and_audits_each_change(
    scope, other_scope, remember, agent
):
    mine = [remember("团队使用飞书做日常沟通。"), remember("周报每周五发给林清。")]
    theirs = remember("王磊负责部署。", other_scope)
    outcomes = services.memories_set_category(
        scope=scope, memory_ids=[*mine, theirs], category="project", actor=agent
    )
    assert [o.status for o in outcomes] == ["updated", "updated", "forbidden"]
    for memory_id in mine:
        record = selectors.memory_get(scope=scope, memory_id=memory_id)
        assert record.category == "project"
        last = selectors.memory_history(scope=scope, memory_id=memory_id)[-1]
        assert last.changes == {"category": ["fact", "project"]}
    assert selectors.memory_get(scope=other_scope, memory_id=theirs).category == "fact"
    again = services.memories_set_category(
        scope=scope, memory_ids=mine, category="project", actor=agent
    )
    assert {o.status for o in again} == {"no_effect"}
