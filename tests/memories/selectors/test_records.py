"""The keyword filter of the memory list (console, user API, /v1 list-user)."""

from __future__ import annotations

import pytest

from memories import selectors, services
from memories.types import ListQuery

pytestmark = pytest.mark.django_db

BOTH = "Poco 项目的周报用飞书文档撰写。"
ONLY_POCO = "Poco 项目的技术方案使用简体中文。"
ONLY_FEISHU = "团队沟通统一用飞书。"


@pytest.fixture
def stored(scope, agent):
    return {
        text: services.memory_add(scope=scope, text=text, actor=agent).memory_id
        for text in (BOTH, ONLY_POCO, ONLY_FEISHU)
    }


def listed(scope, query: str) -> list[str]:
    return sorted(
        r.content for r in selectors.memory_list(scope=scope, query=ListQuery(query=query)).items
    )


def test_words_separated_by_spaces_must_all_match(scope, stored):
    assert listed(scope, "Poco 飞书") == [BOTH]
    assert listed(scope, "  飞书\tpoco  ") == [BOTH]  # any whitespace, any case


def test_one_word_matches_every_memory_that_contains_it(scope, stored):
    assert listed(scope, "飞书") == sorted([BOTH, ONLY_FEISHU])


def test_a_word_no_memory_contains_lists_nothing(scope, stored):
    assert listed(scope, "Poco 钉钉") == []
