"""Related memories: once an answer has evidence, the second model's nearest memories under its
floor (at or over the floor of related memories) fill it up to ``top_k``, after the evidence and
scored below it; a question with no evidence still answers nothing."""

from __future__ import annotations

import math

import pytest
from django.conf import settings

from memories import services
from memories.context import one_line
from memories.engine import second
from memories.recall.fusion import fuse
from memories.recall.tuning import RELATED_MARGIN
from memories.types import Channel, ChannelHit
from tests.memories.conftest import body
from tests.memories.recall.test_search import FACTS, evidence, search


@pytest.fixture
def facts(db, scope, agent) -> dict[str, str]:
    return {
        name: services.memory_add(scope=scope, text=text, actor=agent).memory_id or ""
        for name, text in FACTS.items()
    }


def hit(channel: Channel, memory_id: str, strength: float, *, under: bool = False) -> ChannelHit:
    return ChannelHit(
        channel=channel,
        id=memory_id,
        content=memory_id,
        category="fact",
        strength=strength,
        similarity=0.1,
        margin=0.0 if under else 0.5,
        names_only=False,
        under_floor=under,
    )


def near(*ids: str) -> list[ChannelHit]:
    return [hit(Channel.MEANING, i, 0.86 - n / 100, under=True) for n, i in enumerate(ids)]


def test_related_memories_follow_the_evidence_scored_below_it():
    channels = {
        Channel.VECTOR: [],
        Channel.KEYWORD: [hit(Channel.KEYWORD, "a", 0.9), hit(Channel.KEYWORD, "b", 0.6)],
        Channel.ENTITY: [],
        Channel.MEANING: near("c", "a", "d", "e"),
    }
    hits = fuse(channels, top_k=4)
    assert [h.id for h in hits] == ["a", "b", "c", "d"]  # "a" is evidence already: counted once
    assert [h.related for h in hits] == [False, False, True, True]
    scores = [h.score for h in hits]
    assert scores == sorted(scores, reverse=True) and scores[2] < scores[1]
    assert all(h.score > 0 for h in hits)


def test_no_evidence_no_related_memories():
    channels = {c: [] for c in Channel} | {Channel.MEANING: near("a", "b")}
    assert fuse(channels, top_k=5) == ()


def test_related_memories_only_fill_the_places_left():
    channels = {c: [] for c in Channel} | {
        Channel.VECTOR: [hit(Channel.VECTOR, m, 0.5 - n / 100) for n, m in enumerate("abc")],
        Channel.MEANING: near("x", "y"),
    }
    assert [h.id for h in fuse(channels, top_k=3)] == ["a", "b", "c"]
    assert [h.id for h in fuse(channels, top_k=4)] == ["a", "b", "c", "x"]
    # Without the meaning channel asked (the second model off for this search): none.
    asked = (Channel.VECTOR, Channel.KEYWORD, Channel.ENTITY)
    assert [h.id for h in fuse(channels, top_k=5, use=asked)] == ["a", "b", "c"]


def test_related_memories_stay_within_the_margin_of_the_nearest():
    channels = {c: [] for c in Channel} | {
        Channel.KEYWORD: [hit(Channel.KEYWORD, "a", 0.9)],
        Channel.MEANING: [
            hit(Channel.MEANING, "a", 0.92),
            hit(Channel.MEANING, "b", 0.86, under=True),
            hit(Channel.MEANING, "c", 0.85, under=True),
        ],
    }
    assert 0.92 - RELATED_MARGIN > 0.86
    assert [h.id for h in fuse(channels, top_k=5)] == ["a"]
    closer = [hit(Channel.MEANING, "a", 0.90)] + [
        hit(Channel.MEANING, i, s, under=True) for i, s in (("b", 0.86), ("c", 0.84))
    ]
    assert 0.86 >= 0.90 - RELATED_MARGIN > 0.84
    assert [h.id for h in fuse(channels | {Channel.MEANING: closer}, top_k=5)] == ["a", "b"]


def cosine_to(query: str, text: str) -> float:
    model = second.configured()
    assert model is not None
    [question], [memory] = model.queries([query]), model.passages([text])
    return sum(a * b for a, b in zip(question, memory, strict=True)) / math.sqrt(
        sum(a * a for a in question) * sum(b * b for b in memory)
    )


# Names two of the user's projects' facts (Poco, 林清), and is near in meaning to others.
WEEKLY_REPORT = "帮我给 Poco 项目写周报发给林清"


def test_a_searchs_related_memories_are_near_in_meaning_and_marked(v1, scope, facts):
    """On the real stack: after the evidence, every related memory is one whose second-model
    cosine to the question lies between the two floors, within the margin of the nearest
    memory's; /v1 marks each item's match."""
    items = search(v1, scope, WEEKLY_REPORT)["items"]
    assert {i["id"] for i in evidence(items)} == {facts["poco"], facts["linqing"]}
    related = [i for i in items if i["metadata"]["match"] == "related"]
    assert related, "the bundled e5 puts some of this user's facts near the question"
    assert items[: len(items) - len(related)] == evidence(items)  # evidence first
    nearest = max(cosine_to(WEEKLY_REPORT, text) for text in FACTS.values())
    for item in related:
        cos = cosine_to(WEEKLY_REPORT, item["content"])
        low, high = settings.SECOND_MODEL_RELATED_MIN_SCORE, settings.SECOND_MODEL_MIN_SCORE
        assert low - 0.01 <= cos < high + 0.01, (item["content"], cos)
        assert cos >= nearest - RELATED_MARGIN - 0.01, (item["content"], cos, nearest)
        assert item["score"] < items[0]["score"]
    assert {i["content"] for i in items} <= set(FACTS.values())  # stored as typed


def test_facts_far_less_near_than_the_answer_do_not_follow_it(v1, scope, facts):
    """In a small scope e5 puts every short fact near any question (the cat at 0.84 to a
    question about Poco's technical plan, whose own fact is at 0.92): none of them is related."""
    items = search(v1, scope, "Poco 项目的技术方案")["items"]
    assert [i["id"] for i in items] == [facts["poco"]]
    assert items[0]["metadata"]["match"] == "evidence"


def test_an_off_topic_question_still_answers_nothing(v1, scope, facts):
    assert search(v1, scope, "明天北京会下雨吗")["items"] == []
    assert search(v1, scope, "What's the capital of Peru?")["items"] == []


def test_the_context_injects_evidence_never_a_related_memory(v1, scope, facts):
    asked = WEEKLY_REPORT
    items = search(v1, scope, asked)["items"]
    found = evidence(items)
    assert found and len(found) < len(items)  # related memories follow the evidence
    context = v1.post("context", body(scope, input=asked, run_kind="chat")).json()
    assert context["available"] is True
    assert context["injected_count"] == len(found)
    for item in items:
        assert (one_line(item["content"]) in context["text"]) == (item in found)
