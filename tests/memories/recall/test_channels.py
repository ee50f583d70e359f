"""Recall's channels: names, pinyin, attribute words and names inside longer names, through /v1
and the selectors (typing slips: ``test_slips``; floors, fusion and filters: ``test_evidence``).

Real PostgreSQL + pgvector, the bundled embedder, jieba/spaCy tokens and the entity index. The
defects reproduced here: a short name whose vector score is under the floor was never found
(every candidate came from the vector search), a keyword hit lowered every score (Mem0's
divisor), filters were applied after the top-k cut, and a query had to contain all the words of
a memory before the keyword signal counted.
"""

from __future__ import annotations

import pytest
from django.conf import settings
from django.db import connection

from memories import selectors
from memories.language import nlp
from memories.types import Channel
from tests.memories.recall.conftest import (
    ATLAS,
    KESTREL,
    KESTREL_PROJECT,
    apply_data_migration,
)
from tests.memories.recall.test_search import evidence, search, semantic

pytestmark = pytest.mark.django_db


# --- channels add candidates the vector floor would drop -----------------------------------------
def test_short_name_under_the_vector_floor_is_found_by_name(v1, scope, facts):
    assert semantic("王磊", ATLAS) < settings.SEARCH_MIN_SCORE  # the vector channel alone misses
    items = search(v1, scope, "王磊")["items"]
    assert [i["id"] for i in evidence(items)] == [facts[ATLAS]]


def test_name_in_a_longer_query_is_found(v1, scope, facts):
    items = search(v1, scope, "王磊负责哪个项目")["items"]
    assert items and items[0]["id"] == facts[ATLAS]


def test_mixed_chinese_english_query_finds_the_english_memory(v1, scope, facts):
    items = search(v1, scope, "Kestrel 是什么项目")["items"]
    assert items and items[0]["id"] == facts[KESTREL]


@pytest.mark.parametrize("query", ["ATLAS", "Ａｔｌａｓ", "“Atlas”", "atlas"])
def test_entity_matches_normalised_forms_of_a_name(scope, facts, query):
    channels = selectors.recall_channels(scope=scope, query=query, pool=10, min_score=1.0)
    assert [h.id for h in channels[Channel.ENTITY]] == [facts[ATLAS]]
    assert channels[Channel.VECTOR] == []  # a floor of 1.0: only names can have found it


def test_a_quoted_chinese_name_always_counts(scope, remember):
    # jieba does not tag 豆包 as a name and nothing links it as an entity; quotes make it one.
    memory_id = remember("周报发给豆包审阅。")
    channels = selectors.recall_channels(scope=scope, query="“豆包”", pool=10, min_score=1.0)
    assert [h.id for h in channels[Channel.ENTITY]] == [memory_id]


def test_any_query_word_is_keyword_evidence_not_only_all_of_them(scope, facts):
    channels = selectors.recall_channels(
        scope=scope, query="billing rewrite schedule", pool=10, min_score=1.0
    )
    assert [h.id for h in channels[Channel.KEYWORD]] == [facts[KESTREL]]


# --- pinyin: a Chinese name written in Latin letters ---------------------------------------------
QINGNIAO = "“青鸟”的负责人是王磊，需求变更要先和他确认。"


@pytest.mark.parametrize("query", ["Who owns Qingniao?", "qing niao owner", "QINGNIAO", "Wang Lei"])
def test_a_chinese_name_written_in_pinyin_is_entity_evidence(scope, remember, facts, query):
    wanted = remember(QINGNIAO)
    channels = selectors.recall_channels(scope=scope, query=query, pool=10, min_score=1.0)
    assert wanted in [h.id for h in channels[Channel.ENTITY]]
    result = selectors.memory_search(scope=scope, query=query)
    # "Wang Lei" names two memories alike (this one and Atlas's owner): either may come first.
    named = 2 if query == "Wang Lei" else 1
    assert wanted in [h.id for h in result.items[:named]]


# jieba joins a name to the noun before it: this memory's entity is 项目青鸟 ("project Qingniao"),
# no entity is 青鸟 alone, and "Qingniao" spells no reading of the whole.
QINGNIAO_PROJECT = "用户的项目青鸟使用 Go 和 React，计划明年三月上线。"


