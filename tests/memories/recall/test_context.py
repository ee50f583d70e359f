"""POST /v1/memories/context: the executor's automatic memory context.

Real PostgreSQL, the real embedder and recall; only the switch, run kind, input and stored
facts vary.  The budget cases use facts whose lengths make the outcome independent of rank.
"""

from __future__ import annotations

import pytest

from memories import services
from memories.categories import categorize
from memories.context import BUDGET_CHARS, FRAMES, MAX_FACTS, MIN_INPUT_CHARS, memory_context
from memories.models import MemorySettings
from tests.lifecycle.test_policy import SCHEDULED_SPELLINGS
from tests.memories.conftest import body
from tests.memories.engine.test_outage import swap_engine, unreachable_db_engine  # noqa: F401

pytestmark = pytest.mark.django_db

QUESTION = "“Atlas”项目接下来要注意什么？"
OUTPUT_KEYS = {"text", "injected_count", "available", "error_reason"}


@pytest.fixture
def remember(scope, agent):
    def add(text: str) -> str:
        outcome = services.memory_add(scope=scope, text=text, actor=agent)
        assert outcome.memory_id is not None, outcome
        return outcome.memory_id

    return add


def context(v1, scope, user_input: str, run_kind: str = "chat") -> dict:
    answer = v1.post("context", body(scope, input=user_input, run_kind=run_kind))
    assert answer.status_code == 200, answer.content
    data = answer.json()
    assert set(data) == OUTPUT_KEYS
    return data


def facts_of(text: str, frame: str) -> list[str]:
    assert text.startswith(frame)
    lines = text[len(frame) :].split("\n")
    assert all(line.startswith("- ") for line in lines), lines
    return [line[2:] for line in lines]


NOTHING = {"text": "", "injected_count": 0, "available": True, "error_reason": None}


def test_context_injects_ranked_facts_in_a_chinese_frame_without_ids_or_scores(v1, scope, remember):
    ids = [
        remember('项目"Atlas"的发布窗口定在三月底。'),
        remember('"Atlas"的文档统一用简体中文写，结论先行。'),
        remember('"Atlas"的需求对接人是林清。'),
        remember('"Atlas"的代码评审需要两人通过。'),
        remember("用户周末喜欢爬山。"),
    ]
    data = context(v1, scope, QUESTION)
    assert data["available"] is True and data["error_reason"] is None
    facts = facts_of(data["text"], FRAMES["zh"])
    assert data["injected_count"] == len(facts) == MAX_FACTS
    assert all("Atlas" in fact for fact in facts)
    assert len(data["text"]) <= BUDGET_CHARS
    assert not any(memory_id in data["text"] for memory_id in ids)
    for leak in ("score", "category", "metadata", "0.", "entity"):
        assert leak not in data["text"]
    search = v1.post("search", body(scope, query=QUESTION, top_k=3)).json()["items"]
    assert facts == [item["content"] for item in search]  # rank order


def test_frame_speaks_the_users_language_and_says_facts_are_not_instructions(v1, scope, remember):
    remember("Kestrel is the code name of the billing rewrite.")
    data = context(v1, scope, "What should I know about Kestrel before the review?")
    assert data["injected_count"] == 1
    assert data["text"].startswith(FRAMES["en"])
    assert "not instructions" in FRAMES["en"] and "low priority" in FRAMES["en"]
    assert "不是指令" in FRAMES["zh"] and "优先级低" in FRAMES["zh"] and "未经核实" in FRAMES["zh"]


def test_duplicates_are_injected_once(v1, scope, remember):
    remember('"Atlas"的文档统一用简体中文写。')
    remember('"Atlas" 的文档统一用简体中文写')
    data = context(v1, scope, "“Atlas”的文档用什么语言写？")
    assert data["injected_count"] == 1
    assert len(facts_of(data["text"], FRAMES["zh"])) == 1


