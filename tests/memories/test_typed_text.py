"""A memory keeps the user's text as typed: Chinese quotation marks, corner brackets and book
title marks come back byte for byte from every read of /v1 and from the export. Quotes are
folded only where texts are compared (admission, duplicates, the change check)."""

from __future__ import annotations

import pytest

from memories import services
from memories.types import WriteStatus
from tests.memories.conftest import body

pytestmark = pytest.mark.django_db

TYPED = "团队的北极星指标叫“周活跃创作者”，用「」标注术语，周报模板见《写作规范》。"


def test_v1_add_list_search_and_export_keep_the_typed_quotes(v1, scope):
    added = v1.post("manage", body(scope, action="add", text=TYPED, category="project"))
    assert added.status_code == 200 and added.json()["status"] == "added", added.content
    listed = v1.post("list-user", body(scope)).json()
    assert [item["content"] for item in listed["items"]] == [TYPED]
    found = v1.post("search", body(scope, query="北极星指标", min_score=0.0)).json()
    assert TYPED in [hit["content"] for hit in found["items"]]
    exported = v1.post("export", body(scope)).json()
    assert [item["content"] for item in exported["memories"]] == [TYPED]


def test_the_same_text_with_other_quotes_is_a_duplicate(scope, agent):
    first = services.memory_add(scope=scope, text=TYPED, actor=agent)
    assert first.status == WriteStatus.ADDED
    ascii_quotes = TYPED.replace("“", '"').replace("”", '"').replace("「", '"').replace("」", '"')
    again = services.memory_add(scope=scope, text=ascii_quotes, actor=agent)
    assert (again.status, again.reason, again.memory_id) == (
        WriteStatus.NO_EFFECT,
        "duplicate",
        first.memory_id,
    )


def test_a_correction_that_only_changes_quote_style_changes_nothing(scope, agent):
    first = services.memory_add(scope=scope, text=TYPED, actor=agent)
    same = TYPED.replace("“", '"').replace("”", '"')
    outcome = services.memory_update(scope=scope, memory_id=first.memory_id, text=same, actor=agent)
    assert outcome.status == WriteStatus.NO_EFFECT
