"""Mem0's platform calls, one view per path, each answered by the service ``/v1`` uses.

A view reads Mem0's input, translates it into the ``/v1`` input it means (``Mem0View.v1_input``
validates that with ``/v1``'s serializer and builds the scope there), calls one service or
selector, and answers in Mem0's shape (``memories.mem0_api.shapes``). A decided outcome that
is not a success answers the user API's status for it (``memories.contract.outcomes``): 400 for a
rejected text, 404 for an unknown id, 403 for another user's, 503 for an outage.
"""

from __future__ import annotations

import ast
import dataclasses
import logging
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from rest_framework import serializers
from rest_framework.exceptions import ParseError
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from lifecycle.ingest import ingest_submit
from lifecycle.manage import manage_memory
from lifecycle.selectors import ingest_job_get, ingest_job_owner
from memories import selectors, services
from memories.admission import Message
from memories.contract import errors
from memories.contract import serializers as io
from memories.contract.fields import (
    AS_OF_HELP,
    StrictBooleanField,
    StrictCharField,
    StrictChoiceField,
    StrictSerializer,
    StrictUUIDField,
)
from memories.contract.outcomes import Edge, http_status
from memories.contract.parsers import ambiguous_json, loads
from memories.digests import log_name
from memories.governance import UNSET
from memories.mem0_api import schema as doc
from memories.mem0_api import shapes
from memories.mem0_api.edge import Mem0View, NotSupported, Refused
from memories.mem0_api.filters import Translated, date_field, narrow, reachable, translate
from memories.ratelimits import RateKind
from memories.types import BackendError, MemoryNotFound, MemoryScope, WriteOutcome, WriteStatus
from memories.usage import Use, count_use

logger = logging.getLogger(__name__)

ORG_ID = "poco-memory"  # one organisation: this server
SOURCE = "mem0"  # what an ingest through this door records as its source
MAX_BATCH = 100
MAX_EXPLICIT_MESSAGES = 20
MAX_PAGE_DIGITS = 9  # past /v1's largest page; int() of thousands of digits is an error


class Mem0Input(StrictSerializer):
    """Mem0's body: unknown fields are refused by name, never ignored, except ``accepted``
    ones that cannot change what is stored or returned (e.g. ``fields``, an answer projection:
    a field name a serializer cannot declare)."""

    accepted: tuple[str, ...] = ()

    def read(self, data: Any) -> dict[str, Any]:
        if not isinstance(data, dict):
            raise serializers.ValidationError({"non_field_errors": ["a JSON object is required"]})
        self.initial_data = {k: v for k, v in data.items() if k not in self.accepted}
        self.is_valid(raise_exception=True)
        return dict(self.validated_data)


def _json(**kwargs: Any) -> serializers.JSONField:
    return serializers.JSONField(required=False, allow_null=True, **kwargs)


def _failure(status: str, reason: str | None) -> Response:
    """A decided outcome that is not a success, with the user API's HTTP status."""
    code = http_status(status, Edge.USER_API)
    message = f"{status}: {reason}" if reason else status
    return Response({"detail": message, "error": errors.error_body(status, message)["error"]}, code)


def _valid_until(day: date | None) -> str | None:
    """A read ``expiration_date`` (null: never) as /v1's ``valid_until``: the memory lives
    through that whole day (UTC), which must end by ``filters.LATEST``."""
    if day is None:
        return None
    start = datetime.combine(day, time.min, tzinfo=UTC)
    end = reachable(start, timedelta(days=1), field="expiration_date", what="expiration_date")
    return end.isoformat()


def _entity(data: dict[str, Any], filters: Any, name: str) -> str:
    """An entity id Mem0 lets a caller send at the top level or inside ``filters``."""
    value = data.get(name)
    if isinstance(filters, dict) and filters.get(name) is not None:
        if value is not None and value != filters[name]:
            raise Refused(f"two different {name} values", name)
        value = filters[name]
    if value is not None and not isinstance(value, str):
        raise Refused(f"{name} must be a string", name)
    return value or ""


