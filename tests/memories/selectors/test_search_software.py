"""A program to install for the user ("Recommend a video editing app I can install tonight",
"推荐个 screenshot 工具，要能装在我的 laptop 上") is answered with the user's machines and tools,
first, in either language (``memories.selectors.software``), through the real search door on the
real stack (PostgreSQL, USE v3, e5, jieba/spaCy). Questions about software in general, about
someone else, and about the user's habits are answered as before."""

from __future__ import annotations

import pytest

from memories.scope import scope_of
from tests.memories.recall.test_search import search
from tests.memories.selectors.test_search_attributes import first
from tests.memories.selectors.test_search_listing import store

HAO = {
    "laptop": "用户的主力电脑是一台装 Arch Linux 的 ThinkPad。",
    "editor": "The user writes code in VS Code every day.",
    "coffee": "用户喜欢喝美式咖啡，不加糖。",
    "peanut": "The user is allergic to peanuts.",
    "run": "The user runs every morning, usually 5 km along the river.",
    "daughter": "用户的女儿叫朵朵，今年五岁，在上幼儿园。",
    "sister_phone": "The user's sister uses an iPhone and edits her travel videos on it.",
    "movies": "用户喜欢看科幻电影，最喜欢《星际穿越》。",
    "music": "The user listens to jazz while working.",
    "shelves": "用户上周末在客厅装了两个新书架。",
    "xinghe": "用户负责“星河”项目，目标是把订单系统迁移到 Kubernetes。",
    "bullets": "The user prefers answers in bullet points, short and to the point.",
}


@pytest.fixture
def hao(db, agent) -> tuple[object, dict[str, str]]:
    scope = scope_of(tenant_id="t-software", user_id="hao")
    return scope, store(scope, agent, HAO)


@pytest.mark.parametrize(
    ("task", "holder"),
    [
        # Each got nothing at all before but the plugin, which e5 put on the editor.
        ("Recommend a video editing app I can install tonight", "laptop"),
        ("推荐个 screenshot 工具，要能装在我的 laptop 上", "laptop"),
        ("帮我装个听歌的客户端", "laptop"),
        ("What password manager should I use on my laptop?", "laptop"),
        # A device that pairs with the user's own: chosen to count (docs/retrieval.md).
        ("帮我推荐一副无线耳机", "laptop"),
        # A plugin or an extension runs in the editor: the editor first.
        ("推荐几个提高 coding 效率的 plugin", "editor"),
        ("Which extensions should I install to get Copilot working?", "editor"),
    ],
)
def test_the_users_machine_answers_a_program_to_install(v1, hao, task, holder):
    scope, ids = hao
    assert first(v1, scope, task) == (ids[holder], "evidence")


def test_both_the_machine_and_the_editor_are_evidence(v1, hao):
    scope, ids = hao
    items = search(v1, scope, "推荐几个提高 coding 效率的 plugin", top_k=3)["items"]
    evidence = [item["id"] for item in items if item["metadata"]["match"] == "evidence"]
    assert {ids["laptop"], ids["editor"]} <= set(evidence[:2])


def test_someone_elses_phone_is_no_evidence(v1, hao):
    """ "The user's sister uses an iPhone" names a phone, but not the user's: it answered the
    question first before; now the user's machine and editor take the first places (the
    channels still find the sister's on "phone", after them)."""
    scope, ids = hao
    items = search(v1, scope, "What password manager should I use on my phone?", top_k=3)["items"]
    assert [item["id"] for item in items[:2]] == [ids["laptop"], ids["editor"]]


@pytest.mark.parametrize(
    "question",
    [
        "how does a compiler work",
        "推荐几部科幻电影",
        "帮我在卧室再装一个书架",
        "What app should my sister use to edit her travel videos?",
    ],
)
def test_no_program_to_install_gets_no_machine(v1, hao, question):
    scope, ids = hao
    items = search(v1, scope, question, top_k=3)["items"]
    assert not any(
        item["id"] == ids["laptop"] and item["metadata"]["match"] == "evidence" for item in items
    )


def test_a_question_about_the_users_editor_is_answered_by_the_editor(v1, hao):
    scope, ids = hao
    assert first(v1, scope, "我用什么编辑器") == (ids["editor"], "evidence")
