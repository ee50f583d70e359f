"""Which memories an action on the list is for: the ticked rows, or every one the list's
filter matches (read again here, never ids the page sent), and the list's search by meaning."""

from __future__ import annotations

import dataclasses
import uuid
from urllib.parse import urlsplit

from django.http import QueryDict

from edges.console.filters import ListFilters
from edges.console.forms import SEMANTIC_TOP_K, MemoryFilterForm
from edges.console.views.base import HtmxHttpRequest, owned_record
from memories import selectors
from memories.types import MemoryRecord, MemoryScope, SearchFilters, SearchResult


def meaning_search(scope: MemoryScope, filters: ListFilters) -> SearchResult:
    """The list's search by meaning: the page and "all matching" ask it the same way."""
    return selectors.memory_search(
        scope=scope,
        query=filters.q,
        top_k=SEMANTIC_TOP_K,
        filters=SearchFilters(category=filters.category, source=filters.source),
    )


MAX_SELECTED = 100
# "选择全部 N 条匹配的记忆": the rows the list's filter matches, read again here (never ids the
# page sent), at most this many in one confirmation.
MAX_MATCHING = 500


def selected_records(request: HtmxHttpRequest, scope: MemoryScope, back: str) -> list[MemoryRecord]:
    """The signed-in user's memories a bulk action is for: every one the list at ``back``
    matches when "all matching" was chosen, else the ticked ids (unknown ones dropped)."""
    if request.POST.get("all_matching") == "1":
        query = QueryDict(urlsplit(back).query)
        filters = MemoryFilterForm(query).filters()
        if filters.semantic:
            result = meaning_search(scope, filters)
            ids = [h.id for h in result.items]
        else:
            ids = []
            page_number = 1
            while len(ids) < MAX_MATCHING:
                base = dataclasses.replace(filters, page=page_number)
                page = selectors.memory_list(scope=scope, query=base.list_query(page_size=100))
                ids += [r.id for r in page.items]
                if page_number >= page.pages:
                    break
                page_number += 1
        raw_ids = ids[:MAX_MATCHING]
    else:
        raw_ids = request.POST.getlist("ids")[:MAX_SELECTED]
    records = []
    for raw in raw_ids:
        try:
            memory_id = uuid.UUID(str(raw))
        except ValueError:
            continue
        record = owned_record(scope, memory_id)
        if record is not None:
            records.append(record)
    return records