# --- ping -------------------------------------------------------------------------------------
class PingView(Mem0View):
    """The client checks its key here when it is built, and needs an org and a project id
    (``mem0/client/project.py``): the project is the tenant the calls will act for; project
    operations themselves answer 501."""

    @doc.mem0_operation(
        operation_id="mem0_ping",
        summary="Check the token (the client does at construction)",
        ok=doc.PingOut,
    )
    def get(self, request: Request) -> Response:
        try:
            project = self.tenant()
        except Refused:  # a token for several tenants, no header: every call names one
            project = "unbound"
        return Response(
            {
                "status": "ok",
                "message": "API key is valid",
                "org_id": ORG_ID,
                "project_id": project,
                "user_email": None,
            }
        )


# --- add --------------------------------------------------------------------------------------
class AddInput(Mem0Input):
    messages = _json()
    user_id = _json()
    agent_id = _json()
    run_id = _json()
    app_id = _json()
    filters = _json()
    metadata = _json()
    infer = StrictBooleanField(required=False, default=True)
    # The ingest is always asynchronous and an explicit add always answers at once: accepted.
    async_mode = StrictBooleanField(required=False)
    version = StrictCharField(max_length=8, required=False)
    output_format = StrictCharField(max_length=8, required=False)
    expiration_date = date_field(required=False, allow_null=True)  # null: never expires


def _messages(raw: Any) -> list[Any]:
    if isinstance(raw, str):
        return [{"role": "user", "content": raw}]
    if isinstance(raw, dict):
        return [raw]
    if isinstance(raw, list) and raw:
        return raw
    raise Refused("messages must be a string, a message or a non-empty list", "messages")


class AddView(Mem0View):
    @doc.mem0_operation(
        operation_id="mem0_add",
        summary="Add: explicit (infer=false) or the queued ingest (infer=true)",
        request=AddInput,
        ok=doc.AddOut,
    )
    def post(self, request: Request) -> Response:
        data = AddInput().read(request.data)
        filters = data.get("filters")
        if filters is not None and not isinstance(filters, dict):
            raise Refused("filters must be an object", "filters")
        extra = set(filters or {}) - {"user_id", "agent_id", "run_id"}
        if data.get("app_id") is not None:
            extra.add("app_id")
        if extra:
            names = ", ".join(sorted(extra))
            raise Refused(f"add takes user_id, agent_id and run_id only; not supported: {names}")
        user_id = _entity(data, filters, "user_id")
        if not user_id:
            raise Refused("name the user: user_id='...'", "user_id")
        entities = {
            "user_id": user_id,
            "agent_id": _entity(data, filters, "agent_id"),
            "run_id": _entity(data, filters, "run_id"),
        }
        messages = _messages(data.get("messages"))
        if data["infer"]:
            return self._ingest(messages, entities, data)
        return self._explicit(messages, entities, data)

    def _ingest(
        self, messages: list[Any], entities: dict[str, str], data: dict[str, Any]
    ) -> Response:
        """Mem0's inferring add is the durable ingest: admission now, extraction in the queue,
        answered as Mem0's asynchronous add (an event id, ``GET /v1/event/<id>/``)."""
        if "expiration_date" in data:
            raise Refused("expiration_date is kept only with infer=False", "expiration_date")
        metadata = data.get("metadata") or {}
        if not isinstance(metadata, dict):
            raise Refused("metadata must be an object", "metadata")
        if entities["agent_id"]:
            metadata = {**metadata, "agent_id": entities["agent_id"]}
        scope, valid, _ = self.v1_input(
            io.IngestInput,
            {
                "user_id": entities["user_id"],
                "run_id": entities["run_id"],
                "source": SOURCE,
                "messages": messages,
                "metadata": metadata,
            },
            rate=RateKind.WRITE,
        )
        submission = ingest_submit(
            scope=scope,
            messages=[Message(role=m["role"], content=m["content"]) for m in valid["messages"]],
            source=valid["source"],
            run_id=valid["run_id"],
            run_kind=valid["run_kind"],
            metadata=valid["metadata"],
        )
        if submission.status == "rejected":
            raise Refused(f"refused by admission: {submission.reason}", "messages")
        if not submission.accepted:
            item = {"status": "SKIPPED", "message": submission.reason, "event_id": None}
            return Response({"results": [item]})
        queued = {"message": shapes.QUEUED_MESSAGE, "status": "PENDING"}
        return Response({"results": [{**queued, "event_id": submission.job_id}]})

    def _explicit(
        self, messages: list[Any], entities: dict[str, str], data: dict[str, Any]
    ) -> Response:
        """``infer=False``: each message's text (system messages aside) is one explicit add,
        with admission, duplicates and keys as ``/v1/memories/manage`` applies them."""
        if data.get("metadata"):
            raise Refused("metadata is kept only with infer=True (the ingest)", "metadata")
        if entities["agent_id"]:
            raise Refused("agent_id is kept only with infer=True (the ingest)", "agent_id")
        if len(messages) > MAX_EXPLICIT_MESSAGES:
            raise Refused(f"at most {MAX_EXPLICIT_MESSAGES} messages with infer=False", "messages")
        for message in messages:
            if not isinstance(message, dict) or not isinstance(message.get("content"), str):
                raise Refused("every message is {role, content} with text content", "messages")
        texts = [m["content"] for m in messages if m.get("role") != "system"]
        body: dict[str, Any] = {"user_id": entities["user_id"], "run_id": entities["run_id"]}
        if "expiration_date" in data:
            body["valid_until"] = _valid_until(data["expiration_date"])
        # Every message is validated before the first is written.
        forms = [
            self.v1_input(io.ManageInput, {**body, "action": "add", "text": t}, rate=None)
            for t in texts
        ]
        if not forms:
            raise Refused("no user or assistant message to add", "messages")
        results = []
        for scope, valid, _ in forms:
            self.count(RateKind.WRITE, scope)
            outcome = manage_memory(
                scope=scope,
                action="add",
                actor=self.caller().actor,
                text=valid["text"],
                valid_until=valid.get("valid_until", UNSET),
                run_id=valid["run_id"],
                run_kind=valid["run_kind"],
            )
            if outcome.status == WriteStatus.BACKEND_ERROR:
                raise BackendError(outcome.reason or "backend_error")
            results.append(_added(outcome, valid["text"]))
        if all(r["status"] == "rejected" for r in results):
            reasons = ", ".join(r["reason"] for r in results)
            raise Refused(f"refused by admission: {reasons}", "messages")
        return Response({"results": results})


