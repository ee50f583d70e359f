"""One memory by id (get, update, delete, history), Mem0's batches of them, and feedback."""

from __future__ import annotations

import logging
from typing import Any

from rest_framework.request import Request
from rest_framework.response import Response

from edges.contract import serializers as io
from edges.contract.fields import StrictCharField, StrictChoiceField
from edges.contract.outcomes import Edge, http_status
from edges.mem0_api import schema as doc
from edges.mem0_api import shapes
from edges.mem0_api.edge import Mem0Input, Mem0View, Refused, failure_response, json_field
from edges.mem0_api.filters import date_field, valid_until
from memories import selectors, services
from memories.digests import log_name
from memories.governance import UNSET
from memories.ratelimits import RateKind
from memories.types import MemoryScope, WriteOutcome

logger = logging.getLogger(__name__)

MAX_BATCH = 100


# --- one memory by id -------------------------------------------------------------------------
class UpdateInput(Mem0Input):
    text = json_field()
    metadata = json_field()
    timestamp = json_field()
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
        body["valid_until"] = valid_until(data["expiration_date"])
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
            return failure_response(outcome.status, outcome.reason)
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
            return failure_response(outcome.status, outcome.reason)
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
            shapes.history(entries, memory_id=valid["memory_id"], user_id=scope.user_id)
        )


# --- batch ------------------------------------------------------------------------------------
class BatchItemInput(Mem0Input):
    memory_id = StrictCharField(max_length=64)
    text = json_field()
    metadata = json_field()


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
