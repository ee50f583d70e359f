"""The overview page: totals, trend, sources and topics, only the user's own."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.edges.console.pages import LIN, WEEKLY, html

pytestmark = pytest.mark.django_db


# --- overview ---------------------------------------------------------------------------------
def test_overview_shows_totals_trend_sources_and_topics(alice_client, alice_scope, remember):
    remember(alice_scope, WEEKLY, category="preference", source="ingest")
    remember(alice_scope, LIN, category="fact", source="manage")
    page = html(alice_client.get(reverse("console:overview")))
    assert re.search(r'data-stat="total">\s*2\s*<', page)
    assert re.search(r'data-stat="added_30d">\s*2\s*<', page)
    assert re.search(r'data-stat="updated_30d">\s*0\s*<', page)
    # a real chart: y-axis ticks, one stacked bar for today, donut slices, category bars
    assert page.count('class="seg-adds"') == 2  # today's bar, in the phone and the wide drawing
    assert 'class="tick"' in page
    assert 'class="donut-seg src-ingest"' in page and 'class="donut-seg src-manage"' in page
    assert 'class="cat-fill-preference"' in page
    # topics from the quoted names, each a link that filters the list
    for topic in ("飞书", "林清", "Poco"):
        assert f'data-topic="{topic}"' in page
    assert "还没有记忆" not in page


def test_overview_empty_state_when_no_memories(alice_client):
    page = html(alice_client.get(reverse("console:overview")))
    assert "还没有记忆" in page
    state = page[page.index('class="state state-empty"') :]
    for name in ("console:memory_add", "console:memory_import", "console:switches"):
        assert f'href="{reverse(name)}"' in state  # ways to begin, from the empty state
    assert re.search(r'data-stat="total">\s*0\s*<', page)
    assert "暂无" in page  # last change: none yet, not a made-up date


def test_overview_never_counts_another_users_memories(
    alice_client, alice_scope, bob_scope, remember
):
    remember(bob_scope, WEEKLY)
    page = html(alice_client.get(reverse("console:overview")))
    assert re.search(r'data-stat="total">\s*0\s*<', page)
    assert "飞书" not in page
