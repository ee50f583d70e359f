"""Browsing: the overview and the list, filtered, paged or searched by meaning."""

from __future__ import annotations

import dataclasses
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET
from django.views.decorators.vary import vary_on_headers

from edges.console import charts
from edges.console.activity import with_last_changed, with_use
from edges.console.filters import ListFilters
from edges.console.forms import MemoryFilterForm
from edges.console.presenters import memory_item, search_item
from edges.console.views.base import (
    HtmxHttpRequest,
    console_login_required,
    partial,
    request_scope,
    swaps_fragment,
)
from edges.console.views.selection import meaning_search
from memories import selectors
from memories.labels import category_label, source_label
from memories.types import Category, ListQuery, MemoryScope, StatusFilter

TOPIC_LIMIT = 30


def _heat(scope: MemoryScope) -> tuple[tuple[charts.HeatCell, ...], int]:
    """The most linked topics without noise phrases, and how many topics are not shown."""
    topics = [
        t
        for t in selectors.topic_heatmap(scope=scope, limit=TOPIC_LIMIT)
        if not charts.is_noise_topic(t)
    ]
    return charts.heat_cells(topics), max(0, selectors.topic_count(scope=scope) - len(topics))


def _learned(scope: MemoryScope) -> dict[str, Any]:
    """ "最近记住的": the memories agents wrote lately that wait for the user's look."""
    learned = selectors.memories_recently_learned(scope=scope)
    return {"items": [memory_item(r) for r in learned.items], "unreviewed": learned.unreviewed}


# --- overview ---------------------------------------------------------------------------------
@console_login_required
@require_GET
def overview(request: HtmxHttpRequest) -> HttpResponse:
    scope = request_scope(request)
    data = selectors.memory_overview(scope=scope)
    heat, more_topics = _heat(scope)
    context = {
        "overview": data,
        "learned": _learned(scope),
        "learned_days": selectors.LEARNED_DAYS,
        "heat": heat,
        "more_topics": more_topics,
        "trend": charts.trend_chart(data.daily),
        "trend_wide": charts.trend_chart(data.daily, **charts.TREND_WIDE),
        "sources": charts.donut(data.sources, source_label),
        "categories": charts.bar_chart(
            data.categories, [c.value for c in Category], category_label
        ),
        "switches": selectors.memory_switches(scope=scope),
    }
    return render(request, "console/overview.html", context)


# --- list and search --------------------------------------------------------------------------
@console_login_required
@require_GET
@vary_on_headers("HX-Request", "HX-Target")
def memories(request: HtmxHttpRequest) -> HttpResponse:
    scope = request_scope(request)
    form = MemoryFilterForm(request.GET)
    filters = form.filters()
    heat, more_topics = _heat(scope)
    context: dict[str, Any] = {
        "form": form,
        "filters": filters,
        "heat": heat,
        "more_topics": more_topics,
        "topic_label": next((c.text for c in heat if c.id == filters.topic), filters.topic),
        "oob_filter_count": swaps_fragment(request),
    }
    status = 200
    if filters.semantic:
        result = meaning_search(scope, filters)
        context |= {"search": result, "items": [search_item(h) for h in result.items]}
        if not result.available:
            status = 503
    else:
        page = _list_page(scope, filters)
        if page.page != filters.page and not request.htmx:
            # past the end (a stale link, a typed number): the address says the page shown
            return redirect(f"{request.path}{_query_with(request, page=page.page)}")
        items = with_use(scope, with_last_changed(scope, [memory_item(r) for r in page.items]))
        context |= {"page": page, "items": items, "reversed_dates": filters.reversed_dates}
    if not request.htmx or request.htmx.history_restore_request:  # the whole page, its header
        context["has_memories"] = bool(
            selectors.memory_list(
                scope=scope, query=ListQuery(page_size=1, status=StatusFilter.ALL)
            ).total
        )
    # Typing swaps only the results (the search box keeps its focus and what was typed since);
    # filters, topics and the topic chip swap the whole list body.
    fragment = "results" if request.htmx.target == "results" else "list-body"
    template = partial(request, "console/memory_list.html", fragment)
    return render(request, template, context, status=status)


def _query_with(request: HttpRequest, **changes: Any) -> str:
    query = request.GET.copy()
    for key, value in changes.items():
        query[key] = str(value)
    return f"?{query.urlencode()}"


def _list_page(scope: MemoryScope, filters: ListFilters) -> selectors.MemoryPage:
    query = filters.list_query()
    page = selectors.memory_list(scope=scope, query=query)
    if page.total and page.page > page.pages:  # a stale link after deletes: show the last page
        last = dataclasses.replace(query, page=page.pages)
        page = selectors.memory_list(scope=scope, query=last)
    return page
