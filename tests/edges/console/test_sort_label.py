"""The list's sort control names the order the results are in: a meaning search ranks by
relevance, so it says so instead of the keyword list's "最近创建"."""

from __future__ import annotations

import re

from django.urls import reverse

HTMX = {"HTTP_HX_REQUEST": "true"}


def sort_control(page: str) -> str:
    match = re.search(r'<div class="field" id="sort-field".*?</div>', page, re.DOTALL)
    assert match, "no sort control"
    return match.group(0)


def selected(control: str) -> str:
    match = re.search(r"<option[^>]*\bselected\b[^>]*>([^<]*)<", control)
    assert match, control
    return match.group(1)


def test_a_meaning_search_says_it_is_sorted_by_relevance(alice_client, alice_scope, remember):
    remember(alice_scope, "周报使用飞书文档撰写。")
    url = reverse("console:memories")
    keyword = alice_client.get(url, {"q": "周报"}).content.decode()
    assert selected(sort_control(keyword)) == "最近创建"
    meaning = alice_client.get(url, {"q": "周报", "mode": "semantic"}).content.decode()
    assert selected(sort_control(meaning)) == "按相关度"
    assert "最近创建" not in sort_control(meaning)
    # Switching the mode swaps the results only: the control is swapped beside them.
    swapped = alice_client.get(
        url, {"q": "周报", "mode": "semantic"}, HTTP_HX_TARGET="results", **HTMX
    ).content.decode()
    control = sort_control(swapped)
    assert 'hx-swap-oob="true"' in control and selected(control) == "按相关度"