@pytest.mark.parametrize(
    "query",
    [
        "Qingniao",
        "What stack does the Qingniao project use?",
        "What is the Qingniao launch date?",
        "Qingniao project",
        "When does Qingniao launch?",
    ],
)
def test_pinyin_names_a_word_of_a_longer_chinese_name(scope, remember, facts, query):
    wanted = remember(QINGNIAO_PROJECT, category="project")
    channels = selectors.recall_channels(scope=scope, query=query, pool=10, min_score=1.0)
    assert [h.id for h in channels[Channel.ENTITY]] == [wanted]
    result = selectors.memory_search(scope=scope, query=query)
    assert [h.id for h in result.items[:1]] == [wanted]


def test_pinyin_must_spell_the_whole_name(scope, remember):
    remember(QINGNIAO)
    for query in ("qing", "niao", "qingniaos", "Qingdao"):
        channels = selectors.recall_channels(scope=scope, query=query, pool=10, min_score=1.0)
        assert channels[Channel.ENTITY] == [], query


@pytest.mark.parametrize(
    ("memory", "query"),
    [
        ("项目“太行”的技术栈是 Vue，部署在内部容器平台上。", "What tech stack does Taihang use?"),
        ("“青鸟”的负责人是曾琳，需求变更要先和她确认。", "Zeng Lin"),
    ],
)
def test_a_name_whose_characters_read_several_ways_is_found_by_the_reading_people_write(
    scope, remember, memory, query
):
    # pypinyin reads 太行 as "taixing" and the surname 曾 as "ceng"; people write Taihang, Zeng.
    wanted = remember(memory)
    channels = selectors.recall_channels(scope=scope, query=query, pool=10, min_score=1.0)
    assert [h.id for h in channels[Channel.ENTITY]] == [wanted]


@pytest.mark.django_db(transaction=True)  # Mem0's own connections must see the rewritten rows
def test_pinyin_readings_of_entities_stored_before_are_filled_in(scope, remember):
    wanted = remember(QINGNIAO)
    taihang = remember("项目“太行”的技术栈是 Vue。")
    with connection.cursor() as cur:
        # As rows were before: none (older than 0007), or 0007's one reading, a string.
        cur.execute("UPDATE poco_memories_entities SET payload = payload - 'pinyin'")
        cur.execute(
            'UPDATE poco_memories_entities SET payload = payload || \'{"pinyin": "taixing"}\' '
            "WHERE payload->>'data' = '太行'"
        )
    for query in ("Who owns Qingniao?", "Taihang"):
        channels = selectors.recall_channels(scope=scope, query=query, pool=10, min_score=1.0)
        assert channels[Channel.ENTITY] == [], query
    apply_data_migration("0011_entity_pinyin_readings", "store_readings")
    for query, memory in (("Who owns Qingniao?", wanted), ("Taihang", taihang)):
        channels = selectors.recall_channels(scope=scope, query=query, pool=10, min_score=1.0)
        assert memory in [h.id for h in channels[Channel.ENTITY]], query


@pytest.mark.django_db(transaction=True)  # Mem0's own connections must see the rewritten rows
def test_word_readings_of_entities_stored_before_are_filled_in(scope, remember):
    wanted = remember(QINGNIAO_PROJECT)
    with connection.cursor() as cur:  # as rows were before: the whole name's readings alone
        cur.execute(
            "UPDATE poco_memories_entities SET payload = payload || "
            "jsonb_build_object('pinyin', '[\"xiangmuqingniao\"]'::jsonb) "
            "WHERE payload->>'data' = '项目青鸟'"
        )
    channels = selectors.recall_channels(scope=scope, query="Qingniao", pool=10, min_score=1.0)
    assert channels[Channel.ENTITY] == []
    apply_data_migration("0020_entity_word_pinyin", "store_word_readings")
    channels = selectors.recall_channels(scope=scope, query="Qingniao", pool=10, min_score=1.0)
    assert [h.id for h in channels[Channel.ENTITY]] == [wanted]