def _added(outcome: WriteOutcome, text: str) -> dict[str, Any]:
    if outcome.status in (WriteStatus.ADDED, WriteStatus.UPDATED, WriteStatus.NO_EFFECT):
        added = WriteStatus.ADDED if outcome.status == WriteStatus.UPDATED else outcome.status
        item = {
            "id": outcome.memory_id,
            "memory": text,
            "event": shapes.EVENTS[added],
            "status": outcome.status.value,
        }
        if outcome.superseded_id:
            item["superseded_id"] = outcome.superseded_id
        return item
    # Rejected or refused: the text is not echoed (it may be what admission refused).
    return {
        "id": None,
        "memory": None,
        "event": "NONE",
        "status": outcome.status.value,
        "reason": outcome.reason or outcome.status,
    }


# --- events -----------------------------------------------------------------------------------
class EventView(Mem0View):
    """An asynchronous add's event: the ingest job and the memories it wrote."""

    @doc.mem0_operation(
        operation_id="mem0_event",
        summary="An asynchronous add's event (the ingest job)",
        ok=doc.EventOut,
    )
    def get(self, request: Request, event_id: str) -> Response:
        job_id = StrictUUIDField().run_validation(event_id)
        owner = ingest_job_owner(tenant_id=self.tenant(), job_id=job_id)
        if owner is None:
            raise MemoryNotFound(job_id)
        scope, _, _ = self.v1_input(io.ScopeInput, {"user_id": owner}, rate=None)
        return Response(shapes.event(ingest_job_get(scope=scope, job_id=job_id)))


# --- get_all and search -----------------------------------------------------------------------
class ListInput(Mem0Input):
    filters = _json()
    categories = _json()
    start_date = _json()
    end_date = _json()
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
    for field, operator in (("start_date", "gte"), ("end_date", "lte")):
        if dates and data.get(field):
            narrow(found, "created_at", operator, data[field], field=field)
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
    query = _json()
    filters = _json()
    top_k = _json()
    threshold = _json()
    categories = _json()
    # Ranking hints the service's own recall replaces; they never widen what is returned.
    rerank = StrictBooleanField(required=False)
    keyword_search = StrictBooleanField(required=False)
    latest_only = StrictBooleanField(required=False)
    output_format = StrictCharField(max_length=8, required=False)  # the npm client sends v1.1
    # What was true then: read by /v1's rule (``contract.fields.parse_as_of``), not here.
    as_of = _json(help_text=AS_OF_HELP)
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
        )
        if not result.available:  # an outage is a 503, never an empty success
            raise BackendError(result.error_reason or "search unavailable")
        count_use(scope=scope, memory_ids=[h.id for h in result.items], use=Use.RECALLED)
        return Response(
            {"results": [shapes.search_hit(h, user_id=scope.user_id) for h in result.items]}
        )


