"""Which tasks ask for a meal or a drink for the user, and which memories restrict one
(``memories.recall.meals``)."""

from __future__ import annotations

import pytest

from memories.recall.meals import asks_for_a_meal, restricting, restricts_a_meal
from tests.memories.recall.test_listing import hit


@pytest.mark.parametrize(
    "task",
    [
        "帮我订明天中午的外卖",
        "早餐帮我配一份，拿铁还是豆浆？",
        "晚上请客户吃饭，选川菜馆还是火锅？",
        "帮我订个部门聚餐的馆子",
        "三点的研讨会帮我准备点喝的",
        "帮我挑个生日蛋糕",
        "Order lunch for me",
        "Which dishes should we order at the seafood place tonight?",
        "Can you book us a table for dinner on Friday?",
        "I'm stopping at the café before work, what should I get?",
        "四点的 workshop 帮我订点 drinks",
    ],
)
def test_a_meal_to_get_for_the_user(task):
    assert asks_for_a_meal(task)


@pytest.mark.parametrize(
    "text",
    [
        # Nobody's meal: food in general.
        "怎么做红烧肉",
        "北极熊吃什么",
        "how to bake sourdough bread",
        "recommend a good sushi restaurant",
        # The user's habit, asked about: no meal to get.
        "我早上喝什么咖啡",
        "我最拿手的甜点是什么？",
        "Where do I usually buy snacks?",
        "Do I eat meat?",
        # No food at all, though a word looks like it.
        "帮我订个酒店",
        "帮我把茶几的尺寸量一下",
        "Help me plan the team offsite",
    ],
)
def test_no_meal_is_read_into_another_question(text):
    assert not asks_for_a_meal(text)


@pytest.mark.parametrize(
    "memory",
    [
        "用户对花生过敏。",
        "用户乳糖不耐受，喝牛奶会拉肚子。",
        "用户是穆斯林，不吃猪肉也不喝酒。",
        "用户有二型糖尿病，要控制甜食和精米白面。",
        "同事小周是素食者，不吃任何肉。",
        "The user is allergic to peanuts.",
        "User has coeliac disease and must avoid wheat.",
        "The user doesn't drink alcohol.",
    ],
)
def test_what_restricts_a_meal(memory):
    assert restricts_a_meal(memory)


@pytest.mark.parametrize(
    "memory",
    [
        "用户对猫毛过敏。",
        "用户对青霉素过敏。",
        "The user is allergic to pollen.",
        "用户喜欢喝美式咖啡，不加糖。",
        "The user runs every morning.",
    ],
)
def test_what_restricts_no_meal(memory):
    assert not restricts_a_meal(memory)


def test_what_restricts_the_meal_then_the_tastes_in_the_meaning_channels_order():
    nearest = [
        hit("latte", "用户早上习惯喝一杯燕麦拿铁。"),
        hit("gym", "用户每周二、四晚上去健身房。"),
        hit("peanut", "The user is allergic to peanuts."),
        hit("cat", "用户对猫毛过敏。"),
        hit("halal", "用户是穆斯林，不吃猪肉也不喝酒。"),
        hit("tea", "用户下午喜欢喝龙井茶。"),
    ]
    assert restricting("帮我订明天中午的外卖", nearest) == ["peanut", "halal", "latte", "tea"]
    assert restricting("怎么做红烧肉", nearest) == []