def test_the_entity_columns_recall_reads_say_what_the_payload_says(scope, remember):
    """The entity channel reads scope, name and pinyin from generated columns (migration 0017),
    so that matching never detoasts a payload and its links; they must follow the payload."""
    remember(QINGNIAO)
    remember("The Ｋｅｓｔｒｅｌ   Project ships in May.")
    with connection.cursor() as cur:
        cur.execute(
            "SELECT payload->>'data', recall_scope, recall_name,"
            " recall_pinyin IS NOT DISTINCT FROM payload->'pinyin', recall_pinyin ? 'qingniao' "
            "FROM poco_memories_entities WHERE payload->>'user_id' = %s",
            [scope.key],
        )
        rows = cur.fetchall()
    assert rows
    for data, recall_scope, recall_name, same_pinyin, _ in rows:
        assert recall_scope == scope.key
        assert recall_name == nlp.recall_name(data)  # NFKC, lower case, accents folded
        assert same_pinyin
    assert "kestrel" in {name for _, _, name, _, _ in rows}  # from full-width letters
    assert any(qingniao for *_, qingniao in rows)


# --- attribute words: the name finds the project, the attribute picks the memory -----------------
HERON = {
    "goal": "Project Heron is the warehouse scanner app; the rollout starts in May.",
    "owner": "Grace Liu leads Heron and signs off every scope change.",
    "stack": "The Heron tech stack is Kotlin and SQLite.",
}


@pytest.mark.parametrize(
    ("query", "wanted"),
    [("Heron 的负责人是谁", "owner"), ("Heron 什么时候上线", "goal"), ("Heron 的技术栈", "stack")],
)
def test_an_attribute_word_matches_its_attribute_in_the_other_language(
    scope, remember, query, wanted
):
    ids = {key: remember(text) for key, text in HERON.items()}
    keyword = selectors.recall_channels(scope=scope, query=query, pool=10, min_score=1.0)[
        Channel.KEYWORD
    ]
    assert keyword and keyword[0].id == ids[wanted]
    assert all(hit.strength < keyword[0].strength for hit in keyword[1:])


def test_attribute_words_alone_are_not_evidence_for_unrelated_memories(scope, facts):
    channels = selectors.recall_channels(
        scope=scope, query="Zebra 的负责人是谁", pool=10, min_score=1.0
    )
    assert channels[Channel.KEYWORD] == []


# --- a name inside a longer entity name, and "due" -----------------------------------------------
def test_a_name_inside_a_longer_entity_name_is_the_same_name(scope, remember):
    # spaCy links the goal to "Project Kestrel", the others to "Kestrel".
    ids = {key: remember(text) for key, text in KESTREL_PROJECT.items()}
    entity = selectors.recall_channels(scope=scope, query="Kestrel", pool=10, min_score=1.0)[
        Channel.ENTITY
    ]
    assert {h.id for h in entity} == set(ids.values())
    assert len({h.strength for h in entity}) == 1  # one name: every memory of it weighs the same


def test_a_word_of_a_longer_name_counts_only_when_it_is_a_name_itself(scope, remember):
    remember(KESTREL_PROJECT["goal"])  # "project" is no entity of the scope
    entity = selectors.recall_channels(scope=scope, query="project", pool=10, min_score=1.0)[
        Channel.ENTITY
    ]
    assert entity == []


def test_a_name_with_symbols_is_not_looked_for_inside_longer_names(scope, remember):
    # The text parser reads "C++" as the word "c": "Objective C." must not be C++.
    cpp = remember("The engine is written in C++.")
    remember("Legacy tools use Objective C.")
    entity = selectors.recall_channels(scope=scope, query="C++", pool=10, min_score=1.0)[
        Channel.ENTITY
    ]
    assert [h.id for h in entity] == [cpp]


def test_when_is_it_due_finds_the_memory_that_says_when(v1, scope, remember):
    ids = {key: remember(text) for key, text in KESTREL_PROJECT.items()}
    items = search(v1, scope, "When is Kestrel due?")["items"]
    assert items and items[0]["id"] == ids["goal"]
