"""Typing slips in names and ordinary words: a word no memory holds and no dictionary knows
stands for the held words one slip away; a dictionary word never does."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.db import connection

from infra.db import BoundedConnection
from memories import selectors
from memories.types import Channel
from tests.memories.recall.conftest import (
    KESTREL_PROJECT,
    TEA,
    apply_data_migration,
)
from tests.memories.recall.test_search import search, semantic

pytestmark = pytest.mark.django_db


def test_a_misspelt_word_no_memory_holds_is_read_as_the_word_it_slipped_from(v1, scope, remember):
    # "kestral" is in no memory and no dictionary; "kestrel", one slip away, is in three.
    ids = {key: remember(text) for key, text in KESTREL_PROJECT.items()}
    keyword = selectors.recall_channels(
        scope=scope, query="When is Kestral due?", pool=10, min_score=1.0
    )[Channel.KEYWORD]
    assert keyword and keyword[0].id == ids["goal"] and keyword[0].strength == 1.0
    items = search(v1, scope, "When is Kestral due?")["items"]
    assert items and items[0]["id"] == ids["goal"]


def test_an_ordinary_misspelt_word_is_read_as_the_word_it_slipped_from(scope, facts):
    keyword = selectors.recall_channels(
        scope=scope, query="green tea in the afternon", pool=10, min_score=1.0
    )[Channel.KEYWORD]
    assert [h.id for h in keyword] == [facts[TEA]]


@pytest.mark.parametrize(
    "query",
    [
        "x" * 1500,  # one word as long as the query limit allows
        # many long words no dictionary knows, each with its own letters
        " ".join("".join(chr(97 + (w * 7 + i * 3) % 26) for i in range(24)) for w in range(80)),
    ],
    ids=["one long word", "eighty long words"],
)
def test_a_query_of_long_unknown_words_is_answered(v1, scope, facts, query, monkeypatch):
    """Every one-edit variant of a 1,500-letter word is ~80,000 strings of 1,500 letters: the
    statement ran past a serving process's bound on PostgreSQL's answer and a valid query was
    reported as an outage (available false). A word longer than any word is not read as a
    typing slip."""
    monkeypatch.setattr(BoundedConnection, "statement_timeout", 5.0)  # as web processes have
    assert len(query) <= 2000
    search(v1, scope, query)  # asserts available true, no error_reason
    keyword = selectors.recall_channels(scope=scope, query=query, pool=10, min_score=1.0)[
        Channel.KEYWORD
    ]
    assert keyword == []


def test_a_dictionary_word_is_never_read_as_another_word(scope, remember):
    # "bread" is one slip from "break", which the memory holds; it is a word of its own.
    remember("User takes a coffee break at three.")
    for query, found in (("coffee braek", 1), ("bread", 0)):
        keyword = selectors.recall_channels(scope=scope, query=query, pool=10, min_score=1.0)[
            Channel.KEYWORD
        ]
        assert len(keyword) == found, query


MIRA_PROJECT = {
    "goal": "项目“Mira”是访客登记系统，计划五月上线。",
    "owner": "“Mira”的负责人是沈洁。",
    "stack": "“Mira”的技术栈是 Rust，部署在内部容器平台上。",
}
VEGA_STACK = "“Vega”的技术栈是 Kotlin，部署在内部容器平台上。"


@pytest.mark.parametrize("query", ["Mria 用的什么技术栈", "Miar 的技术栈", "mrIA 技术栈"])
def test_two_letters_swapped_in_a_four_letter_name_are_read_as_the_name(v1, scope, remember, query):
    # Four letters are too few for every slip ("Mars", "Mica" are words and names of their own),
    # but two neighbours swapped is the commonest slip and leaves the letters as typed.
    ids = {key: remember(text) for key, text in MIRA_PROJECT.items()}
    remember(VEGA_STACK)
    assert semantic(query, MIRA_PROJECT["stack"]) < settings.SEARCH_MIN_SCORE
    items = search(v1, scope, query)["items"]
    assert items and items[0]["id"] == ids["stack"]


def test_other_slips_in_a_four_letter_word_are_not_read_as_the_word(scope, remember):
    remember(MIRA_PROJECT["stack"])
    for query in ("Mica", "Mirz", "Mra"):  # replacements, and a deletion
        channels = selectors.recall_channels(scope=scope, query=query, pool=10, min_score=1.0)
        assert not channels[Channel.ENTITY] and not channels[Channel.KEYWORD], query


def test_a_four_letter_word_of_the_dictionary_is_never_read_as_a_swapped_name(scope, remember):
    # "mail" is "Mali" with two neighbours swapped, and a word of its own.
    remember("“Mali”的技术栈是 Go，部署在内部容器平台上。")
    for query in ("mail", "MAIL 怎么配置"):
        entity = selectors.recall_channels(scope=scope, query=query, pool=10, min_score=1.0)[
            Channel.ENTITY
        ]
        assert not entity, query


def test_a_four_letter_word_with_neighbours_swapped_is_keyword_evidence(scope, remember):
    goal = remember("Project Onyx is the coupon engine, due in June.")
    remember("Project Ibis is the attendance tracking tool, due in May.")
    keyword = selectors.recall_channels(
        scope=scope, query="When is Onxy due?", pool=10, min_score=1.0
    )[Channel.KEYWORD]
    assert keyword and keyword[0].id == goal and keyword[0].strength == 1.0


@pytest.mark.django_db(transaction=True)  # Mem0's own connections must see the rewritten rows
def test_due_is_added_to_the_keywords_of_english_memories_stored_before(scope, remember):
    wanted = remember(KESTREL_PROJECT["goal"])
    with connection.cursor() as cur:  # what Mem0's lemmas held before: no "due"
        cur.execute(
            "UPDATE poco_memories SET payload = jsonb_set(payload, '{text_lemmatized}', "
            "to_jsonb(replace(payload->>'text_lemmatized', ' due', '')))"
        )
    query = "deadline due"
    assert (
        selectors.recall_channels(scope=scope, query=query, pool=10, min_score=1.0)[Channel.KEYWORD]
        == []
    )
    apply_data_migration("0009_attribute_stop_words", "add_words")
    keyword = selectors.recall_channels(scope=scope, query=query, pool=10, min_score=1.0)[
        Channel.KEYWORD
    ]
    assert [h.id for h in keyword] == [wanted]