# --- one memory by id -------------------------------------------------------------------------
class UpdateInput(Mem0Input):
    text = _json()
    metadata = _json()
    timestamp = _json()
    expiration_date = date_field(required=False, allow_null=True)  # null: never expires


def _update_input(
    view: Mem0View,
    memory_id: str,
    data: dict[str, Any],
    *,
    named_user: str = "",
    rate: RateKind | None = None,
) -> tuple[MemoryScope, dict[str, Any]]:
    """Mem0's update of one memory as /v1's validated update-item input, in the scope of the
    memory's owner (``Mem0View.owner``)."""
    owner = view.owner(memory_id, named_user=named_user)
    if data.get("metadata") is not None:
        raise Refused("updating metadata is not supported; send text", "metadata")
    if data.get("timestamp") is not None:
        raise Refused("a memory's timestamp is the service's own; send text", "timestamp")
    if data.get("text") is None:
        raise Refused("text is required: the corrected memory", "text")
    body = {"user_id": owner, "memory_id": memory_id, "text": data["text"]}
    if "expiration_date" in data:
        body["valid_until"] = _valid_until(data["expiration_date"])
    scope, valid, _ = view.v1_input(io.UpdateItemInput, body, rate=rate)
    return scope, valid


def _correct(view: Mem0View, scope: MemoryScope, valid: dict[str, Any]) -> WriteOutcome:
    """The correction a validated update-item input asks for, as the caller's word."""
    return services.memory_update(
        scope=scope,
        memory_id=valid["memory_id"],
        text=valid["text"],
        valid_until=valid.get("valid_until", UNSET),
        actor=view.caller().actor,
    )


class MemoryView(Mem0View):
    """``get``, ``update`` and ``delete`` of one memory. Mem0 names no user here: the scope is
    the memory's owner within the call's tenant (an optional ``user_id`` parameter names it, and
    another user's id then answers 403)."""

    def _scope(self, memory_id: str) -> MemoryScope:
        scope, _ = self.memory_input(memory_id, named_user=self.named_user())
        return scope

    @doc.mem0_operation(operation_id="mem0_get", summary="get one memory", ok=doc.MemoryOut)
    def get(self, request: Request, memory_id: str) -> Response:
        scope = self._scope(memory_id)
        record = selectors.memory_get(scope=scope, memory_id=memory_id.lower())
        return Response(shapes.memory(record, user_id=scope.user_id))

    @doc.mem0_operation(
        operation_id="mem0_update",
        summary="update: correct one memory in place",
        request=UpdateInput,
        ok=doc.MemoryOut,
    )
    def put(self, request: Request, memory_id: str) -> Response:
        data = UpdateInput().read(request.data)
        scope, valid = _update_input(
            self, memory_id, data, named_user=self.named_user(), rate=RateKind.WRITE
        )
        outcome = _correct(self, scope, valid)
        if not outcome.success:
            return _failure(outcome.status, outcome.reason)
        record = selectors.memory_get(scope=scope, memory_id=valid["memory_id"])
        return Response(
            {**shapes.memory(record, user_id=scope.user_id), "event": shapes.EVENTS[outcome.status]}
        )

    @doc.mem0_operation(
        operation_id="mem0_delete", summary="delete one memory everywhere", ok=doc.MessageOut
    )
    def delete(self, request: Request, memory_id: str) -> Response:
        if self.params.get("delete_linked") not in (None, "false", "False"):
            raise Refused("delete_linked is not supported: superseded memories stay in history")
        scope = self._scope(memory_id)
        outcome = services.memory_delete(
            scope=scope, memory_id=memory_id.lower(), actor=self.caller().actor
        )
        if not outcome.success:
            return _failure(outcome.status, outcome.reason)
        return Response({"message": "Memory deleted successfully!"})


