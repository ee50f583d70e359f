"""A question about one of the user's own attributes — the editor, the employer, the city, the
role, the language they code in ("What editor do I use?", "我在哪家公司上班") — is answered with
the memory that holds it, first, whatever language either is written in
(``memories.selectors.attributes``), through the real search door on the real stack (PostgreSQL,
USE v3, e5, jieba/spaCy). Questions about someone else, and the user's attributes with no memory
holding them, are answered as before."""

from __future__ import annotations

import pytest

from memories.scope import scope_of
from tests.memories.recall.test_search import search
from tests.memories.selectors.test_search_listing import store

# A user's memories as an agent adds them (no memory key: the text alone says what each holds).
LIN = {
    "backend": "用户是后端工程师，主要写 Go，也写一些 Python 脚本。",
    "employer": "用户在杭州的一家电商公司工作。",
    "coffee": "用户喜欢喝美式咖啡，不加糖。",
    "peanut": "The user is allergic to peanuts.",
    "daughter": "用户的女儿叫朵朵，今年五岁，在上幼儿园。",
    "bullets": "The user prefers answers in bullet points, short and to the point.",
    "xinghe": "用户负责“星河”项目，目标是把订单系统迁移到 Kubernetes，计划明年三月完成。",
    "verified": "已验证：支付回调超时是因为 Nginx 的 proxy_read_timeout 只有 5 秒，已调到 30 秒。",
    "run": "The user runs every morning, usually 5 km along the river.",
    "editor": "用户用 Neovim 写代码，配色是 Gruvbox。",
    "review": "The user's team does code review in GitLab and needs two approvals to merge.",
    "weekend": "用户周末一般不看工作消息。",
    "past_employer": "用户去年在阿里工作。",
    "sister_city": "The user's sister lives in Shenzhen.",
}


@pytest.fixture
def lin(db, agent) -> tuple[object, dict[str, str]]:
    scope = scope_of(tenant_id="t-attributes", user_id="lin")
    return scope, store(scope, agent, LIN)


def first(v1, scope, question: str) -> tuple[str | None, str | None]:
    items = search(v1, scope, question, top_k=3)["items"]
    if not items:
        return None, None
    return items[0]["id"], items[0]["metadata"]["match"]


@pytest.mark.parametrize(
    ("question", "holder"),
    [
        # The editor memory shares no word with either question ("编辑器", "editor"): the
        # Chinese one ranked the Go memory first, the English one answered nothing.
        ("我用什么编辑器", "editor"),
        ("What editor do I use?", "editor"),
        # Last year's employer says 工作 as well; the current one holds the attribute.
        ("我在哪家公司上班", "employer"),
        ("Where do I work?", "employer"),
        ("What programming language do I use?", "backend"),
        ("我是做什么工作的", "backend"),
    ],
)
def test_the_memory_holding_the_attribute_comes_first(v1, lin, question, holder):
    scope, ids = lin
    memory_id, match = first(v1, scope, question)
    assert (memory_id, match) == (ids[holder], "evidence")


def test_a_question_about_someone_else_is_no_question_about_the_user(v1, lin):
    """ "我姐姐住在哪个城市" asks about the sister: the sister's memory answers it, and no
    attribute of the user's is read into it."""
    scope, ids = lin
    memory_id, _ = first(v1, scope, "Which city does my sister live in?")
    assert memory_id == ids["sister_city"]


def test_an_attribute_nothing_holds_is_answered_as_before(v1, lin):
    """No memory says the user's time zone: the question gets what it got before (nothing with
    evidence here), not the user's other memories."""
    scope, _ = lin
    assert search(v1, scope, "我的时区是什么", top_k=3)["items"] == []


# The things a user has and how they get to work, as an agent adds them, half in each language:
# no memory says 车, "car", 电脑, "laptop", 手机, "phone" or 通勤 in the question's language.
CHEN = {
    "car": "The user drives a grey Volvo XC60.",
    "laptop": "用户的笔记本是一台 ThinkPad X1 Carbon。",
    "phone": "The user's phone is a Samsung Galaxy S23.",
    "watch": "用户戴一块佳明手表记录跑步和睡眠。",
    "commute": "用户每天坐地铁上下班，单程四十分钟。",
    "brother_car": "用户的哥哥开一辆特斯拉。",
    "coffee": "The user drinks a flat white every morning.",
    "peanut": "用户对花生过敏。",
    "son": "The user's son is learning to swim.",
    "review": "用户的团队用 GitLab 做代码评审，需要两个人批准才能合并。",
    "weekend": "The user hikes in the hills most weekends.",
    "report": "用户写周报习惯先写结论。",
    "pet": "用户养了一只灰色的英短，叫年糕。",
    "grew_up": "用户在青岛长大，大学毕业后搬到了上海。",
    "manager": "用户的直属上级是王磊，每周一对一。",
    "degree": "The user has a master's degree in chemistry from the University of Leeds.",
}


@pytest.fixture
def chen(db, agent) -> tuple[object, dict[str, str]]:
    scope = scope_of(tenant_id="t-attributes", user_id="chen")
    return scope, store(scope, agent, CHEN)


@pytest.mark.parametrize(
    ("question", "holder"),
    [
        ("我开的是什么车", "car"),
        ("What laptop do I use?", "laptop"),
        ("我用的是什么手机？", "phone"),
        ("What kind of watch do I wear?", "watch"),
        ("How do I get to work?", "commute"),
        ("What pets do I have?", "pet"),
        ("What's my hometown?", "grew_up"),
        # Asked in the past tense, as where one grew up is: still the user's, not a past value.
        ("Which city did I grow up in?", "grew_up"),
        ("Who is my manager?", "manager"),
        ("我是什么学历", "degree"),
        ("我大学学的什么专业", "degree"),
    ],
)
def test_the_users_thing_in_the_other_language_comes_first(v1, chen, question, holder):
    """Each question shares no word with its memory, written in the other language, and e5 put
    every one under its floor: nothing was answered."""
    scope, ids = chen
    memory_id, match = first(v1, scope, question)
    assert (memory_id, match) == (ids[holder], "evidence")


def test_someone_elses_thing_is_not_the_users(v1, chen):
    """The brother's Tesla is no car of the user's: asked what the user drives, it is not the
    answer; asked what the brother drives, the user's Volvo is no answer either."""
    scope, ids = chen
    items = search(v1, scope, "What car do I drive?", top_k=3)["items"]
    assert items[0]["id"] == ids["car"]
    evidence = [i["id"] for i in items if i["metadata"]["match"] == "evidence"]
    assert ids["brother_car"] not in evidence
    brother = search(v1, scope, "What car does my brother drive?", top_k=3)["items"]
    assert ids["car"] not in [i["id"] for i in brother[:1]]
