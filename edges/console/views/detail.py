"""A memory's page: its text, history, origin, use, governance card and related memories."""

from __future__ import annotations

import dataclasses
from typing import Any

from django.conf import settings
from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET
from django.views.decorators.vary import vary_on_headers

from edges.console.governance import governance_item
from edges.console.presenters import history_items, memory_item, origin_item, related_item
from edges.console.views.base import HtmxHttpRequest, console_login_required, for_owned_memory
from memories import selectors, services
from memories.context import BUDGET_CHARS, MAX_FACTS
from memories.types import ListQuery, MemoryRecord, MemoryScope, StatusFilter

RELATED_LIMIT = 5


def history_context(
    record: MemoryRecord, entries: tuple[selectors.HistoryEntry, ...]
) -> dict[str, Any]:
    """The memory, its history and "最近更新": what every change on the detail page updates."""
    history = history_items(entries, current_text=record.content)
    return {
        "memory": memory_item(record),
        "history": history,
        # "最近更新" is the newest entry of the history shown beside it, so the two agree;
        # the payload's clock only when there is no history.
        "last_changed_at": history[0].created_at if history else record.updated_at,
    }


def detail_context(scope: MemoryScope, record: MemoryRecord) -> dict[str, Any]:
    entries = selectors.memory_history(scope=scope, memory_id=record.id)
    origin = origin_item(record, entries, run_url_template=settings.RUN_URL_TEMPLATE)
    if origin.run_id:
        origin = dataclasses.replace(
            origin,
            run_memory_count=selectors.memory_list(
                scope=scope,
                query=ListQuery(run_id=origin.run_id, status=StatusFilter.ALL, page_size=1),
            ).total,
        )
    return {
        **history_context(record, entries),
        "governance": governance_item(record),
        "origin": origin,
        "use": selectors.memory_use(scope=scope, memory_id=record.id),
        "max_pins": services.MAX_PINS,
        # what the automatic context takes each run (the pin help names these limits)
        "context_facts": MAX_FACTS,
        "context_chars": BUDGET_CHARS,
        # Only what clears search's own relevance floor: the nearest of unrelated facts is
        # still unrelated ("没有密切相关的记忆" instead).
        "related": [
            related_item(r)
            for r in selectors.memory_related(scope=scope, memory_id=record.id, limit=RELATED_LIMIT)
            if r.score >= settings.SEARCH_MIN_SCORE
        ],
    }


@console_login_required
@require_GET
@vary_on_headers("HX-Request", "HX-Target")
@for_owned_memory
def memory_detail(
    request: HtmxHttpRequest, scope: MemoryScope, record: MemoryRecord
) -> HttpResponse:
    context = detail_context(scope, record)
    if request.htmx and request.htmx.target == "fact-card":  # "cancel" of the inline editor
        context["oob_messages"] = True
        return render(request, "console/memory_detail.html#fact-card", context)
    return render(request, "console/memory_detail.html", context)