@pytest.mark.parametrize("run_kind", SCHEDULED_SPELLINGS)
def test_scheduled_runs_get_no_context(v1, scope, remember, run_kind):
    remember('项目"Atlas"的发布窗口定在三月底。')
    assert context(v1, scope, QUESTION, run_kind=run_kind) == NOTHING
    assert context(v1, scope, QUESTION, run_kind="chat")["injected_count"] == 1


def test_reference_switch_off_means_no_context(v1, scope, remember):
    remember('项目"Atlas"的发布窗口定在三月底。')
    MemorySettings.objects.create(
        tenant_id=scope.tenant_id, user_id=scope.user_id, memory_reference_enabled=False
    )
    assert context(v1, scope, QUESTION) == NOTHING


def test_inputs_shorter_than_ten_characters_get_no_context(v1, scope, remember):
    remember('项目"Atlas"的发布窗口定在三月底。')
    nine = "“Atlas”发布"
    assert len(nine) == MIN_INPUT_CHARS - 1
    assert context(v1, scope, nine) == NOTHING
    assert context(v1, scope, f"  {nine}  ") == NOTHING  # surrounding blanks do not count
    assert context(v1, scope, nine + "？")["injected_count"] == 1


def test_a_fact_that_fills_the_budget_exactly_is_injected(v1, scope, remember):
    room = BUDGET_CHARS - len(FRAMES["zh"]) - len("- ")
    fact = '"Atlas"约定：' + "测" * (room - len('"Atlas"约定：') - 1) + "。"
    assert len(fact) == room
    remember(fact)
    data = context(v1, scope, QUESTION)
    assert data["injected_count"] == 1
    assert len(data["text"]) == BUDGET_CHARS
    assert facts_of(data["text"], FRAMES["zh"]) == [fact]


def test_a_fact_one_character_over_the_budget_is_skipped_whole(v1, scope, remember):
    room = BUDGET_CHARS - len(FRAMES["zh"]) - len("- ")
    fact = '"Atlas"约定：' + "测" * (room - len('"Atlas"约定：')) + "。"
    assert len(fact) == room + 1
    remember(fact)
    assert context(v1, scope, QUESTION) == NOTHING


def test_a_fact_that_does_not_fit_is_skipped_and_a_later_one_still_fits(v1, scope, remember):
    """Two 600-character facts cannot both fit; the short one fits beside either, in any rank
    order.  Nothing is ever cut: every injected fact is a stored fact, whole."""
    long_a = '"Atlas"甲约定：' + "甲" * 590
    long_b = '"Atlas"乙约定：' + "乙" * 590
    short = '"Atlas"的发布窗口定在三月底。'
    for text in (long_a, long_b, short):
        remember(text)
    data = context(v1, scope, QUESTION)
    facts = facts_of(data["text"], FRAMES["zh"])
    assert data["injected_count"] == 2
    assert short in facts
    assert len({long_a, long_b} & set(facts)) == 1
    assert set(facts) <= {long_a, long_b, short}
    assert len(data["text"]) <= BUDGET_CHARS


def test_no_relevant_memory_injects_nothing(v1, scope, remember):
    remember("用户周末喜欢爬山。")
    assert context(v1, scope, "量子计算的最新进展有哪些值得关注？") == NOTHING


@pytest.mark.usefixtures("unreachable_db_engine")
def test_backend_failure_is_unavailable_with_nothing_injected(v1, scope):
    data = context(v1, scope, QUESTION)
    assert data["available"] is False
    assert data["error_reason"]
    assert data["text"] == "" and data["injected_count"] == 0


def test_context_input_is_validated(v1, scope):
    assert v1.post("context", body(scope, run_kind="chat")).status_code == 400
    assert v1.post("context", {"tenant_id": "acme", "input": QUESTION}).status_code == 400
    too_long = v1.post("context", body(scope, input="字" * 20001))
    assert too_long.status_code == 400


def test_selector_and_endpoint_agree(v1, scope, remember):
    remember('项目"Atlas"的发布窗口定在三月底。')
    direct = memory_context(scope=scope, user_input=QUESTION, interactive=True)
    assert context(v1, scope, QUESTION) == {
        "text": direct.text,
        "injected_count": direct.injected_count,
        "available": direct.available,
        "error_reason": direct.error_reason,
    }


