"""Which questions ask for a list of a kind of memory (``memories.recall.listing``): ordinary
phrasings in both languages, and none of the questions that ask for something else."""

from __future__ import annotations

import pytest

from memories.categories import categorize
from memories.recall.listing import CONCLUSION, Listing, asked_to_list, listed, reads_verified
from memories.types import Category, Channel, ChannelHit

EVERYTHING = Listing(kind=None)


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("我手上有哪些项目", Category.PROJECT),
        ("我在做哪些项目？", Category.PROJECT),
        ("我负责哪几个项目", Category.PROJECT),
        ("列出我的项目", Category.PROJECT),
        ("What projects am I working on?", Category.PROJECT),
        ("what projects am I on", Category.PROJECT),
        ("List my projects", Category.PROJECT),
        ("我有哪些偏好", Category.PREFERENCE),
        ("我的偏好有哪些？", Category.PREFERENCE),
        ("What are my preferences?", Category.PREFERENCE),
        ("我的目标是什么", Category.GOAL),
        ("What are my goals?", Category.GOAL),
        ("我有什么饮食禁忌", Category.CONSTRAINT),
        ("What are my dietary restrictions?", Category.CONSTRAINT),
        ("Which dietary restrictions do I have?", Category.CONSTRAINT),
        # Verified conclusions: a kind known by its wording, not a category.
        ("有哪些已验证的结论", CONCLUSION),
        ("目前有哪些验证过的结论？", CONCLUSION),
        ("我们确认过哪些结论", CONCLUSION),
        ("我们得出了哪些结论", CONCLUSION),
        ("到目前为止，我们验证了哪些结论", CONCLUSION),
        ("已经确认的结论有哪些", CONCLUSION),
        ("列出已验证的结论", CONCLUSION),
        ("What have we verified so far?", CONCLUSION),
        ("what did we confirm", CONCLUSION),
        ("What conclusions have we reached so far?", CONCLUSION),
        ("What are our verified findings?", CONCLUSION),
        ("List the verified conclusions", CONCLUSION),
    ],
)
def test_a_question_asking_for_a_kind(question, kind):
    assert asked_to_list(question) == Listing(kind=kind)


@pytest.mark.parametrize(
    "question",
    [
        "你都记得我什么",
        "你知道我哪些事情？",
        "关于我你都知道什么",
        "你对我了解多少",
        "What do you know about me?",
        "what do you remember about me",
        "What have you learned about me?",
    ],
)
def test_a_question_asking_for_everything_remembered(question):
    assert asked_to_list(question) == EVERYTHING


@pytest.mark.parametrize(
    "question",
    [
        "推荐几部科幻电影",
        "What projects are popular on GitHub?",
        "What projects is Maya leading?",
        "我的项目什么时候上线",  # a date, not a list
        "我手上有哪些项目的截止日期快到了",
        "青鸟项目的目标是什么",
        "青鸟压测的结论是什么",  # one conclusion, about a subject: the channels answer it
        "这个结论验证过了吗",
        "有哪些已验证的减肥方法",
        "科学界有哪些已验证的结论",
        "What have scientists verified about dark matter?",
        "What did we confirm with the vendor?",
        "What did you confirm?",
        "我在哪家公司上班",
        "What's my plan for the weekend?",
        "What do you know about Kubernetes?",
        "Tell me about my cat",
    ],
)
def test_other_questions_ask_for_no_list(question):
    assert asked_to_list(question) is None


def hit(memory_id: str, content: str, category: str = "fact") -> ChannelHit:
    return ChannelHit(
        channel=Channel.MEANING,
        id=memory_id,
        content=content,
        category=category,
        strength=0.8,
        similarity=0.3,
        margin=0.0,
        names_only=False,
        under_floor=True,
    )


NEAREST = [
    hit("book", "用户最近在读《凤凰项目》这本书。"),
    hit("goal", "项目“天枢”是供应链预测系统，计划四月上线。", "goal"),
    hit("cat", "用户养了一只叫豆豆的猫。"),
    hit("named", "Falcon ships in October.", "project"),
]


def test_a_kind_is_its_category_or_its_wording_never_a_title():
    """A goal worded as a project is one; a memory stored as a project is one; a title's
    words are not what a memory is about."""
    assert listed(Listing(kind=Category.PROJECT), NEAREST) == ["goal", "named"]
    assert listed(None, NEAREST) == []


# 项目 as the modifier of a person or a thing the memory is about, with no project named.
MENTIONS_ONLY = [
    "项目负责人赵敏下周休假。",
    "项目经理王磊是用户的大学同学。",
    "用户是项目经理。",
    "用户每天早上在项目群里发日报。",
    "The project manager Dana is on leave next week.",
]
PROJECTS = [
    "项目“天枢”计划四月上线。",
    "用户负责北斗项目。",
    "北斗项目负责人是陈静。",
    "用户是北斗项目的项目经理。",
    "The user leads the Atlas project.",
    "Dana is the Atlas project manager.",
]


@pytest.mark.parametrize("text", MENTIONS_ONLY)
def test_a_memory_that_only_names_a_projects_person_or_thing_is_no_project(text):
    """Stored as the doors store it (its category from its wording): 项目负责人赵敏 is a person,
    项目群 a chat, and neither is one of the user's projects."""
    assert not Listing(kind=Category.PROJECT).holds(hit("m", text, categorize(text)))


@pytest.mark.parametrize("text", PROJECTS)
def test_a_memory_that_names_a_project_is_one(text):
    assert Listing(kind=Category.PROJECT).holds(hit("p", text, categorize(text)))


def test_everything_in_the_nearest_order_pinned_first():
    assert listed(EVERYTHING, NEAREST, pinned=["cat", "gone"]) == ["cat", "book", "goal", "named"]


@pytest.mark.parametrize(
    "text",
    [
        "已验证：加入节假日特征后，MAPE 从 18% 降到 11%。",
        "原因是 Redis 的 maxmemory 设得太小。",  # the rules extractor's confirmed diagnosis
        "结论：日志采样率降到 10% 不影响告警。",
        "经压测确认，网关单实例上限是每秒 3000 个请求。",
        "热点 key 用互斥锁重建，已在大促期间验证有效。",
        "Verified conclusion: resizing images in a worker cut checkout latency by 40%.",
        "Load testing confirmed that the API holds 500 requests per second.",
        "The root cause of the sync failures was an expired token.",
    ],
)
def test_a_verified_conclusion_is_known_by_its_wording(text):
    assert reads_verified(text)
    assert Listing(kind=CONCLUSION).holds(hit("c", text))


@pytest.mark.parametrize(
    "text",
    [
        "用户偏好简洁的回答，结论先行。",
        "用户最近在读《凤凰项目》这本书。",
        "经理确认了下周的预算。",
        "用户对花生过敏。",
        "Emma prefers concise answers with bullet points.",
        "Emma's cat is called Miso.",
    ],
)
def test_other_memories_are_no_conclusion(text):
    assert not reads_verified(text)
    # whatever category it was stored in: a conclusion is no category
    assert not Listing(kind=CONCLUSION).holds(hit("c", text, "constraint"))
