"""A question that asks for a list of what is remembered of a kind ("我手上有哪些项目", "What
projects am I working on?", "你都记得我什么") is answered with the scope's memories of that kind,
as evidence, first (``memories.recall.listing``), through the real search door on the real
stack (PostgreSQL, USE v3, e5, jieba/spaCy); ordinary and off-topic questions are untouched."""

from __future__ import annotations

import pytest

from memories import selectors, services
from memories.categories import categorize
from memories.scope import scope_of
from memories.types import SearchFilters, SearchResult
from tests.memories.recall.test_search import search

# A Chinese user's memory, categorised by its wording as the doors categorise it.
ZHANGWEI = {
    "employer": "用户在蓝鲸科技工作，是后端开发工程师。",
    "dingtalk": "公司内部沟通用钉钉。",
    "city": "用户住在杭州，每天坐地铁通勤。",
    "tianshu": "项目“天枢”是供应链预测系统，计划四月上线。",
    "tianshu_stack": "天枢的技术栈是 Python 和 LightGBM。",
    "beidou": "项目“北斗”是数据仓库迁移，负责人是陈静。",
    "beidou_meeting": "北斗项目每周二开进度会。",
    "book": "用户最近在读《凤凰项目》这本书。",
    "verified_forecast": "已验证：加入节假日特征后，周销量预测的 MAPE 从 18% 降到 11%。",
    "verified_pool": "已验证：把 PgBouncer 改成事务模式后 p99 延迟从 800 毫秒降到 120 毫秒。",
    "concise": "用户偏好简洁的回答，结论先行。",
    "peanut": "用户对花生过敏。",
    "swim": "用户每周三晚上去游泳。",
    "water": "用户不喝咖啡，只喝白开水。",
    "tea": "用户下午习惯喝一杯乌龙茶。",
}
ZH_PROJECTS = ("tianshu", "tianshu_stack", "beidou", "beidou_meeting")
ZH_PREFERENCES = ("concise", "tea")

EMMA = {
    "atlas": "Emma leads the Atlas project, the mobile app redesign due in May.",
    "atlas_stack": "Atlas is built with Flutter and Firebase.",
    "orion": "Project Orion is the logging platform upgrade; Emma owns its rollout.",
    "bullets": "Emma prefers concise answers with bullet points.",
    "cat": "Emma's cat is called Miso.",
    "run": "Emma runs 5 km every morning.",
    "coffee": "Emma drinks a flat white every morning.",
    "berlin": "Emma lives in Berlin.",
}
EN_PROJECTS = ("atlas", "orion")


def store(scope, agent, facts: dict[str, str]) -> dict[str, str]:
    ids = {}
    for name, text in facts.items():
        outcome = services.memory_add(
            scope=scope, text=text, actor=agent, category=categorize(text)
        )
        assert outcome.memory_id is not None, outcome
        ids[name] = outcome.memory_id
    return ids


@pytest.fixture
def zhangwei(db, scope, agent) -> dict[str, str]:
    return store(scope, agent, ZHANGWEI)


@pytest.fixture
def emma(db, agent) -> tuple[object, dict[str, str]]:
    scope = scope_of(tenant_id="t-listing", user_id="emma")
    return scope, store(scope, agent, EMMA)


def found(result: SearchResult) -> list[str]:
    assert result.available
    return [hit.id for hit in result.items]


def test_a_chinese_list_of_projects_is_answered_with_the_project_memories(v1, scope, zhangwei):
    """ "我手上有哪些项目" shares no word with a project memory that counts and e5 puts it under
    its floor over all of them: it answered nothing. Now the project memories are its evidence,
    first; the book whose title holds 项目 is no project."""
    items = search(v1, scope, "我手上有哪些项目")["items"]
    first = [item["id"] for item in items[: len(ZH_PROJECTS)]]
    assert set(first) == {zhangwei[name] for name in ZH_PROJECTS}, items
    assert all(item["metadata"]["match"] == "evidence" for item in items[: len(ZH_PROJECTS)])
    assert zhangwei["book"] not in first
    scores = [item["score"] for item in items]
    assert scores == sorted(scores, reverse=True)


def test_an_english_list_of_projects_is_answered_with_the_project_memories(emma):
    scope, ids = emma
    result = selectors.memory_search(scope=scope, query="What projects am I working on?", top_k=5)
    answer = found(result)
    assert set(answer[:2]) == {ids[name] for name in EN_PROJECTS}, answer
    assert not any(hit.related for hit in result.items[:2])


