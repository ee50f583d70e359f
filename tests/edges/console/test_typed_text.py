"""The console stores and shows a memory as the user typed it: “”「」《》 are not turned into
ASCII quotes, and the add page asks nothing about them (only a link or noise is "removed")."""

from __future__ import annotations

import html

import pytest
from django.urls import reverse

from memories import selectors

pytestmark = pytest.mark.django_db

TYPED = "团队的北极星指标叫“周活跃创作者”，用「」标注术语，周报模板见《写作规范》。"


def test_console_add_and_list_keep_the_typed_quotes(alice_client, alice_scope):
    answer = alice_client.post(reverse("console:memory_add"), {"text": TYPED, "category": "fact"})
    assert answer.status_code == 302, answer.content.decode()[:500]
    assert [r.content for r in selectors.memory_list(scope=alice_scope).items] == [TYPED]
    page = html.unescape(alice_client.get(reverse("console:memories")).content.decode())
    assert TYPED in page