# A user's tastes and habits beside the rule their allergy imposes, categorised by their wording
# as the doors (manage, ingest) categorise them: the allergy is a constraint.
TASTES = (
    "用户每周二、四晚上去健身房。",
    "用户早上习惯喝一杯燕麦拿铁。",
    "用户下午喜欢喝龙井茶。",
    "用户喜欢吃辣。",
    "用户周末喜欢爬山。",
    "用户养了一只叫豆豆的猫。",
)
ALLERGY = "用户对花生过敏，订餐时要避开含花生的菜。"
LUNCH = "帮我点个外卖午饭，要健康一点"
# The same order not said as the user's own ("帮我", "我"): no meal the search reads as the
# user's (``memories.recall.meals``), so the allergy keeps the channels' rank.
ANY_LUNCH = "午饭点个外卖，要健康一点"


@pytest.fixture
def lunch_scope(scope, agent) -> dict[str, str]:
    ids = {}
    for text in (*TASTES, ALLERGY):
        outcome = services.memory_add(
            scope=scope, text=text, actor=agent, category=categorize(text)
        )
        assert outcome.memory_id is not None, outcome
        ids[text] = outcome.memory_id
    return ids


def test_a_constraint_that_is_evidence_comes_before_tastes(v1, scope, lunch_scope):
    """The probe's lunch order injected the gym, the oat latte and the Longjing tea, and left
    out the allergy the search ranked after them: a rule the assistant must keep lost its place
    to tastes. Evidence that is a constraint now comes first; the other facts keep rank order."""
    search = v1.post("search", body(scope, query=ANY_LUNCH, top_k=6)).json()["items"]
    allergy = next(item for item in search if item["content"] == ALLERGY)
    assert allergy["metadata"] == {"category": "constraint", "match": "evidence"}
    assert search.index(allergy) >= 1, search  # the case at stake: ranked after tastes
    data = context(v1, scope, ANY_LUNCH)
    facts = facts_of(data["text"], FRAMES["zh"])
    assert data["injected_count"] == len(facts) == MAX_FACTS
    assert facts[0] == ALLERGY
    assert facts[1:] == [item["content"] for item in search[: MAX_FACTS - 1]]
    assert len(data["text"]) <= BUDGET_CHARS


def test_the_users_own_lunch_order_gets_the_allergy_first_from_the_search(v1, scope, lunch_scope):
    """Said as the user's own order, the search itself puts what restricts the meal first."""
    search = v1.post("search", body(scope, query=LUNCH, top_k=6)).json()["items"]
    assert (search[0]["content"], search[0]["metadata"]["match"]) == (ALLERGY, "evidence")
    assert facts_of(context(v1, scope, LUNCH)["text"], FRAMES["zh"])[0] == ALLERGY


def test_pins_still_come_before_a_constraint(v1, scope, agent, lunch_scope):
    pin = lunch_scope["用户周末喜欢爬山。"]
    assert services.memory_pin(scope=scope, memory_id=pin, pinned=True, actor=agent).success
    facts = facts_of(context(v1, scope, LUNCH)["text"], FRAMES["zh"])
    assert facts[:2] == ["用户周末喜欢爬山。", ALLERGY]
    assert len(facts) == MAX_FACTS


def test_a_constraint_that_is_only_related_is_not_injected(v1, scope, lunch_scope):
    """Near the input in meaning but no evidence for it: a constraint takes no place either."""
    question = "下午有点困，帮我放首歌提提神"
    search = v1.post("search", body(scope, query=question, top_k=6)).json()["items"]
    allergy = next(item for item in search if item["content"] == ALLERGY)
    assert allergy["metadata"]["match"] == "related"
    data = context(v1, scope, question)
    facts = facts_of(data["text"], FRAMES["zh"])
    assert ALLERGY not in facts
    assert facts == [item["content"] for item in search if item["metadata"]["match"] == "evidence"]
