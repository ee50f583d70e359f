"""Which questions ask for a list of a kind of memory (``memories.recall.listing``): ordinary
phrasings in both languages, and none of the questions that ask for something else."""

from __future__ import annotations

import pytest

from memories.recall.listing import Listing, asked_to_list, listed
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
        "有哪些已验证的结论",  # no kind of memory: the channels answer it
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


def test_everything_in_the_nearest_order_pinned_first():
    assert listed(EVERYTHING, NEAREST, pinned=["cat", "gone"]) == ["cat", "book", "goal", "named"]
