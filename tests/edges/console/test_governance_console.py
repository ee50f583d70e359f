"""The detail page's key, status and expiry card, and extending or clearing the expiry.
Real database and embedder; HTMX fragments and the no-JavaScript form."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from memories import services
from memories.engine import get_engine
from memories.models import AuditEvent, MemoryRow
from memories.types import Actor, ActorKind

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "governance-card"}
KEY = "preference.answer_language"
AGENT = Actor(kind=ActorKind.AGENT, id="agent-test")


def page_of(client, memory_id: str, **headers) -> str:
    response = client.get(reverse("console:memory_detail", args=[memory_id]), **headers)
    assert response.status_code == 200
    return response.content.decode()


def until(memory_id: str):
    value = MemoryRow.objects.get(id=memory_id).payload["valid_until"]
    return parse_datetime(value) if value else None


def post(client, memory_id: str, **form):
    return client.post(reverse("console:memory_validity", args=[memory_id]), form, **HTMX)


@pytest.fixture
def keyed(alice_scope) -> str:
    outcome = services.memory_add(
        scope=alice_scope, text="以后默认用英文回答", actor=AGENT, memory_key=KEY
    )
    assert outcome.memory_id
    return outcome.memory_id


def test_detail_shows_key_status_and_expiry_in_words(alice_client, keyed):
    page = page_of(alice_client, keyed)
    assert "状态与有效期" in page and KEY in page and ">有效<" in page
    assert "后过期" in page  # "1年，11月后过期": 730 days from now, in words
    alice_client.post(reverse("set_language"), {"language": "en"})
    english = page_of(alice_client, keyed)
    assert "Status and expiry" in english and "Expires in" in english and "Active" in english


def test_extend_by_a_year_and_clear(alice_client, keyed):
    before = until(keyed)
    response = post(alice_client, keyed, action="extend")
    assert response.status_code == 200
    assert 'id="governance-card"' in response.content.decode()
    assert until(keyed) - before == timedelta(days=365)

    cleared = post(alice_client, keyed, action="clear")
    assert "长期有效，不会过期" in cleared.content.decode()
    assert until(keyed) is None
    statuses = AuditEvent.objects.filter(memory_id=keyed, event="UPDATE").values_list(
        "status", flat=True
    )
    assert list(statuses) == ["valid_until", "valid_until"]


def test_pick_a_day_valid_to_its_end(alice_client, keyed):
    day = timezone.localdate() + timedelta(days=30)
    response = post(alice_client, keyed, action="date", until=day.isoformat())
    assert response.status_code == 200
    chosen = timezone.localtime(until(keyed))
    assert chosen.date() == day and (chosen.hour, chosen.minute) == (23, 59)


def test_a_day_in_the_past_is_refused_inline_and_changes_nothing(alice_client, keyed):
    before = until(keyed)
    response = post(alice_client, keyed, action="date", until="2020-01-01")
    assert response.status_code == 422
    assert "请选择今天以后的日期" in response.content.decode()
    assert until(keyed) == before


def test_without_javascript_it_redirects_back_with_a_message(alice_client, keyed):
    response = alice_client.post(
        reverse("console:memory_validity", args=[keyed]), {"action": "clear"}, follow=True
    )
    assert response.redirect_chain[-1][0] == reverse("console:memory_detail", args=[keyed])
    assert "有效期已更新" in response.content.decode()


def test_another_users_memory_is_404_and_unchanged(alice_client, bob_scope):
    theirs = services.memory_add(scope=bob_scope, text="用户住在杭州", actor=AGENT).memory_id
    before = until(theirs)
    response = post(alice_client, theirs, action="clear")
    assert response.status_code == 404 and until(theirs) == before


def test_an_expired_memory_says_so_and_extending_brings_it_back(alice_client, keyed):
    get_engine().patch_payload(
        memory_id=keyed, fields={"valid_until": (timezone.now() - timedelta(days=2)).isoformat()}
    )
    services.memories_expire()
    page = page_of(alice_client, keyed)
    assert ">已过期<" in page and "前过期" in page and "到期，不再被检索或引用" in page
    post(alice_client, keyed, action="extend")
    assert MemoryRow.objects.get(id=keyed).payload["status"] == "active"


def test_a_superseded_memory_links_to_its_successor_and_has_no_form(
    alice_client, alice_scope, keyed
):
    new = services.memory_add(
        scope=alice_scope, text="以后默认用中文回答", actor=AGENT, memory_key=KEY
    )
    page = page_of(alice_client, keyed)
    assert "已被新记忆替代" in page
    assert reverse("console:memory_detail", args=[new.memory_id]) in page
    assert reverse("console:memory_validity", args=[keyed]) not in page
    assert "被同一记忆键的新记忆替代" in page  # the history says why
