"""Mem0's add (explicit with ``infer=False``, the queued ingest with ``infer=True``) and the
event an asynchronous add answers with (the ingest job)."""

from __future__ import annotations

from typing import Any

from rest_framework.request import Request
from rest_framework.response import Response

from edges.contract import serializers as io
from edges.contract.fields import StrictBooleanField, StrictCharField, StrictUUIDField
from edges.mem0_api import schema as doc
from edges.mem0_api import shapes
from edges.mem0_api.edge import Mem0Input, Mem0View, Refused, entity_id, json_field
from edges.mem0_api.filters import date_field, valid_until
from lifecycle.ingest import ingest_submit
from lifecycle.manage import manage_memory
from lifecycle.selectors import ingest_job_get, ingest_job_owner
from memories.admission import Message
from memories.governance import UNSET
from memories.ratelimits import RateKind
from memories.types import BackendError, MemoryNotFound, WriteOutcome, WriteStatus

SOURCE = "mem0"  # what an ingest through this door records as its source


MAX_EXPLICIT_MESSAGES = 20


# --- add --------------------------------------------------------------------------------------
class AddInput(Mem0Input):
    messages = json_field()
    user_id = json_field()
    agent_id = json_field()
    run_id = json_field()
    app_id = json_field()
    filters = json_field()
    metadata = json_field()
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
        user_id = entity_id(data, filters, "user_id")
        if not user_id:
            raise Refused("name the user: user_id='...'", "user_id")
        entities = {
            "user_id": user_id,
            "agent_id": entity_id(data, filters, "agent_id"),
            "run_id": entity_id(data, filters, "run_id"),
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
            body["valid_until"] = valid_until(data["expiration_date"])
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