def test_a_list_of_preferences_puts_the_preferences_first(scope, zhangwei):
    result = selectors.memory_search(scope=scope, query="我有哪些偏好", top_k=5)
    answer = found(result)
    assert set(answer[:2]) == {zhangwei[name] for name in ZH_PREFERENCES}, answer
    assert not any(hit.related for hit in result.items[:2])


def test_what_is_remembered_about_the_user_is_answered_pinned_first(scope, agent, zhangwei):
    """ "你都记得我什么" asks for no subject: the user's memories answer it, as evidence, the
    pinned ones first."""
    pinned = services.memory_pin(scope=scope, memory_id=zhangwei["swim"], pinned=True, actor=agent)
    assert pinned.success, pinned
    for question in ("你都记得我什么", "What do you know about me?"):
        result = selectors.memory_search(scope=scope, query=question, top_k=5)
        answer = found(result)
        assert len(answer) == 5, question
        assert answer[0] == zhangwei["swim"], (question, answer)
        assert not any(hit.related for hit in result.items), question
        assert set(answer) <= set(zhangwei.values())


# Memories that name a project's person or thing, not a project (项目 its modifier).
ZH_MENTIONS = {
    "zhaomin": "项目负责人赵敏下周休假。",
    "wanglei": "项目经理王磊是用户的大学同学。",
}


def test_a_person_of_a_project_is_not_listed_as_a_project(scope, agent, zhangwei):
    """A probe's list of projects held "项目负责人赵敏下周休假": its 项目 made it a project by its
    wording. It is about 赵敏; the projects, a named one's owner among them, are listed."""
    ids = {
        **zhangwei,
        **store(scope, agent, ZH_MENTIONS),
        **store(scope, agent, {"owns_beidou": "用户负责北斗项目。"}),
    }
    projects = {ids[name] for name in (*ZH_PROJECTS, "owns_beidou")}
    answer = found(selectors.memory_search(scope=scope, query="我手上有哪些项目", top_k=10))
    assert set(answer[: len(projects)]) == projects, answer
    assert not {ids[name] for name in ZH_MENTIONS} & set(answer[: len(projects)])


def test_an_english_project_manager_is_not_listed_as_a_project(agent, emma):
    scope, ids = emma
    ids = {
        **ids,
        **store(scope, agent, {"dana": "The project manager Dana is on leave next week."}),
    }
    result = selectors.memory_search(scope=scope, query="What projects am I working on?", top_k=5)
    answer = found(result)
    assert set(answer[:2]) == {ids[name] for name in EN_PROJECTS}, answer
    assert ids["dana"] not in [hit.id for hit in result.items if not hit.related], answer


def test_the_list_stays_within_top_k(scope, zhangwei):
    answer = found(selectors.memory_search(scope=scope, query="我手上有哪些项目", top_k=2))
    assert len(answer) == 2
    assert set(answer) <= {zhangwei[name] for name in ZH_PROJECTS}


@pytest.mark.parametrize(
    "question", ["推荐几部科幻电影", "What projects are popular on GitHub?", "今天天气怎么样"]
)
def test_off_topic_questions_stay_unanswered(scope, zhangwei, question):
    assert found(selectors.memory_search(scope=scope, query=question, top_k=5)) == []


def test_a_list_asked_of_a_scope_without_the_kind_answers_nothing(db, agent):
    """Nothing of the kind is remembered: no list is made up of the user's other facts."""
    scope = scope_of(tenant_id="t-listing", user_id="no-projects")
    store(scope, agent, {k: EMMA[k] for k in ("cat", "run", "coffee", "berlin")})
    for question in ("What projects am I working on?", "我手上有哪些项目"):
        assert found(selectors.memory_search(scope=scope, query=question, top_k=5)) == []


def test_an_ordinary_question_keeps_its_answer(scope, zhangwei):
    answer = found(selectors.memory_search(scope=scope, query="天枢用什么技术栈", top_k=5))
    assert answer[0] == zhangwei["tianshu_stack"]


