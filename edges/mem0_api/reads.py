"""Mem0's ``get_all`` and ``search``: the user's current memories, filtered as /v1 filters."""

from __future__ import annotations

import dataclasses
from typing import Any

from rest_framework.request import Request
from rest_framework.response import Response

from edges.contract import serializers as io
from edges.contract.fields import AS_OF_HELP, StrictBooleanField, StrictCharField
from edges.mem0_api import schema as doc
from edges.mem0_api import shapes
from edges.mem0_api.edge import Mem0Input, Mem0View, Refused, json_field
from edges.mem0_api.filters import Translated, narrow, refuse_empty_ranges, translate
from memories import selectors
from memories.ratelimits import RateKind
from memories.types import BackendError

MAX_PAGE_DIGITS = 9  # past /v1's largest page; int() of thousands of digits is an error


# --- get_all and search -----------------------------------------------------------------------
class ListInput(Mem0Input):
    filters = json_field()
    categories = json_field()
    start_date = json_field()
    end_date = json_field()
    show_expired = StrictBooleanField(required=False)
    latest_only = StrictBooleanField(required=False)  # only current memories are listed: true
    accepted = ("fields",)


def _current_filters(data: dict[str, Any], *, dates: bool = False) -> Translated:
    """What a ``get_all`` or a ``search`` asks for: its Mem0 ``filters`` with the top-level
    ``categories`` (and, with ``dates``, ``get_all``'s ``start_date``/``end_date``: the creation
    range they stand for, a bad one refused by its own name) folded in as the conditions they
    stand for, translated. Both read current memories only, so ``latest_only=False`` is refused
    rather than ignored."""
    if data.get("latest_only") is False:
        raise Refused(
            "latest_only=False is not supported: only current memories are listed or recalled"
        )
    conditions = [data.get("filters") or {}]
    if data.get("categories") is not None:
        conditions.append({"categories": data["categories"]})
    found = translate({"AND": conditions})
    bounds = [("start_date", "gte"), ("end_date", "lte")] if dates else []
    sent = [(field, operator) for field, operator in bounds if data.get(field)]
    for field, operator in sent:
        narrow(found, "created_at", operator, data[field], field=field)
    if sent:  # the filters' own ranges were checked by ``translate``; a date may empty them
        refuse_empty_ranges(found, field=sent[-1][0])
    return found


def _page_param(view: Mem0View, name: str, default: int) -> int:
    """A page parameter of the query string as the number /v1's ``ListInput`` bounds: ASCII
    digits only (``str.isdigit`` also takes "²", which ``int`` refuses)."""
    raw = view.params.get(name)
    if raw is None:
        return default
    if not (raw.isascii() and raw.isdigit() and len(raw) <= MAX_PAGE_DIGITS):
        raise Refused(f"{name} must be a positive integer", name)
    return int(raw)


class ListView(Mem0View):
    """``get_all``: the user's current memories, newest first, a page at a time."""

    @doc.mem0_operation(
        operation_id="mem0_get_all",
        summary="get_all: the user's current memories, a page at a time",
        request=ListInput,
        ok=doc.ListOut,
    )
    def post(self, request: Request) -> Response:
        data = ListInput().read(request.data)
        if data.get("show_expired"):
            raise Refused("show_expired is not supported: expired memories are not listed")
        narrowed = _current_filters(data, dates=True)
        if narrowed.updated_after or narrowed.updated_before:
            raise Refused("get_all filters created_at only; search also takes updated_at")
        scope, _, form = self.v1_input(
            io.ListInput,
            {
                "user_id": narrowed.user_id,
                "category": narrowed.category,
                "page": _page_param(self, "page", 1),
                "page_size": _page_param(self, "page_size", 100),
            },
            rate=None,
        )
        assert isinstance(form, io.ListInput)
        query = dataclasses.replace(
            form.list_query(),
            created_from=narrowed.created_after,
            created_before=narrowed.created_before,
        )
        page = selectors.memory_list(scope=scope, query=query)

        def link(number: int) -> str:
            return request.build_absolute_uri(
                f"{request.path}?page={number}&page_size={page.page_size}"
            )

        return Response(
            {
                "count": page.total,
                "next": link(page.page + 1) if page.page < page.pages else None,
                "previous": link(page.page - 1) if page.page > 1 else None,
                "results": [shapes.memory(r, user_id=scope.user_id) for r in page.items],
            }
        )


class SearchInput(Mem0Input):
    query = json_field()
    filters = json_field()
    top_k = json_field()
    threshold = json_field()
    categories = json_field()
    # Ranking hints the service's own recall replaces; they never widen what is returned.
    rerank = StrictBooleanField(required=False)
    keyword_search = StrictBooleanField(required=False)
    latest_only = StrictBooleanField(required=False)
    output_format = StrictCharField(max_length=8, required=False)  # the npm client sends v1.1
    # What was true then: read by /v1's rule (``contract.fields.parse_as_of``), not here.
    as_of = json_field(help_text=AS_OF_HELP)
    accepted = ("fields",)


class SearchView(Mem0View):
    """Recall (meaning, words, names) in the user's current memories, best first."""

    @doc.mem0_operation(
        operation_id="mem0_search",
        summary="search: recall in the user's current memories",
        request=SearchInput,
        ok=doc.SearchOut,
    )
    def post(self, request: Request) -> Response:
        data = SearchInput().read(request.data)
        found = _current_filters(data)
        body: dict[str, Any] = {"query": data.get("query"), **found.v1_fields()}
        if data.get("top_k") is not None:
            body["top_k"] = data["top_k"]
        if data.get("threshold") is not None:
            body["min_score"] = data["threshold"]
        if data.get("as_of") is not None:
            body["as_of"] = data["as_of"]
        scope, valid, form = self.v1_input(io.SearchInput, body, rate=RateKind.SEARCH)
        assert isinstance(form, io.SearchInput)
        result = selectors.memory_search(
            scope=scope,
            query=valid["query"],
            top_k=valid["top_k"],
            min_score=valid.get("min_score"),
            filters=form.filters(),
            counted=True,
        )
        if not result.available:  # an outage is a 503, never an empty success
            raise BackendError(result.error_reason or "search unavailable")
        # Mem0's results carry their times; the hits do not (recall ranks, it does not read rows).
        records = selectors.memory_records(scope=scope, memory_ids=[h.id for h in result.items])
        return Response(
            {
                "results": [
                    shapes.search_hit(h, user_id=scope.user_id, record=records.get(h.id))
                    for h in result.items
                ]
            }
        )
