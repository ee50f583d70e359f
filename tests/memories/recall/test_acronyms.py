"""A question that spells out a work acronym finds the memory that abbreviates it.

Real PostgreSQL + pgvector, the bundled embedder and jieba/spaCy.  The defect reproduced: "How
big may a pull request be?" found nothing, though a memory says "单个 PR 不超过 400 行 diff":
the memory's cosine is under the vector floor, and the keyword channel knew "pull" and "request"
but not that a Chinese team writes them "PR".
"""

from __future__ import annotations

import pytest
from django.conf import settings

from memories import selectors
from memories.types import Channel
from tests.memories.conftest import added
from tests.memories.recall.test_search import evidence, semantic

pytestmark = pytest.mark.django_db

REVIEW = "Code review 的共识：单个 PR 不超过 400 行 diff，超过就拆分。"
SCAN = "下周三上午去医院做 CT 检查。"
TEA = "用户下午喜欢喝乌龙茶。"


@pytest.fixture
def facts(scope, agent) -> dict[str, str]:
    return added(scope, agent, REVIEW, SCAN, TEA)


def test_a_spelt_out_acronym_finds_the_memory_that_abbreviates_it(scope, facts):
    query = "How big may a pull request be?"
    assert semantic(query, REVIEW) < settings.SEARCH_MIN_SCORE  # the vector channel misses it
    channels = selectors.recall_channels(scope=scope, query=query, pool=10)
    assert [h.id for h in channels[Channel.KEYWORD]] == [facts[REVIEW]]
    items = selectors.memory_search(scope=scope, query=query).items
    assert [i.id for i in evidence(items)] == [facts[REVIEW]]


def test_initials_that_are_no_known_acronym_find_nothing(scope, facts):
    # "chat tool" has the initials of the CT scan: no evidence, no answer.
    channels = selectors.recall_channels(scope=scope, query="Which chat tool do we use?", pool=10)
    assert channels[Channel.KEYWORD] == []
    result = selectors.memory_search(scope=scope, query="Which chat tool do we use?")
    assert result.available and facts[SCAN] not in [i.id for i in result.items]


SPELT = "The team's rule: a pull request needs two approvals before it is merged."
TEA_EN = "The user drinks oolong tea in the afternoon."
MERGE = "The user merges the weekly notes into one document on Fridays."


def test_an_acronym_finds_the_memory_that_spells_it_out(scope, agent):
    """The other way round: the question writes "PR", the memory spells it out. "PR" was a word
    no memory held, so the memory matched only half the question (合并, "merged"), no more than
    any other memory about merging."""
    facts = added(scope, agent, SPELT, TEA_EN, MERGE)
    hits = selectors.recall_channels(scope=scope, query="PR 合并之前要做什么", pool=10)[
        Channel.KEYWORD
    ]
    assert [(h.id, h.strength) for h in hits][0] == (facts[SPELT], 1.0)
    assert all(h.strength < 1.0 for h in hits[1:])
