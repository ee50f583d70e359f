"""Recall through /v1/memories/search and ``selectors.memory_search``.

Real PostgreSQL + pgvector, the bundled multilingual embedder, jieba/spaCy keywords and the
entity index.  Scores are "higher is more relevant", within [0, 1] (rank fusion, see
``memories.recall.fusion``); ``min_score`` is the vector channel's floor; the default floor is
calibrated for the bundled embedder at the end of this file.
"""

from __future__ import annotations

import math
from io import StringIO

import pytest
from django.conf import settings
from django.core.management import call_command

from memories import selectors, services
from memories.ops.calibration import Calibration, calibrate
from memories.types import SearchResult
from tests.memories.conftest import body

SEED_EXAMPLE = "后续给我的技术方案都使用简体中文，优先考虑易维护性；项目叫“Poco”。"
FACTS = {
    "poco": SEED_EXAMPLE,
    "linqing": "需求对接人是“林清”，每周三同步一次进度。",
    "feishu": "团队沟通统一用“飞书”，不用邮件。",
    "cat": "用户养了一只叫豆豆的猫。",
    "hiking": "用户周末喜欢爬山。",
    "answers": "User prefers concise answers with bullet points.",
    "database": "The team decided to use PostgreSQL as the main database.",
    "football": "User's favourite football team is Arsenal.",
}


@pytest.fixture
def stored(db, scope, agent) -> dict[str, str]:
    """Name → memory id of every fact in ``FACTS``, all in ``scope``."""
    ids = {}
    for name, text in FACTS.items():
        outcome = services.memory_add(scope=scope, text=text, actor=agent)
        assert outcome.memory_id is not None, outcome
        ids[name] = outcome.memory_id
    return ids


def search(v1, scope, query: str, **extra) -> dict:
    answer = v1.post("search", body(scope, query=query, **extra))
    assert answer.status_code == 200, answer.content
    data = answer.json()
    assert data["available"] is True and data["error_reason"] is None
    assert data["total"] == len(data["items"])
    assert "relations" not in data
    for item in data["items"]:
        assert set(item) == {"id", "content", "score", "metadata"}
    return data


def evidence(items) -> list:
    """The part of an answer a recall channel found over its floor, in order: without the related
    memories that fill it after (``memories.recall.fusion``). /v1 items or ``SearchHit``s."""
    return [
        i
        for i in items
        if (i["metadata"]["match"] == "evidence" if isinstance(i, dict) else not i.related)
    ]


def cosine(a: list[float], b: list[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    return dot / (math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b)))


def semantic(query: str, fact: str) -> float:
    from memories.engine.embedder import encode

    q, f = encode([query, fact])
    return cosine(q, f)


# --- recall: the right memory first --------------------------------------------------------------
@pytest.mark.parametrize(
    "query, expected",
    [
        ("Poco 项目的技术方案", "poco"),
        ("这个项目的技术方案怎么写", "poco"),
        ("技术方案用什么语言写", "poco"),
        ("飞书", "feishu"),
        ("团队用什么沟通", "feishu"),
        ("林清", "linqing"),
        ("需求对接人是谁", "linqing"),
        ("用户的宠物", "cat"),
    ],
)
def test_chinese_query_finds_the_right_memory_first(v1, scope, stored, query, expected):
    items = search(v1, scope, query)["items"]
    assert items, f"nothing found for {query!r}"
    assert items[0]["id"] == stored[expected]
    assert items[0]["content"] == FACTS[expected]


@pytest.mark.parametrize(
    "query, expected",
    [
        ("Which database do we use?", "database"),
        ("How should answers be formatted?", "answers"),
        ("PostgreSQL", "database"),
        ("What football team does the user support?", "football"),
    ],
)
def test_english_query_finds_the_right_memory_first(v1, scope, stored, query, expected):
    items = search(v1, scope, query)["items"]
    assert items and items[0]["id"] == stored[expected]


