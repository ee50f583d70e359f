"""A meal or a drink to get for the user ("帮我订明天中午的外卖", "Order lunch for me") is answered
with what the user cannot eat or drink, first, in either language (``memories.recall.meals``),
through the real search and context doors on the real stack (PostgreSQL, USE v3, e5,
jieba/spaCy). Questions about food in general, and the user's habits, are answered as before."""

from __future__ import annotations

import pytest

from memories.context import FRAMES
from memories.scope import scope_of
from tests.memories.recall.test_context import context, facts_of
from tests.memories.recall.test_search import search
from tests.memories.selectors.test_search_attributes import LIN
from tests.memories.selectors.test_search_listing import store


@pytest.fixture
def lin(db, agent) -> tuple[object, dict[str, str]]:
    scope = scope_of(tenant_id="t-meals", user_id="lin")
    return scope, store(scope, agent, LIN)


@pytest.mark.parametrize(
    "task",
    [
        # The allergy is in English: the Chinese task got the coffee first, the English one
        # nothing at all.
        "帮我订明天中午的外卖",
        "Order lunch for me",
        "团建要带零食，帮我列个采购单",
        "Which dishes should we order at the seafood place tonight?",
    ],
)
def test_the_allergy_answers_a_meal_to_get(v1, lin, task):
    scope, ids = lin
    items = search(v1, scope, task, top_k=3)["items"]
    assert items, task
    assert (items[0]["id"], items[0]["metadata"]["match"]) == (ids["peanut"], "evidence")


def test_the_executor_context_of_a_lunch_order_holds_the_allergy(v1, lin):
    scope, _ = lin
    data = context(v1, scope, "帮我订明天中午的外卖，要清淡一点")
    facts = facts_of(data["text"], FRAMES["zh"])
    assert facts[0] == LIN["peanut"]


@pytest.mark.parametrize(
    "question", ["怎么做红烧肉", "how to bake sourdough bread", "北极熊吃什么", "推荐几部科幻电影"]
)
def test_food_in_general_gets_no_restriction(v1, lin, question):
    scope, ids = lin
    found = [item["id"] for item in search(v1, scope, question, top_k=3)["items"]]
    assert ids["peanut"] not in found


def test_a_question_about_the_users_habit_is_answered_by_the_habit(v1, lin):
    scope, ids = lin
    items = search(v1, scope, "我喝什么咖啡", top_k=3)["items"]
    assert items[0]["id"] == ids["coffee"]
