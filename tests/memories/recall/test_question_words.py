"""A Chinese question's own question words are no keywords, as an English one's are not ("how",
"which", "when" are stop words): "瑜伽课几点开始" asks about yoga, not about 几点.

Real PostgreSQL + pgvector, the bundled embedders and jieba/spaCy.  The defect reproduced: 几点,
哪个 and 多少 counted as terms no memory held, each as heavy as the rarest word found, so a memory
in the other language that matched what the question is about held a third of its weight, under
the keyword channel's half. So did a pronoun jieba glues to the verb after it ("我住" of
"我住哪个小区"), a word of no dictionary.
"""

from __future__ import annotations

import pytest

from memories import selectors
from memories.language import nlp
from memories.types import Channel
from tests.memories.conftest import added

pytestmark = pytest.mark.django_db

YOGA = "The user's yoga class is on Tuesday evenings."
HOME = "The user lives in a residential compound called Green Garden."
TEA = "用户下午喜欢喝乌龙茶。"


@pytest.mark.parametrize(("query", "wanted"), [("瑜伽课几点开始", YOGA), ("我住哪个小区", HOME)])
def test_a_question_word_is_no_keyword(scope, agent, query, wanted):
    facts = added(scope, agent, YOGA, HOME, TEA)
    channels = selectors.recall_channels(scope=scope, query=query, pool=10)
    assert [h.id for h in channels[Channel.KEYWORD]] == [facts[wanted]]


@pytest.mark.parametrize(
    ("query", "terms"),
    [
        ("我住哪个小区", ["小区"]),
        ("我开的是什么车", []),
        ("房租每个月多少钱", ["房租"]),
        # A count is no keyword either ("once", "three" are stop words); a duration is one.
        ("我多久值一次班", ["值班"]),
        ("我每周跑三次步", ["每周", "跑步"]),
        ("我请了三天假", ["三天", "请假"]),
        # Words of the dictionary stay: 我国 is a word, 几年级 asks for a grade (年级).
        ("我国的首都", ["我国", "首都"]),
        ("女儿几年级", ["女儿", "年级", "几年级"]),
        ("周末一般干什么", ["周末", "一般"]),
    ],
)
def test_the_terms_of_a_question(query, terms):
    assert nlp.query_terms(query) == terms
