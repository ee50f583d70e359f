"""Recall through /v1/memories/search and ``selectors.memory_search`` (seed 000 §5, §9).

Real PostgreSQL + pgvector, the bundled multilingual embedder, jieba/spaCy keywords and the
entity index.  Scores are "higher is more relevant", within [0, 1] (rank fusion, see
``memories.fusion``); ``min_score`` is the vector channel's floor; the default floor is
calibrated for the bundled embedder at the end of this file.
"""

from __future__ import annotations

import math

import pytest
from django.conf import settings

from memories import selectors, services
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
        "metadata": {"category": "fact"},
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
    assert [i["id"] for i in search(v1, scope, "Poco 项目的技术方案")["items"]] == [stored["poco"]]
    assert len(search(v1, scope, "Poco 项目的技术方案", min_score=0.0)["items"]) == 5


def test_min_score_is_the_vector_channels_floor_only(v1, scope, stored):
    """seed 000 §5: the floor applies to the pure vector score; keyword and entity evidence
    (here "Poco", "技术方案") still finds the memory when its cosine is under the floor."""
    query = "Poco 项目的技术方案"
    cos = semantic(query, SEED_EXAMPLE)
    below = search(v1, scope, query, min_score=round(cos - 0.005, 4))["items"]
    above = search(v1, scope, query, min_score=round(cos + 0.005, 4))["items"]
    assert below[0]["id"] == above[0]["id"] == stored["poco"]
    # Without the vector channel's vote the fused score drops by one channel's share.
    assert above[0]["score"] < below[0]["score"]


def test_min_score_one_leaves_only_keyword_and_entity_evidence(v1, scope, stored):
    assert [i["id"] for i in search(v1, scope, "飞书", min_score=1.0)["items"]] == [
        stored["feishu"]
    ]
    # A paraphrase sharing no word or name with any memory has no evidence left at all.
    assert search(v1, scope, "回复要简短、分点", min_score=1.0)["items"] == []
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
# (query, the fact it should find).  Facts read like stored memories; queries like an agent's.
CALIBRATION_PAIRS = [
    ("Poco 项目的技术方案怎么写", "用户偏好使用简体中文输出技术方案"),
    ("这个项目优先考虑什么", "用户在“Poco”项目中优先考虑易维护性"),
    ("团队用什么沟通工具", "团队沟通用“飞书”"),
    ("需求对接人是谁", "需求对接人是“林清”"),
    ("报告用什么格式", "以后所有报告统一使用 HTML 格式"),
    ("用户喜欢什么编程语言", "用户最喜欢的编程语言是 Python"),
    ("数据库选型", "已确认采用 PostgreSQL 作为主数据库"),
    ("用户住在哪个城市", "用户住在杭州"),
    ("代码风格偏好", "用户偏好简洁的代码风格，函数不超过 50 行"),
    ("周报怎么写", "周报要结论先行，控制在一页以内"),
    ("测试怎么做", "用户要求每个功能都写单元测试"),
    ("前端框架用什么", "前端统一使用 HTMX，不引入 React"),
    ("回答的语气", "用户希望回答直接，不要客套话"),
    ("部署在哪里", "服务部署在阿里云的 Kubernetes 集群上"),
    ("用户的职业", "用户是后端工程师，负责支付系统"),
    ("会议时间安排", "用户每周一上午十点开例会"),
    ("What language should reports use?", "User prefers reports written in English"),
    ("Which database do we use?", "The team decided to use PostgreSQL as the main database"),
    ("What does the user like to drink?", "User likes green tea"),
    ("Where does the user work?", "User works at a fintech startup in Singapore"),
    ("preferred answer style", "User prefers concise answers with bullet points"),
    ("deployment platform", "Services are deployed on Kubernetes"),
    ("code review rules", "Every pull request needs two approvals before merging"),
    ("How should commit messages look?", "Commit messages follow the Conventional Commits format"),
]
# Facts unrelated to every query above: other things the same user's memory holds.
UNRELATED_FACTS = [
    "用户养了一只叫豆豆的猫",
    "用户周末喜欢爬山",
    "用户对花生过敏",
    "用户的生日在十月",
    "用户正在学习弹吉他",
    "用户最喜欢的电影是《千与千寻》",
    "User's favourite football team is Arsenal",
    "User plays the piano every evening",
    "User is allergic to cats",
    "User's daughter is learning to swim",
]


