"""Words a question splits or spaCy drops still find their memory: "我多久值一次班" finds "User
is on call every fourth week." (``nlp.lemmatize_for_bm25``).

Real PostgreSQL + pgvector, the bundled embedders and jieba/spaCy.  The defects reproduced
(issue 44, the cross-language kind of `make eval`): jieba cuts 值一次班 as 值 / 一次 / 班 and single
characters are no keywords, so the question held no verb; spaCy drops "on" and "call" as stop
words, so the memory held "user fourth week" and 值班's phrasing "on call" had nothing to match.
"""

from __future__ import annotations

import pytest
from django.db import connection

from memories import selectors
from memories.types import Channel
from tests.memories.conftest import added
from tests.memories.recall.conftest import apply_data_migration

pytestmark = pytest.mark.django_db

ON_CALL = "User is on call every fourth week."
SWIM = "用户每周游两次泳，在公司楼下的健身房。"
CALLS = "The user calls their mother every Sunday evening."
OTHERS = (
    "用户下午喜欢喝乌龙茶。",
    "The user runs along the river most days.",
    "用户养了一只叫豆豆的猫。",
    "The user's team ships a release every second Thursday.",
)


@pytest.fixture
def facts(scope, agent) -> dict[str, str]:
    return added(scope, agent, ON_CALL, SWIM, CALLS, *OTHERS)


def keyword(scope, query: str) -> list[str]:
    channels = selectors.recall_channels(scope=scope, query=query, pool=10)
    return [h.id for h in channels[Channel.KEYWORD]]


@pytest.mark.parametrize(
    ("query", "wanted"),
    [
        ("我多久值一次班", ON_CALL),
        ("我值班的频率是多少", ON_CALL),
        ("How often do I go swimming?", SWIM),
    ],
)
def test_a_split_or_dropped_word_finds_its_memory(scope, facts, query, wanted):
    assert keyword(scope, query)[:1] == [facts[wanted]]


def test_the_words_of_on_call_alone_match_nothing(scope, facts):
    # "call" of "calls their mother" is no "on call"; "on" and "call" alone are no terms.
    assert facts[CALLS] not in keyword(scope, "我多久值一次班")
    assert keyword(scope, "Who should I call on Friday?") == []


@pytest.mark.django_db(transaction=True)  # Mem0's own connections must see the rewritten rows
def test_memories_stored_before_get_their_words_back(scope, remember):
    on_call = remember(ON_CALL)
    with connection.cursor() as cur:  # as the row was before: "on call" dropped
        cur.execute(
            "UPDATE poco_memories SET payload = jsonb_set(payload, '{text_lemmatized}', "
            "to_jsonb('user fourth week'::text)) WHERE id = %s",
            [on_call],
        )
    assert keyword(scope, "我多久值一次班") == []
    apply_data_migration(
        "0025_light_verbs_stop_phrases_and_separated_verbs",
        "light_verbs_stop_phrases_and_separated_verbs",
    )
    assert keyword(scope, "我多久值一次班") == [on_call]
