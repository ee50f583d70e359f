"""Cross-language keyword recall through the CC-CEDICT lexicon.

Real PostgreSQL + pgvector, the bundled embedder and jieba/spaCy.  The defect reproduced: the
bundled embedder puts a Chinese question and its English memory (or the reverse) under the
vector floor, and the keyword channel could not match a word to its translation, so the memory
was not found at all.  The vector floor stays the default; off-topic questions still answer
nothing.
"""

from __future__ import annotations

import pytest
from django.conf import settings

from memories import selectors, services
from memories.ops.calibration import OFF_TOPIC_QUESTIONS, POSITIVE_PAIRS, UNRELATED_FACTS
from memories.services import NewMemory
from memories.types import Channel
from tests.memories.conftest import added
from tests.memories.recall.test_search import evidence, semantic

pytestmark = pytest.mark.django_db

PASSPORT = "User keeps the passport in the desk drawer."
INVOICES = "发票每周五交给财务。"
HIKING = "用户周末喜欢爬山。"
TEA = "User likes green tea in the afternoon."


@pytest.fixture
def facts(scope, agent) -> dict[str, str]:
    return added(scope, agent, PASSPORT, INVOICES, HIKING, TEA)


@pytest.mark.parametrize(
    ("query", "memory"),
    [("抽屉里有什么", PASSPORT), ("Where do invoices go?", INVOICES)],
    ids=["zh-finds-en", "en-finds-zh"],
)
def test_a_query_finds_a_memory_in_the_other_language_by_keyword_only(scope, facts, query, memory):
    assert semantic(query, memory) < settings.SEARCH_MIN_SCORE  # the vector channel misses it
    channels = selectors.recall_channels(scope=scope, query=query, pool=10)
    assert facts[memory] not in [h.id for h in channels[Channel.VECTOR]]
    assert [h.id for h in channels[Channel.KEYWORD]] == [facts[memory]]
    items = selectors.memory_search(scope=scope, query=query).items
    assert [i.id for i in evidence(items)] == [facts[memory]]


def test_without_a_translation_in_the_memory_nothing_is_found(scope, facts):
    # 天气 translates to "weather"; no memory holds it or 天气: no evidence, no answer.
    result = selectors.memory_search(scope=scope, query="明天天气怎么样")
    assert result.available and result.items == ()


def test_a_translation_that_is_a_name_in_the_scope_is_not_a_translation_there(scope, agent):
    """CC-CEDICT glosses 笑话 "joke; jest" and 铁锈 "rust": in a scope where Jest and Rust are
    tools the user named, a joke is not a test runner (the relevance set's "给我讲个笑话" was
    answered with the Jest memory). A name asked by its own name is still found, and so is a
    translation that names nothing of the scope (the passport in the drawer, above)."""
    jest = "团队决定下个季度把 Jest 换成 Vitest"
    facts = added(scope, agent, jest, "User writes internal tooling in Rust.", HIKING, TEA)
    for query in ("给我讲个笑话", "铁锈怎么去除"):
        channels = selectors.recall_channels(scope=scope, query=query, pool=10)
        assert channels[Channel.KEYWORD] == [], query
        assert selectors.memory_search(scope=scope, query=query).items == (), query
    named = selectors.recall_channels(scope=scope, query="Jest 要换成什么", pool=10)
    assert [h.id for h in named[Channel.KEYWORD]] == [facts[jest]]


def test_off_topic_questions_still_answer_nothing_on_the_calibration_memory(scope, agent):
    """The calibration's personal memory (every positive pair's memory and the unrelated facts)
    and its 40 off-topic questions: translations give none of them keyword evidence, and a
    named handful whose words all have translations answers nothing at all."""
    texts = list(dict.fromkeys([memory for _, memory in POSITIVE_PAIRS] + list(UNRELATED_FACTS)))
    outcomes = services.memory_add_many(
        scope=scope, items=[NewMemory(text=t) for t in texts], actor=agent
    )
    assert all(o.memory_id for o in outcomes)
    for question in OFF_TOPIC_QUESTIONS:
        channels = selectors.recall_channels(scope=scope, query=question, pool=10)
        assert channels[Channel.KEYWORD] == [], question
    for question in (
        "感冒了吃什么药好",
        "多肉植物多久浇一次水",
        "What causes the northern lights?",
        "How do solar panels work?",
        "Tips for a job interview",
    ):
        result = selectors.memory_search(scope=scope, query=question)
        assert result.available and result.items == (), question