class HistoryView(Mem0View):
    @doc.mem0_operation(
        operation_id="mem0_history",
        summary="history: one memory's trail, oldest first (a deleted one's ends in DELETE)",
        ok=doc.HistoryOut(many=True),
    )
    def get(self, request: Request, memory_id: str) -> Response:
        # As Mem0 keeps a deleted memory's history with its DELETE event, so does this door;
        # the deletion took the text out of every entry (old_memory and new_memory are null).
        scope, valid = self.memory_input(memory_id, named_user=self.named_user(), deleted_too=True)
        entries = selectors.memory_history(scope=scope, memory_id=valid["memory_id"])
        return Response(
            [
                shapes.history_entry(e, memory_id=valid["memory_id"], user_id=scope.user_id)
                for e in entries
            ]
        )


# --- delete_all -------------------------------------------------------------------------------
class DeleteAllView(Mem0View):
    """``delete_all(user_id=...)``: every memory of that user. Nothing narrower or wider: a
    delete by agent, run or app would have to guess, so it is refused."""

    @doc.mem0_operation(
        operation_id="mem0_delete_all",
        summary="delete_all: every memory of one user",
        ok=doc.MessageOut,
    )
    def delete(self, request: Request) -> Response:
        params = self.params
        unknown = sorted(set(params) - {"user_id", "filters"})
        if unknown:
            raise Refused(f"delete_all takes user_id only; not supported: {', '.join(unknown)}")
        filters = _query_filters(params.get("filters"))
        if set(filters) - {"user_id"}:
            raise Refused("delete_all takes user_id only: it deletes every memory of one user")
        user_id = _entity(params, filters, "user_id")
        if not user_id:
            raise Refused("name the user: delete_all(filters={'user_id': '...'})", "user_id")
        return _delete_user(self, user_id, done="Memories deleted successfully!")


def _delete_user(view: Mem0View, user_id: str, *, done: str) -> Response:
    """Forget every memory of one user of the call's tenant: ``done`` as Mem0's message, or the
    failed outcome with the user API's status."""
    scope, _, _ = view.v1_input(io.ScopeInput, {"user_id": user_id}, rate=None)
    outcome = services.memory_delete_user(scope=scope, actor=view.caller().actor)
    if not outcome.success:
        return _failure(outcome.status, outcome.reason)
    return Response({"message": done})


def _query_filters(raw: str | None) -> dict[str, Any]:
    """``filters`` in a query string: JSON (read by ``loads``, as every body is), or the Python
    dict text ``mem0ai``'s client puts there (``str(dict)``), read as a literal only, never
    evaluated. Either way a key twice in one object is refused, never read as its last value."""
    if raw is None:
        return {}
    if len(raw) > 2000:
        raise Refused("filters too long", "filters")
    problem = ambiguous_json(raw.encode())
    if problem is not None:
        raise Refused(f"filters: {problem}", "filters")
    try:
        value = loads(raw.encode())
    except ParseError:
        value = _python_literal(raw)
    if not isinstance(value, dict):
        raise Refused("filters must be an object", "filters")
    return value


def _python_literal(raw: str) -> Any:
    try:
        tree = ast.parse(raw, mode="eval")
        for node in ast.walk(tree):
            if not isinstance(node, ast.Dict):
                continue
            seen: list[Any] = []
            for key in (ast.literal_eval(k) for k in node.keys if k is not None):
                if key in seen:
                    raise Refused(
                        f"filters: the key {key!r} appears twice in one object", "filters"
                    )
                seen.append(key)
        return ast.literal_eval(tree)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        raise Refused("filters must be an object", "filters") from None


# --- batch ------------------------------------------------------------------------------------
class BatchItemInput(Mem0Input):
    memory_id = StrictCharField(max_length=64)
    text = _json()
    metadata = _json()


class BatchInput(Mem0Input):
    memories = BatchItemInput(many=True, min_length=1, max_length=MAX_BATCH)  # type: ignore[call-arg]


class BatchView(Mem0View):
    """Every item is validated and its scope built before the first is changed; then each is
    updated or deleted in order and the answer says what became of each."""

    @doc.mem0_operation(
        operation_id="mem0_batch_update",
        summary="batch_update (at most 100)",
        request=BatchInput,
        ok=doc.BatchOut,
    )
    def put(self, request: Request) -> Response:
        items = BatchInput().read(request.data)["memories"]
        calls = [_update_input(self, item["memory_id"], item) for item in items]
        results = []
        for scope, valid in calls:
            self.count(RateKind.WRITE, scope)
            results.append(_item(valid["memory_id"], _correct(self, scope, valid)))
        return _batch_answer("updated", results)

    @doc.mem0_operation(
        operation_id="mem0_batch_delete",
        summary="batch_delete (at most 100)",
        request=BatchInput,
        ok=doc.BatchOut,
    )
    def delete(self, request: Request) -> Response:
        items = BatchInput().read(request.data)["memories"]
        scopes = [self.memory_input(item["memory_id"]) for item in items]
        results = []
        for scope, valid in scopes:
            outcome = services.memory_delete(
                scope=scope, memory_id=valid["memory_id"], actor=self.caller().actor
            )
            results.append(_item(valid["memory_id"], outcome))
        return _batch_answer("deleted", results)


