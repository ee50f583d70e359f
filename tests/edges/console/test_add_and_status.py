"""Adding by hand with an optional expiry, the list's status filter,
and the overview counting only active memories. Real database and embedder."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from memories import selectors, services
from memories.engine import get_engine
from memories.models import EntityRow, MemoryRow
from memories.types import Actor, ActorKind

pytestmark = pytest.mark.django_db

FACT = "项目周会固定在每周二上午十点。"


def add(client, **form):
    return client.post(reverse("console:memory_add"), {"text": FACT, "category": "fact", **form})


def stored_until():
    row = MemoryRow.objects.get()
    value = row.payload["valid_until"]
    return parse_datetime(value) if value else None


def test_add_page_offers_the_expiry(alice_client):
    page = alice_client.get(reverse("console:memory_add")).content.decode()
    assert 'name="until"' in page and 'name="forever"' in page and "长期有效" in page
    assert f"{settings.MEMORY_LIFETIME_DAYS} 天后自动过期" in page


def test_add_without_a_date_keeps_the_default_lifetime(alice_client):
    before = timezone.now()
    assert add(alice_client).status_code == 302
    lifetime = stored_until() - before
    assert timedelta(days=settings.MEMORY_LIFETIME_DAYS) <= lifetime
    assert lifetime < timedelta(days=settings.MEMORY_LIFETIME_DAYS, minutes=5)


def test_add_with_a_date_is_valid_to_the_end_of_that_day(alice_client):
    day = timezone.localdate() + timedelta(days=10)
    assert add(alice_client, until=day.isoformat()).status_code == 302
    chosen = timezone.localtime(stored_until())
    assert chosen.date() == day and (chosen.hour, chosen.minute) == (23, 59)
    assert str(chosen.tzinfo) == settings.TIME_ZONE


def test_add_forever_never_expires(alice_client):
    assert add(alice_client, forever="on").status_code == 302
    assert MemoryRow.objects.get().payload["valid_until"] is None


@pytest.mark.parametrize(
    ("form", "error"),
    [
        ({"until": "2001-01-01"}, "有效期不能早于今天"),
        ({"until": "2099-01-01", "forever": "on"}, "不要再选日期"),
    ],
)
def test_past_or_contradictory_expiry_is_a_field_error_and_stores_nothing(
    alice_client, form, error
):
    response = add(alice_client, **form)
    page = response.content.decode()
    assert response.status_code == 422
    assert error in page and 'id="until-error"' in page and FACT in page
    assert not MemoryRow.objects.exists()


AGENT = Actor(kind=ActorKind.AGENT, id="agent-test")
OLD, NEW = "以后默认用中文回答", "以后默认用英文回答"
GONE = "这周在上海出差，住在静安区的酒店"


@pytest.fixture
def governed(alice_scope) -> dict[str, str]:
    """One superseded, one active (its successor), one expired memory of alice."""
    ids = {}
    for name, text in (("superseded", OLD), ("active", NEW)):
        outcome = services.memory_add(
            scope=alice_scope, text=text, actor=AGENT, memory_key="preference.answer_language"
        )
        assert outcome.memory_id
        ids[name] = outcome.memory_id
    outcome = services.memory_add(scope=alice_scope, text=GONE, actor=AGENT)
    assert outcome.memory_id
    ids["expired"] = outcome.memory_id
    get_engine().patch_payload(  # its day has passed
        memory_id=outcome.memory_id,
        fields={"valid_until": (timezone.now() - timedelta(days=1)).isoformat()},
    )
    return ids


def listed(client, **query) -> str:
    response = client.get(reverse("console:memories"), query)
    assert response.status_code == 200
    return response.content.decode()


def test_list_shows_active_memories_by_default(alice_client, governed):
    page = listed(alice_client)
    assert NEW in page and OLD not in page and GONE not in page
    assert 'data-field="status"' not in page  # active rows carry no status badge
    assert '<option value="active" selected>' in page


@pytest.mark.parametrize(
    ("status", "shown", "hidden", "label"),
    [
        ("superseded", OLD, [NEW, GONE], "已被新记忆替代"),
        ("expired", GONE, [NEW, OLD], "已过期"),
    ],
)
def test_status_filter_badge_chip_and_form_follow_the_url(
    alice_client, governed, status, shown, hidden, label
):
    page = listed(alice_client, status=status)
    assert shown in page and not any(text in page for text in hidden)
    assert f'data-field="status">{label}<' in page  # the row's badge
    assert f"状态：{label}" in page  # the chip, whose link drops the filter
    assert f'<option value="{status}" selected>' in page


def test_status_all_lists_history_too(alice_client, governed):
    page = listed(alice_client, status="all")
    assert all(text in page for text in (OLD, NEW, GONE))
    assert page.count('data-field="status"') == 2


def test_unknown_status_is_an_inline_error_and_lists_active(alice_client, governed):
    page = listed(alice_client, status="deleted")
    assert 'id="status-error"' in page and NEW in page and OLD not in page


def test_status_filter_through_htmx_returns_the_list_body(alice_client, governed):
    response = alice_client.get(
        reverse("console:memories"),
        {"status": "superseded"},
        HTTP_HX_REQUEST="true",
        HTTP_HX_TARGET="list-body",
    )
    page = response.content.decode()
    assert response.status_code == 200 and "<html" not in page
    assert OLD in page and NEW not in page


def linked_topics(memory_ids: set[str]) -> set[str]:
    """The entities linked to any of ``memory_ids``, read from the entity store itself."""
    return {
        str(e.id)
        for e in EntityRow.objects.all()
        if memory_ids & set(e.payload.get("linked_memory_ids") or [])
    }


def test_overview_and_heat_map_count_only_active_memories(alice_client, alice_scope, governed):
    overview = selectors.memory_overview(scope=alice_scope)
    assert overview.total == 1 and overview.added_30d == 1
    assert sum(overview.categories.values()) == 1 and sum(overview.sources.values()) == 1

    history_only = linked_topics({governed["superseded"], governed["expired"]}) - linked_topics(
        {governed["active"]}
    )
    assert history_only  # the expired memory's places are topics of no active memory
    topics = selectors.topic_heatmap(scope=alice_scope, limit=100)
    assert not history_only & {t.id for t in topics}
    assert all(t.memory_count == 1 for t in topics)
    assert selectors.topic_count(scope=alice_scope) == len(topics)


def test_add_form_and_status_filter_in_english(alice_client, governed):
    alice_client.post(reverse("set_language"), {"language": "en"})
    form = alice_client.get(reverse("console:memory_add")).content.decode()
    assert "Never expires" in form and "Valid until" in form and "days after saving" in form
    assert "有效期" not in form
    error = add(alice_client, until="2001-01-01").content.decode()
    assert "The expiry cannot be before today." in error
    page = listed(alice_client, status="superseded")
    assert "All statuses" in page and "Status: Replaced by a newer memory" in page
