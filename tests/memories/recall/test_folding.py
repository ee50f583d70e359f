"""Names typed without their accents and questions in traditional characters (recall's keyword
and entity channels compare both folded: docs/retrieval.md, "Accents and traditional
characters"). Real PostgreSQL, the bundled embedder, jieba/spaCy tokens and the entity index.

The defects reproduced here: "Tomas" and "Charite" found nothing of the memories naming Tomás
and Charité, and 天樞項目的負責人是誰, 天樞 and 訂單中台項目誰在管 nothing of the simplified
memories they ask about.
"""

from __future__ import annotations

import pytest
from django.db import connection

from memories import selectors
from memories.language import nlp
from memories.types import Channel
from tests.memories.recall.conftest import apply_data_migration
from tests.memories.recall.test_search import evidence, search

pytestmark = pytest.mark.django_db

MANAGER = "User's manager is Tomás Alvarez."
DOCTOR = "User's daughter sees a pediatrician at Charité."
TIANSHU = "「天枢」项目的负责人是张伟，下个月上线。"
ORDERS = "订单中台项目由李娜负责，每周五发周报。"
OTHERS = (
    "User likes green tea in the afternoon.",
    "The team decided to use PostgreSQL as the main database.",
    "用户周末喜欢爬山。",
    "用户养了一只叫豆豆的猫。",
)


@pytest.fixture
def stored(remember) -> dict[str, str]:
    return {text: remember(text) for text in (MANAGER, DOCTOR, TIANSHU, ORDERS, *OTHERS)}


@pytest.mark.parametrize(
    ("query", "wanted"),
    [
        ("Tomas", MANAGER),
        ("Who is Tomas?", MANAGER),
        ("tomas alvarez", MANAGER),
        ("Tomás", MANAGER),
        ("Charite", DOCTOR),
        ("Charité", DOCTOR),
        ("“Charité”", DOCTOR),
    ],
)
def test_a_name_is_found_with_or_without_its_accents(v1, scope, stored, query, wanted):
    # In this small scope the vector and meaning channels alone find some of these: the name's
    # own channels must find it, as in a memory of hundreds.
    assert stored[wanted] in named(scope, query), query
    items = evidence(search(v1, scope, query)["items"])
    assert [i["id"] for i in items[:1]] == [stored[wanted]], query


def named(scope, query: str) -> set[str]:
    """The memories the keyword and entity channels find for ``query``."""
    channels = selectors.recall_channels(scope=scope, query=query, pool=10, min_score=1.0)
    return {h.id for c in (Channel.KEYWORD, Channel.ENTITY) for h in channels[c]}


def test_an_accented_entity_is_named_without_its_accents(scope, stored):
    channels = selectors.recall_channels(scope=scope, query="Charite", pool=10, min_score=1.0)
    assert [h.id for h in channels[Channel.ENTITY]] == [stored[DOCTOR]]
    assert [h.id for h in channels[Channel.KEYWORD]] == [stored[DOCTOR]]


@pytest.mark.parametrize(
    ("query", "wanted"),
    [
        ("天樞項目的負責人是誰", TIANSHU),
        ("天樞", TIANSHU),
        ("訂單中台項目誰在管", ORDERS),
        ("天枢项目的负责人是谁", TIANSHU),
    ],
)
def test_a_question_in_traditional_characters_finds_the_simplified_memory(
    v1, scope, stored, query, wanted
):
    assert stored[wanted] in named(scope, query), query
    items = evidence(search(v1, scope, query)["items"])
    assert [i["id"] for i in items[:1]] == [stored[wanted]], query


def test_a_traditional_name_is_the_simplified_entity(scope, stored):
    channels = selectors.recall_channels(scope=scope, query="天樞", pool=10, min_score=1.0)
    assert [h.id for h in channels[Channel.ENTITY]] == [stored[TIANSHU]]
    assert [h.id for h in channels[Channel.KEYWORD]] == [stored[TIANSHU]]


@pytest.mark.parametrize("query", ["天樞項目的負責人是誰", "天枢项目的负责人是谁", "天樞"])
def test_a_memory_in_traditional_characters_is_found_in_either_script(
    v1, scope, remember, stored, query
):
    wanted = remember("「天樞」項目由王芳負責，需求變更先找她。")
    assert wanted in named(scope, query), query
    items = evidence(search(v1, scope, query)["items"])
    # Its tokens are simplified words; its entity keeps the name as written (天樞), which a
    # simplified question does not name: the simplified 天枢 memory comes first then.
    assert wanted in [i["id"] for i in items], query


def test_the_entity_name_column_is_folded_like_the_query(scope, stored):
    with connection.cursor() as cur:
        cur.execute(
            "SELECT payload->>'data', recall_name FROM poco_memories_entities "
            "WHERE recall_scope = %s",
            [scope.key],
        )
        rows = cur.fetchall()
    assert rows
    for data, recall_name in rows:
        assert recall_name == nlp.recall_name(data), data
    assert {"tomas alvarez", "charite"} <= {name for _, name in rows}


@pytest.mark.django_db(transaction=True)  # Mem0's own connections must see the rewritten rows
def test_keywords_stored_before_are_folded(scope, remember):
    doctor = remember(DOCTOR)
    tianshu = remember("「天樞」項目由王芳負責，需求變更先找她。")
    with connection.cursor() as cur:  # as rows were before: tokens as typed, jieba on 天樞項目
        cur.execute(
            "UPDATE poco_memories SET payload = jsonb_set(payload, '{text_lemmatized}', "
            "to_jsonb(CASE WHEN id = %s THEN 'user daughter see pediatrician charité' "
            "ELSE '天樞項 目的 王芳 負責 需求 變更 先找' END)) WHERE id IN (%s, %s)",
            [doctor, doctor, tianshu],
        )

    def keyword(query: str) -> list[str]:
        channels = selectors.recall_channels(scope=scope, query=query, pool=10, min_score=1.0)
        return [h.id for h in channels[Channel.KEYWORD]]

    assert keyword("Charite") == [] and keyword("天枢") == []
    apply_data_migration("0021_folded_names_and_keywords", "fold_stored_keywords")
    assert keyword("Charite") == [doctor]
    assert keyword("天枢") == [tianshu]
    with connection.cursor() as cur:  # the counts the keyword channel weighs terms by follow
        cur.execute(
            "SELECT term FROM poco_memories_term_df WHERE scope_key = %s AND term IN "
            "('charité', 'charite', '天樞項', '天枢')",
            [scope.key],
        )
        assert sorted(term for (term,) in cur.fetchall()) == ["charite", "天枢"]
