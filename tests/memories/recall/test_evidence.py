"""Evidence floors (no evidence, no answer), rank fusion, and filters inside every channel."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from memories import selectors, services
from memories.types import Category, Channel, SearchFilters, Source
from tests.memories.conftest import body
from tests.memories.recall.conftest import (
    ATLAS,
    HIKING,
)
from tests.memories.recall.test_search import evidence, search, semantic

pytestmark = pytest.mark.django_db


# --- evidence floors: no evidence, no answer -----------------------------------------------------
@pytest.mark.parametrize(
    "query", ["量子计算的最新进展", "股票行情怎么样", "how to bake sourdough bread", "王小明"]
)
def test_a_query_without_evidence_in_any_channel_answers_nothing(v1, scope, facts, query):
    assert search(v1, scope, query) == {
        "items": [],
        "total": 0,
        "available": True,
        "error_reason": None,
    }


@pytest.mark.parametrize("query", ["用户喜欢什么", "the user likes", "用户的偏好"])
def test_generic_words_alone_are_no_keyword_evidence(scope, facts, query):
    channels = selectors.recall_channels(scope=scope, query=query, pool=10, min_score=1.0)
    assert channels[Channel.KEYWORD] == []


def test_a_word_most_memories_share_is_no_keyword_evidence_in_a_large_scope(scope, remember):
    for n in range(24):
        remember(f"第{n}号服务的监控面板由运维组维护。")
    remember("运维组的值班表放在共享日历里。")
    channels = selectors.recall_channels(scope=scope, query="监控面板", pool=50, min_score=1.0)
    assert channels[Channel.KEYWORD] == []  # "监控面板" is in 24 of 25 memories
    channels = selectors.recall_channels(scope=scope, query="值班表", pool=50, min_score=1.0)
    assert len(channels[Channel.KEYWORD]) == 1


def test_a_word_no_memory_holds_weighs_no_more_than_the_rarest_word_found(scope, facts, remember):
    # "选型" is in no memory: it must not outweigh "缓存", which one memory holds.
    cache = remember("新服务默认用 PostgreSQL，缓存用 Redis。")
    channels = selectors.recall_channels(scope=scope, query="缓存选型", pool=10, min_score=1.0)
    assert [h.id for h in channels[Channel.KEYWORD]] == [cache]


def test_an_attribute_held_in_several_words_by_one_memory_is_counted_once(scope, remember):
    # Every goal says "due" and "rollout": 6 of 26 memories hold the launch attribute, not 12 —
    # summing its words' counts made it look too common to count, and the owner and the stack
    # memories of Falcon then matched "When is Falcon due?" as well as its goal.
    projects = ("Falcon", "Osprey", "Heron", "Condor", "Pelican", "Magpie")
    for name in projects:
        remember(f"Project {name} is a rewrite, due in the spring; a staged rollout comes first.")
    remember("Noah Kim leads Falcon; scope changes go through him.")
    remember("Falcon runs on Elasticsearch behind the internal gateway.")
    for n in range(18):
        remember(f"Retro notes of sprint {n} live in the team space.")
    keyword = selectors.recall_channels(
        scope=scope, query="When is Falcon due?", pool=10, min_score=1.0
    )[Channel.KEYWORD]
    assert keyword[0].strength == 1.0 and "Falcon is a rewrite" in keyword[0].content
    assert all(h.strength < 1.0 for h in keyword[1:])


def test_a_partial_match_of_a_long_query_is_not_keyword_evidence(scope, facts):
    # Shares only "周末" with the hiking memory: too little of what the query asks.
    channels = selectors.recall_channels(
        scope=scope, query="周末去哪里看话剧演出和音乐会", pool=10, min_score=1.0
    )
    assert channels[Channel.KEYWORD] == []


# --- fusion: ranks, not raw scores ---------------------------------------------------------------
def test_first_in_every_channel_scores_one_and_keyword_hits_never_lower_scores(v1, scope, facts):
    items = search(v1, scope, "项目“Atlas”的发布窗口")["items"]
    assert items[0]["id"] == facts[ATLAS]
    assert items[0]["score"] == 1.0  # Mem0 would have divided it by its keyword maximum


def test_scores_are_in_range_and_descending(v1, scope, facts):
    for query in ("Atlas", "团队用什么沟通", "What does the user drink?"):
        scores = [i["score"] for i in search(v1, scope, query, min_score=0.0, top_k=10)["items"]]
        assert scores and all(0.0 < s <= 1.0 for s in scores)
        assert scores == sorted(scores, reverse=True)


def test_memory_found_by_more_channels_ranks_higher(scope, facts):
    result = selectors.memory_search(scope=scope, query="Atlas", min_score=0.0, top_k=10)
    channels = selectors.recall_channels(scope=scope, query="Atlas", pool=40, min_score=0.0)
    assert facts[ATLAS] in {h.id for h in channels[Channel.ENTITY]}
    assert result.items[0].id == facts[ATLAS]
    # At min_score 0 every memory is vector evidence and every one is in e5's ranking (the
    # order's fifth share): the last holds those two, Atlas three more.
    assert result.items[0].score > 1.5 * result.items[-1].score


def test_between_two_firsts_of_one_channel_each_the_clearer_evidence_ranks_first(scope, remember):
    # The vector channel's best only just passes its floor; the keyword channel's best holds
    # every word asked. Each is first in one channel: the cosine must not decide.
    query = "重写收费系统的那个项目"
    job = remember("用户是后端工程师，负责支付系统。")
    goal_text = "项目“青鸟”是计费系统重写，计划三月底上线，上线前要完成压测和灰度发布。"
    goal = remember(goal_text)
    remember(HIKING)
    floor = semantic(query, "用户是后端工程师，负责支付系统。") - 0.001
    assert semantic(query, goal_text) < floor
    channels = selectors.recall_channels(scope=scope, query=query, pool=10, min_score=floor)
    assert [h.id for h in channels[Channel.VECTOR]] == [job]
    assert [h.id for h in channels[Channel.KEYWORD]] == [goal]
    result = selectors.memory_search(scope=scope, query=query, min_score=floor)
    assert [i.id for i in evidence(result.items)] == [goal, job]


def test_a_name_counts_once_so_the_attribute_asked_for_decides(scope, remember):
    # Every Nimbus memory holds the word "nimbus" and is linked to the entity: one piece of
    # evidence, not two votes. Only the owner memory holds what is asked ("leads").
    texts = {
        "owner": "Liam Patel leads Nimbus; scope changes go through them before QA and ops "
        "hear about it.",
        "goal": "Project Nimbus is the cloud cost dashboard, due mid June; load tests and a "
        "staged rollout must finish first.",
        "stack": "Nimbus runs on React and BigQuery, deployed on the internal container platform.",
    }
    ids = {key: remember(text) for key, text in texts.items()}
    people = (
        "Olivia Turner",
        "James Wright",
        "Ava Lopez",
        "Ethan Clark",
        "Mia Walker",
        "Jack Scott",
    )
    projects = ("Sparrow", "Heron", "Osprey", "Condor", "Magpie", "Finch")
    for person, project in zip(people, projects, strict=True):
        remember(f"{person} leads {project}; scope changes go through them first.")
    for n in range(16):  # "leads" is in 7 of 25 memories, "nimbus" in 3
        remember(f"Retro notes of sprint {n} live in the team space.")
    query = "Who leads Nimbus?"
    floor = semantic(query, texts["stack"]) - 0.001  # the stack memory only just passes
    channels = selectors.recall_channels(scope=scope, query=query, pool=10, min_score=floor)
    assert ids["stack"] in {h.id for h in channels[Channel.VECTOR]}
    assert ids["owner"] not in {h.id for h in channels[Channel.VECTOR]}
    assert channels[Channel.KEYWORD][0].id == ids["owner"]
    result = selectors.memory_search(scope=scope, query=query, min_score=floor)
    assert result.items[0].id == ids["owner"]


# --- filters inside every channel, before the top-k cut -----------------------------------------
def test_category_filter_applies_before_the_top_k_cut(v1, scope, remember):
    for n in range(6):
        remember(f"“Atlas”第{n}期的验收标准已经确认。", category=Category.PROJECT)
    wanted = remember("“Atlas”的文档统一用简体中文写。", category=Category.PREFERENCE)
    assert search(v1, scope, "Atlas 验收标准", top_k=1)["items"][0]["id"] != wanted
    items = search(v1, scope, "Atlas 验收标准", top_k=1, category="preference")["items"]
    assert [i["id"] for i in items] == [wanted]
    assert items[0]["metadata"] == {"category": "preference", "match": "evidence"}


def test_every_channel_applies_source_and_time_filters(scope, agent, remember):
    old = datetime.now(UTC) - timedelta(days=400)
    remember("“Atlas”的旧预算审批流程。", created_at=old)
    recent = remember("“Atlas”的预算审批改由财务负责。", source=Source.CONSOLE)
    after = SearchFilters(created_after=datetime.now(UTC) - timedelta(days=30))
    channels = selectors.recall_channels(
        scope=scope, query="“Atlas”预算审批", pool=10, min_score=0.0, filters=after
    )
    for channel in Channel:
        assert [h.id for h in channels[channel]] == [recent], channel
    by_source = selectors.recall_channels(
        scope=scope,
        query="“Atlas”预算审批",
        pool=10,
        min_score=0.0,
        filters=SearchFilters(source=Source.MANAGE),
    )
    assert recent not in {h.id for hits in by_source.values() for h in hits}


def test_no_channel_crosses_the_scope(scope, other_scope, agent, facts):
    services.memory_add(scope=other_scope, text="王磊也负责“Atlas”的预算。", actor=agent)
    channels = selectors.recall_channels(scope=scope, query="王磊 Atlas 预算", pool=50)
    found = {h.id for hits in channels.values() for h in hits}
    assert found and found <= set(facts.values())


def test_search_filters_are_validated_at_the_edge(v1, scope):
    answer = v1.post("search", body(scope, query="Atlas", category="gossip"))
    assert answer.status_code == 400
    assert "category" in answer.content.decode()
    answer = v1.post("search", body(scope, query="Atlas", created_after="last tuesday"))
    assert answer.status_code == 400
    assert "created_after" in answer.content.decode()