@pytest.fixture(scope="module")
def calibration() -> dict[str, list]:
    """Semantic cosine of every relevant pair and of every (query, unrelated fact) pair."""
    from memories.engine import bootstrap

    bootstrap.prepare()
    from memories.engine.embedder import encode

    queries = encode([q for q, _ in CALIBRATION_PAIRS])
    relevant = encode([f for _, f in CALIBRATION_PAIRS])
    unrelated = encode(UNRELATED_FACTS)
    return {
        "relevant": [cosine(q, f) for q, f in zip(queries, relevant, strict=True)],
        "unrelated": [[cosine(q, u) for u in unrelated] for q in queries],
    }


def recall_at(floor: float, calibration) -> float:
    return sum(s >= floor for s in calibration["relevant"]) / len(calibration["relevant"])


def false_pass_rate_at(floor: float, calibration) -> float:
    flat = [s for row in calibration["unrelated"] for s in row]
    return sum(s >= floor for s in flat) / len(flat)


@pytest.fixture
def bundled_embedder():
    if settings.EMBEDDING_BASE_URL:
        pytest.skip("calibration numbers are for the bundled embedder only")


def test_default_floor_is_0_2_for_the_bundled_embedder(bundled_embedder):
    assert settings.SEARCH_MIN_SCORE == 0.2


def test_default_floor_keeps_at_least_80_percent_of_relevant_pairs(bundled_embedder, calibration):
    # Measured: 23/24 (96 %); the miss is "code review rules" (cosine 0.04, no shared words).
    assert recall_at(settings.SEARCH_MIN_SCORE, calibration) >= 0.8


def test_relevant_fact_outscores_every_unrelated_fact_for_almost_every_query(
    bundled_embedder, calibration
):
    """What really keeps unrelated memories out of the top results: the ranking."""
    wins = [
        rel > max(row)
        for rel, row in zip(calibration["relevant"], calibration["unrelated"], strict=True)
    ]
    assert sum(wins) / len(wins) >= 0.9  # measured 23/24


def test_default_floor_lets_some_unrelated_pairs_through(bundled_embedder, calibration):
    """The real behaviour at 0.2: 45 of 240 (query, unrelated fact) pairs pass the floor.

    35 of them come from the five queries that name the user ("用户的职业", "What does the
    user like to drink?"): every "用户…/User…" fact shares that much meaning.  A topic the
    memory knows nothing about stays below it (see the unrelated-query search tests above).
    """
    rate = false_pass_rate_at(settings.SEARCH_MIN_SCORE, calibration)
    assert 0.0 < rate <= 0.25
    assert max(max(row) for row in calibration["unrelated"]) < 0.4


def test_the_floor_that_separates_best_is_about_0_3(bundled_embedder, calibration):
    """Youden's J (recall - false-pass rate) over floors 0.10 … 0.50."""
    floors = [round(0.10 + i / 100, 2) for i in range(41)]
    score = {f: recall_at(f, calibration) - false_pass_rate_at(f, calibration) for f in floors}
    best = max(floors, key=lambda f: (score[f], -f))
    assert 0.26 <= best <= 0.32, (best, score[best])
    # The default gives up little of that separation, and keeps more true hits.
    assert score[settings.SEARCH_MIN_SCORE] >= score[best] - 0.05
    assert recall_at(settings.SEARCH_MIN_SCORE, calibration) > recall_at(best, calibration)
