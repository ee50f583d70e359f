"""A day of the week joins the two languages: "What do I do on Thursday evenings?" finds "用户每
周四晚上去上吉他课", and "周三我一般做什么" finds "The user swims on Wednesday mornings".

Real PostgreSQL + pgvector, the bundled embedders and jieba/spaCy.  The defects reproduced:
CC-CEDICT writes a weekday's pinyin capitalised (星期三 [Xing1 qi1 san1] "Wednesday"), as it does
a name's, so the dictionary took it for a proper name and "wednesday" had no translation; spaCy
reads "Wednesday" in a memory as an entity, and a translation that names one was dropped; and
jieba cut 每周四 as 每周 / 四, so the memory held no day at all.
"""

from __future__ import annotations

import pytest
from django.db import connection

from memories import selectors
from memories.language import lexicon
from memories.types import Channel
from tests.memories.conftest import added
from tests.memories.recall.conftest import apply_data_migration

pytestmark = pytest.mark.django_db

GUITAR = "用户每周四晚上去上吉他课。"
SWIM = "The user swims on Wednesday mornings."
TEA = "用户下午喜欢喝乌龙茶。"
RUN = "The user runs along the river most days."


@pytest.fixture
def facts(scope, agent) -> dict[str, str]:
    return added(scope, agent, GUITAR, SWIM, TEA, RUN)


@pytest.mark.parametrize(
    ("query", "wanted"),
    [("What do I do on Thursdays?", GUITAR), ("周三我一般做什么", SWIM)],
)
def test_a_weekday_finds_its_memory_in_the_other_language(scope, facts, query, wanted):
    channels = selectors.recall_channels(scope=scope, query=query, pool=10)
    assert [h.id for h in channels[Channel.KEYWORD]] == [facts[wanted]]


def test_a_weekday_is_translated_both_ways():
    known = lexicon.get()
    assert "周三" in known.translations("wednesday")
    assert known.translations("星期天") == ("sunday",)
    assert "周末" in known.translations("weekend")


@pytest.mark.django_db(transaction=True)  # Mem0's own connections must see the rewritten rows
def test_memories_stored_before_keep_their_weekly_day(scope, remember):
    """A memory stored before jieba knew 每周四 kept 每周 alone; the migration cuts it again."""
    guitar = remember(GUITAR)
    with connection.cursor() as cur:  # as the row was before: 每周 / 四
        cur.execute(
            "UPDATE poco_memories SET payload = jsonb_set(payload, '{text_lemmatized}', "
            "to_jsonb('用户 每周 晚上 吉他'::text)) WHERE id = %s",
            [guitar],
        )

    def keyword(query: str) -> list[str]:
        channels = selectors.recall_channels(scope=scope, query=query, pool=10)
        return [h.id for h in channels[Channel.KEYWORD]]

    assert keyword("What do I do on Thursdays?") == []
    apply_data_migration("0024_weekly_day_keywords", "weekly_day_keywords")
    assert keyword("What do I do on Thursdays?") == [guitar]