def _item(memory_id: str, outcome: Any) -> dict[str, Any]:
    return {"memory_id": memory_id, "status": str(outcome.status), "reason": outcome.reason}


def _batch_answer(done: str, results: list[dict[str, Any]]) -> Response:
    succeeded = [r for r in results if r["status"] in ("updated", "no_effect", "deleted")]
    body: dict[str, Any] = {
        "message": f"Successfully {done} {len(succeeded)} memories",
        "results": results,
    }
    failed = [r for r in results if r not in succeeded]
    if not failed:
        return Response(body)
    first = failed[0]
    body["detail"] = f"{len(failed)} of {len(results)} not {done}: {first['status']}"
    return Response(body, status=http_status(first["status"], Edge.USER_API))


# --- feedback ---------------------------------------------------------------------------------
class FeedbackInput(Mem0Input):
    memory_id = StrictCharField(max_length=64)
    feedback = StrictChoiceField(
        choices=["POSITIVE", "NEGATIVE", "VERY_NEGATIVE"], required=False, allow_null=True
    )
    feedback_reason = StrictCharField(
        max_length=1000, required=False, allow_null=True, allow_blank=True
    )


class FeedbackView(Mem0View):
    """Recorded in the service's log (the memory id and the verdict, never the reason's text);
    it changes nothing."""

    @doc.mem0_operation(
        operation_id="mem0_feedback",
        summary="feedback: logged, changes nothing",
        request=FeedbackInput,
        ok=doc.MessageOut,
    )
    def post(self, request: Request) -> Response:
        data = FeedbackInput().read(request.data)
        scope, valid = self.memory_input(data["memory_id"])
        logger.info(
            "mem0 feedback: scope=%s memory=%s feedback=%s",
            log_name(scope.key),
            valid["memory_id"],
            data.get("feedback"),
        )
        return Response(
            {
                "message": "Feedback recorded",
                "memory_id": valid["memory_id"],
                "feedback": data.get("feedback"),
                "feedback_reason": data.get("feedback_reason"),
            }
        )


# --- entities ---------------------------------------------------------------------------------
class EntitiesView(Mem0View):
    """``users()``: the tenant's users who have memories. Agents, apps and runs own no
    memories here, so only users are listed."""

    @doc.mem0_operation(
        operation_id="mem0_users",
        summary="users: the tenant's users with memories",
        ok=doc.EntitiesOut,
    )
    def get(self, request: Request) -> Response:
        tenant = self.tenant()
        self.caller().check_tenant(tenant)
        return Response(
            {"results": [shapes.entity(u) for u in selectors.tenant_users(tenant_id=tenant)]}
        )


class EntityView(Mem0View):
    """``delete_users(user_id=...)`` (and ``reset()``, user by user): every memory of one
    user, as ``delete_all`` does."""

    @doc.mem0_operation(
        operation_id="mem0_delete_users",
        summary="delete_users: every memory of one user",
        ok=doc.MessageOut,
    )
    def delete(self, request: Request, entity_type: str, name: str) -> Response:
        if entity_type != "user":
            raise Refused(
                f"deleting a {entity_type} is not supported: memories here belong to a user"
            )
        return _delete_user(self, name, done="Entity deleted successfully.")


# --- what only the hosted platform has --------------------------------------------------------
class NotSupportedView(Mem0View):
    """Profiles, webhooks, projects, exports, summaries: the hosted platform's own.
    501 with a ``detail`` the client raises as its error (no token needed to hear it)."""

    authentication_classes: list[Any] = []
    permission_classes = [AllowAny]

    def _refuse(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        raise NotSupported(
            f"not supported by this server: {request.method} {request.path} is a feature of "
            "Mem0's hosted platform (docs/mem0-compat.md lists what is supported)"
        )

    get = post = put = patch = delete = _refuse