def test_search_answers_the_seed_contract_shape(v1, scope, stored):
    data = search(v1, scope, "Poco 项目的技术方案")
    assert data["items"][0] == {
        "id": stored["poco"],
        "content": SEED_EXAMPLE,
        "score": data["items"][0]["score"],
        "metadata": {"category": "fact", "match": "evidence"},
    }


def test_selector_and_api_give_the_same_ranking(v1, scope, stored):
    for query in ("Poco 项目的技术方案", "飞书", "Which database do we use?"):
        result = selectors.memory_search(scope=scope, query=query, min_score=0.0, top_k=8)
        assert isinstance(result, SearchResult) and result.available
        api = search(v1, scope, query, min_score=0.0, top_k=8)["items"]
        assert [h.id for h in result.items] == [i["id"] for i in api]
        assert [h.score for h in result.items] == [i["score"] for i in api]


# --- scores: higher is more relevant, within [0, 1] ----------------------------------------------
@pytest.mark.parametrize(
    "query, relevant",
    [
        ("Poco 项目的技术方案", "poco"),
        ("飞书", "feishu"),
        ("林清", "linqing"),
        ("Which database do we use?", "database"),
    ],
)
def test_relevant_memory_scores_higher_than_every_unrelated_one(v1, scope, stored, query, relevant):
    items = search(v1, scope, query, min_score=0.0, top_k=50)["items"]
    scores = {item["id"]: item["score"] for item in items}
    assert set(scores) == set(stored.values())  # min_score=0 lets every memory compete
    assert all(0.0 <= s <= 1.0 for s in scores.values()), scores
    others = [s for memory_id, s in scores.items() if memory_id != stored[relevant]]
    assert scores[stored[relevant]] > max(others)
    assert [i["score"] for i in items] == sorted((i["score"] for i in items), reverse=True)


def test_scores_are_not_distances(v1, scope, stored):
    """A near-verbatim query scores far above an unrelated one (a distance would invert it)."""
    exact = search(v1, scope, "团队沟通统一用飞书，不用邮件", min_score=0.0)["items"]
    assert exact[0]["id"] == stored["feishu"]
    assert exact[0]["score"] > 0.5
    assert exact[-1]["score"] < exact[0]["score"] / 2


# --- min_score and top_k -------------------------------------------------------------------------
@pytest.mark.parametrize(
    "query", ["量子计算的最新进展", "股票行情怎么样", "how to bake sourdough bread"]
)
def test_unrelated_query_at_the_default_floor_finds_nothing_and_is_available(
    v1, scope, stored, query
):
    data = search(v1, scope, query)
    assert data == {"items": [], "total": 0, "available": True, "error_reason": None}

    everything = search(v1, scope, query, min_score=0.0, top_k=50)
    assert everything["total"] == len(FACTS)


def test_default_floor_filters_unrelated_memories_out_of_a_relevant_query(v1, scope, stored):
    items = search(v1, scope, "Poco 项目的技术方案")["items"]
    assert [i["id"] for i in evidence(items)] == [stored["poco"]]
    # Related memories (near in meaning, not evidence) may follow, scored below the evidence.
    assert items[0]["id"] == stored["poco"]
    assert all(i["score"] < items[0]["score"] for i in items[1:])
    assert len(search(v1, scope, "Poco 项目的技术方案", min_score=0.0)["items"]) == 5


def test_min_score_is_the_vector_channels_floor_only(v1, scope, stored):
    """The floor applies to the pure vector score; keyword and entity evidence
    (here "Poco", "技术方案") still finds the memory when its cosine is under the floor."""
    query = "Poco 项目的技术方案"
    cos = semantic(query, SEED_EXAMPLE)
    below = search(v1, scope, query, min_score=round(cos - 0.005, 4))["items"]
    above = search(v1, scope, query, min_score=round(cos + 0.005, 4))["items"]
    assert below[0]["id"] == above[0]["id"] == stored["poco"]
    # Without the vector channel's vote the fused score drops by one channel's share.
    assert above[0]["score"] < below[0]["score"]