def test_the_list_goes_through_the_scope_filters_and_liveness(scope, agent, zhangwei, emma):
    """Another user's projects never join the list; a filter the request names still holds;
    a superseded or deleted project memory is never listed."""
    _, emmas = emma
    answer = found(selectors.memory_search(scope=scope, query="我手上有哪些项目", top_k=10))
    assert not set(answer) & set(emmas.values())

    filtered = selectors.memory_search(
        scope=scope, query="我手上有哪些项目", top_k=10, filters=SearchFilters(category="fact")
    )
    assert all(hit.category == "fact" for hit in filtered.items)
    assert zhangwei["tianshu"] not in found(filtered)  # a goal by its wording

    deleted = services.memory_delete(scope=scope, memory_id=zhangwei["beidou"], actor=agent)
    assert deleted.success, deleted
    old = services.memory_add(
        scope=scope,
        text="项目“玄武”是风控规则引擎，九月上线。",
        actor=agent,
        category="project",
        memory_key="project.xuanwu_launch",
    )
    new = services.memory_add(
        scope=scope,
        text="项目“玄武”是风控规则引擎，推迟到十月上线。",
        actor=agent,
        category="project",
        memory_key="project.xuanwu_launch",
    )
    assert new.superseded_id == old.memory_id, new
    answer = found(selectors.memory_search(scope=scope, query="我手上有哪些项目", top_k=10))
    assert new.memory_id in answer
    assert old.memory_id not in answer
    assert zhangwei["beidou"] not in answer


def test_a_stored_category_makes_a_memory_of_its_kind(db, agent):
    """A memory stored as a project whose wording names none is listed too."""
    scope = scope_of(tenant_id="t-listing", user_id="by-category")
    outcome = services.memory_add(
        scope=scope,
        text="Falcon ships the search relevance work in October.",
        actor=agent,
        category="project",
    )
    store(scope, agent, {k: EMMA[k] for k in ("cat", "run", "coffee")})
    answer = found(selectors.memory_search(scope=scope, query="What projects am I on?", top_k=5))
    assert answer[:1] == [outcome.memory_id]


def test_the_v1_door_marks_the_list_as_evidence(v1, scope, zhangwei):
    items = search(v1, scope, "我有什么饮食禁忌", top_k=5)["items"]
    assert items[0]["id"] == zhangwei["peanut"]
    assert items[0]["metadata"]["match"] == "evidence"


# Verified conclusions as the writers word them: an agent's "已验证：" / "结论：" / "Verified
# conclusion:", the rules extractor's confirmed diagnosis ("原因是 …。"), a load test's finding.
ZH_CONCLUSIONS = {
    "cause": "原因是 Redis 的 maxmemory 设得太小，缓存被频繁淘汰。",
    "gateway": "经压测确认，网关单实例的上限是每秒 3000 个请求。",
    "sampling": "结论：日志采样率降到 10% 不影响告警的召回。",
}
EN_CONCLUSIONS = {
    "resize": "Verified conclusion: resizing images in a worker cut checkout latency by 40%.",
    "load": "Load tests confirmed that checkout handles 500 orders a second.",
    "token": "The root cause of the nightly sync failures was an expired service token.",
}
ZH_VERIFIED = ("verified_forecast", "verified_pool", *ZH_CONCLUSIONS)


@pytest.mark.parametrize("question", ["有哪些已验证的结论", "我们确认过哪些结论"])
def test_a_list_of_verified_conclusions_is_answered_with_them(v1, scope, agent, zhangwei, question):
    """The probe's question answered 《凤凰项目》 first and one of the verified memories in the
    first four: a verified conclusion is no category, and the question shares no word with
    most of them. Now every memory worded as verified is its evidence, first; the preference
    for 结论先行 and the book are none."""
    ids = {**zhangwei, **store(scope, agent, ZH_CONCLUSIONS)}
    items = search(v1, scope, question, top_k=8)["items"]
    first = [item["id"] for item in items[: len(ZH_VERIFIED)]]
    assert set(first) == {ids[name] for name in ZH_VERIFIED}, items
    assert all(item["metadata"]["match"] == "evidence" for item in items[: len(ZH_VERIFIED)])
    assert ids["book"] not in first and ids["concise"] not in first


def test_an_english_list_of_verified_conclusions_is_answered_with_them(agent, emma):
    scope, ids = emma
    ids = {**ids, **store(scope, agent, EN_CONCLUSIONS)}
    result = selectors.memory_search(scope=scope, query="What have we verified so far?", top_k=5)
    answer = found(result)
    assert set(answer[:3]) == {ids[name] for name in EN_CONCLUSIONS}, answer
    assert not any(hit.related for hit in result.items[:3])


def test_a_question_about_one_conclusion_keeps_its_answer(scope, agent, zhangwei):
    store(scope, agent, ZH_CONCLUSIONS)
    answer = found(selectors.memory_search(scope=scope, query="周销量预测加了什么特征", top_k=5))
    assert answer[0] == zhangwei["verified_forecast"]
