"""Django admin shows what a memory knows about itself: key, status, successor,
expiry, confidence; it filters by status and finds memories by key."""

from __future__ import annotations

import pytest
from django.urls import reverse

from memories import services
from memories.types import Actor, ActorKind

pytestmark = pytest.mark.django_db

KEY = "preference.answer_language"
AGENT = Actor(kind=ActorKind.AGENT, id="agent-test")


@pytest.fixture
def replaced(alice_scope) -> tuple[str, str]:
    old = services.memory_add(
        scope=alice_scope, text="以后默认用中文回答", actor=AGENT, memory_key=KEY
    )
    new = services.memory_add(
        scope=alice_scope, text="以后默认用英文回答", actor=AGENT, memory_key=KEY
    )
    assert old.memory_id and new.memory_id
    return old.memory_id, new.memory_id


def test_changelist_shows_and_filters_by_status(admin_client, replaced):
    url = reverse("admin:memories_memoryrow_changelist")
    everything = admin_client.get(url).content.decode()
    assert KEY in everything and "已被新记忆替代" in everything and ">有效<" in everything
    superseded = admin_client.get(url, {"status": "superseded"}).content.decode()
    assert "中文回答" in superseded and "英文回答" not in superseded
    active = admin_client.get(url, {"status": "active"}).content.decode()
    assert "英文回答" in active and "中文回答" not in active
    by_key = admin_client.get(url, {"q": KEY}).content.decode()
    assert "英文回答" in by_key and "中文回答" in by_key


def test_detail_shows_the_governance_fields_and_links_the_successor(admin_client, replaced):
    old, new = replaced
    page = admin_client.get(reverse("admin:memories_memoryrow_change", args=[old])).content.decode()
    assert "记忆键" in page and KEY in page
    assert "置信度" in page and "有效期至" in page
    assert reverse("admin:memories_memoryrow_change", args=[new]) in page