def test_min_score_one_leaves_only_keyword_and_entity_evidence(v1, scope, stored):
    assert [i["id"] for i in evidence(search(v1, scope, "飞书", min_score=1.0)["items"])] == [
        stored["feishu"]
    ]
    # A paraphrase sharing no word or name with any memory has no evidence left at all.
    assert search(v1, scope, "回复要简短、分点", min_score=1.0)["items"] == []
    # Verbatim = the text as stored: admission stores “x” as "x".
    near_verbatim = search(v1, scope, SEED_EXAMPLE, min_score=0.99)["items"]
    assert near_verbatim[0]["id"] == stored["poco"]


@pytest.mark.parametrize("top_k", [1, 3, 8])
def test_top_k_caps_the_number_of_results(v1, scope, stored, top_k):
    data = search(v1, scope, "用户的偏好", min_score=0.0, top_k=top_k)
    assert len(data["items"]) == top_k == data["total"]


def test_default_top_k_is_five(v1, scope, stored):
    assert settings.SEARCH_TOP_K == 5
    assert len(search(v1, scope, "用户的偏好", min_score=0.0)["items"]) == 5


def test_search_in_an_empty_scope_is_zero_hits_not_an_outage(v1, scope):
    data = search(v1, scope, "Poco 项目的技术方案")
    assert data == {"items": [], "total": 0, "available": True, "error_reason": None}


# --- calibration of the default floor (no database) ----------------------------------------------
@pytest.fixture(scope="module")
def calibration() -> Calibration:
    from memories.engine import bootstrap

    bootstrap.prepare()
    from memories.engine.embedder import encode

    return calibrate(embed=encode)


@pytest.fixture
def bundled_embedder():
    if settings.EMBEDDING_BASE_URL:
        pytest.skip("calibration numbers are for the bundled embedder only")


def test_default_floor_is_what_calibration_recommends(bundled_embedder, calibration):
    assert calibration.recommended == settings.SEARCH_MIN_SCORE


def test_default_floor_keeps_most_relevant_pairs_and_answers_few_off_topic_questions(
    bundled_embedder, calibration
):
    row = calibration.row(settings.SEARCH_MIN_SCORE)
    assert row.recall >= 0.8  # measured 27/32; the misses share no word and little meaning
    assert row.off_topic_answered <= 0.05  # measured 2/40: 春节 ↔ a birthday, 最高的山 ↔ hiking


def test_the_floor_is_calibrated_on_questions_not_only_on_pairs(bundled_embedder, calibration):
    """The per-pair floor (0.26) answered 7 of the 40 off-topic questions: an unrelated
    question's best cosine over a whole memory is far above its cosine to one unrelated fact."""
    assert calibration.row(0.26).off_topic_answered > 0.1
    silent = calibration.silent
    assert silent is not None and silent.floor > settings.SEARCH_MIN_SCORE
    assert silent.recall < calibration.row(settings.SEARCH_MIN_SCORE).recall


def test_relevant_fact_outscores_every_unrelated_fact_for_almost_every_query(
    bundled_embedder, calibration
):
    """What really keeps unrelated memories out of the top results: the ranking."""
    per_query = len(calibration.negatives) // len(calibration.positives)
    wins = [
        positive > max(calibration.negatives[i * per_query : (i + 1) * per_query])
        for i, positive in enumerate(calibration.positives)
    ]
    assert sum(wins) / len(wins) >= 0.9


def test_calibrate_min_score_command_prints_the_table_and_recommendation(bundled_embedder):
    out = StringIO()
    call_command("calibrate_min_score", stdout=out)
    text = out.getvalue()
    assert "precision" in text and "recall" in text
    assert f"recommended floor: {settings.SEARCH_MIN_SCORE:.2f}" in text
