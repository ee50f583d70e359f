"""Related memories: once an answer has evidence, the memories no channel found over its floor
take part in its order through each model's own ranking (``memories.recall.fusion``) and fill it
up to ``top_k``, marked ``related``; a question with no evidence still answers nothing.  The
order itself: tests/memories/recall/test_order.py."""

from __future__ import annotations

import math

import pytest
from django.conf import settings

from memories import services
from memories.context import one_line
from memories.engine import second
from tests.memories.conftest import body
from tests.memories.recall.test_search import FACTS, evidence, search


@pytest.fixture
def facts(db, scope, agent) -> dict[str, str]:
    return {
        name: services.memory_add(scope=scope, text=text, actor=agent).memory_id or ""
        for name, text in FACTS.items()
    }


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
    """On the real stack: the evidence is marked so, every other item is related and one of the
    nearest memories by meaning; /v1 marks each item's match and scores fall down the list."""
    items = search(v1, scope, WEEKLY_REPORT)["items"]
    assert {i["id"] for i in evidence(items)} == {facts["poco"], facts["linqing"]}
    related = [i for i in items if i["metadata"]["match"] == "related"]
    assert related, "the bundled e5 puts some of this user's facts near the question"
    assert len(items) == settings.SEARCH_TOP_K  # filled from the order
    # The nearest fact by meaning that is not evidence takes a place in the answer.
    others = [t for n, t in FACTS.items() if n not in ("poco", "linqing")]
    nearest = max(others, key=lambda text: cosine_to(WEEKLY_REPORT, text))
    assert nearest in {i["content"] for i in related}
    scores = [i["score"] for i in items]
    assert scores == sorted(scores, reverse=True)
    assert {i["content"] for i in items} <= set(FACTS.values())  # stored as typed


def test_the_answer_with_one_piece_of_evidence_puts_it_first(v1, scope, facts):
    """In a small scope every short fact is near any question: the one that answers it is
    evidence and first, the others follow it as related."""
    items = search(v1, scope, "Poco 项目的技术方案")["items"]
    assert items[0]["id"] == facts["poco"]
    assert [i["metadata"]["match"] for i in items] == ["evidence"] + ["related"] * (len(items) - 1)


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
