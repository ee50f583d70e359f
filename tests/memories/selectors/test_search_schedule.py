"""A time to find for the user ("帮我找个时间跟设计评审一下", "Schedule a call with the Berlin
team") is answered with what holds the user's time — fixed commitments, the hours they keep free,
their time zone — first, in either language (``memories.recall.schedule``), through the real
search door on the real stack (PostgreSQL, USE v3, e5, jieba/spaCy). Questions that put nothing
in time are answered as before."""

from __future__ import annotations

import pytest

from memories.scope import scope_of
from tests.memories.recall.test_search import search
from tests.memories.selectors.test_search_listing import store

# Three memories hold the user's time, in both languages; a taste mentions an hour and holds none.
QIAO = {
    "pickup": "用户每周四下午四点要去接儿子下课，那段时间不能开会。",
    "focus": "The user keeps Tuesday and Thursday mornings free of meetings for focused work.",
    "zone": "The user works in the Berlin time zone.",
    "tea": "用户下午喜欢喝一杯乌龙茶。",
    "backend": "用户是后端工程师，主要写 Go。",
    "peanut": "The user is allergic to peanuts.",
    "xinghe": "用户负责“星河”项目，计划明年三月上线。",
    "bullets": "The user prefers answers in bullet points, short and to the point.",
    "editor": "用户用 Neovim 写代码，配色是 Gruvbox。",
    "sister": "The user's sister lives in Shenzhen.",
    "review": "The user's team does code review in GitLab and needs two approvals to merge.",
    "cat": "用户养了一只叫豆豆的猫。",
}
HOLDS_TIME = {"pickup", "focus", "zone"}


@pytest.fixture
def qiao(db, agent) -> tuple[object, dict[str, str]]:
    scope = scope_of(tenant_id="t-schedule", user_id="qiao")
    return scope, store(scope, agent, QIAO)


@pytest.mark.parametrize(
    "task",
    [
        # Nothing of the user's time shares a word with these, and e5 puts them under its floor
        # over each of those memories: the agent booked the call without them.
        "帮我找个时间跟设计团队过一下新版首页",
        "下周帮我约一个跟上海办公室的视频会",
        "把周会挪到周四下午吧",
        "Schedule a call with the Tokyo team next week",
        "Find a slot for a two-hour workshop with the whole team",
        "When should we hold the quarterly planning meeting?",
    ],
)
def test_what_holds_the_users_time_answers_a_time_to_find(v1, qiao, task):
    scope, ids = qiao
    items = search(v1, scope, task, top_k=3)["items"]
    assert {item["id"] for item in items} == {ids[name] for name in HOLDS_TIME}, task
    assert {item["metadata"]["match"] for item in items} == {"evidence"}


@pytest.mark.parametrize(
    "question",
    [
        "帮我写一份会议纪要的模板",
        "How do I write a good meeting agenda?",
        "推荐几部科幻电影",
    ],
)
def test_a_question_that_puts_nothing_in_time_gets_none_of_it(v1, qiao, question):
    scope, ids = qiao
    found = {item["id"] for item in search(v1, scope, question, top_k=3)["items"]}
    assert not found & {ids[name] for name in HOLDS_TIME}, question
