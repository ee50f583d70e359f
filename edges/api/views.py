"""The internal /v1/memories/* contract. Views validate, call one service/selector, answer.

Decided outcomes answer their body with the status of ``edges.contract.outcomes`` (200 for
every decided outcome except ``forbidden`` 403, ``backend_error`` 503, ``partial_cleanup``
500). Unknown or foreign ids of by-id reads, bad input and outages are raised and answered by
``edges.contract.errors.exception_handler`` in the one error shape.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from edges.api.schema import REFUSALS, failure_statuses, outcome_or_error, v1_operation
from edges.contract import serializers as io
from edges.contract import shapes
from edges.contract.auth import IsServiceCaller, ServiceCaller, ServiceTokenAuthentication
from edges.contract.outcomes import Edge
from edges.contract.parsers import query_params
from edges.contract.responses import outcome_response
from lifecycle.ingest import ingest_submit
from lifecycle.manage import manage_memory
from lifecycle.policy import is_scheduled
from lifecycle.selectors import ingest_job_get
from memories import selectors, services
from memories.admission import Message
from memories.context import memory_context
from memories.governance import UNSET
from memories.ops import portability
from memories.ratelimits import RateKind, rate_check
from memories.types import Actor

SCOPE = {"tenant_id": "acme", "user_id": "alice"}
MEMORY_ID = "3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b"
# 403: the forbidden outcome (another user's id in the tenant), or a token bound to other tenants.
WRITE_FAILURES = failure_statuses("Write", shapes.WriteOutput)
DELETE_FAILURES = failure_statuses("Delete", shapes.DeleteOutput)


def service_actor(request: Request) -> Actor:
    caller = request.user
    assert isinstance(caller, ServiceCaller), "IsServiceCaller guards every /v1 view"
    return caller.actor


class ServiceAPIView(APIView):
    authentication_classes = [ServiceTokenAuthentication]
    permission_classes = [IsServiceCaller]
    input_serializer: type[io.ScopeInput] = io.ScopeInput
    # Which rate limit the call counts against (memories.ratelimits); None for reads, deletes.
    rate_kind: RateKind | None = None

    def validated(self, request: Request) -> tuple[io.ScopeInput, dict[str, Any]]:
        if not isinstance(request.data, dict):
            raise serializers.ValidationError({"non_field_errors": ["a JSON object is required"]})
        form = self.input_serializer(data=request.data, context={"caller": request.user})
        form.is_valid(raise_exception=True)
        if self.rate_kind is not None:
            # Here the scope and the token are both known: counted once per call.
            token = service_actor(request).id
            rate_check(kind=self.rate_kind, scope=form.scope(), token=token)
        return form, dict(form.validated_data)


class SearchView(ServiceAPIView):
    input_serializer = io.SearchInput
    rate_kind = RateKind.SEARCH

    @v1_operation(
        summary="Recall the scope's memories closest to a query",
        description="An outage answers 200 with `available: false`, never an empty success.",
        request=io.SearchInput,
        ok=shapes.SearchOutput,
        example={**SCOPE, "query": "用户喜欢什么样的回答？", "top_k": 5},
    )
    def post(self, request: Request) -> Response:
        form, data = self.validated(request)
        assert isinstance(form, io.SearchInput)
        result = selectors.memory_search(
            scope=form.scope(),
            query=data["query"],
            top_k=data["top_k"],
            min_score=data.get("min_score"),
            filters=form.filters(),
            counted=True,
        )
        return Response(shapes.SearchOutput(result).data)


class ContextView(ServiceAPIView):
    """Facts to inject before an interactive run's input; 200 even on an outage,
    with ``available: false``, so the run goes on without memory."""

    input_serializer = io.ContextInput
    rate_kind = RateKind.SEARCH

    @v1_operation(
        summary="Background facts to inject before an interactive run's input",
        description=(
            "At most 3 whole facts within 800 characters, framed as low-priority, untrusted "
            "background; empty for input under 10 characters, a scheduled run or "
            "`memory_reference_enabled` off. An outage answers 200 with `available: false`."
        ),
        request=io.ContextInput,
        ok=shapes.ContextOutput,
        example={**SCOPE, "input": "帮我写一份 Poco 项目的技术方案", "run_kind": "interactive"},
    )
    def post(self, request: Request) -> Response:
        form, data = self.validated(request)
        context = memory_context(
            scope=form.scope(),
            user_input=data["input"],
            interactive=not is_scheduled(data["run_kind"]),
            as_of=data.get("as_of"),
            counted=True,
        )
        return Response(shapes.ContextOutput(context).data)


class ListUserView(ServiceAPIView):
    input_serializer = io.ListInput

    @v1_operation(
        summary="Page through the scope's memories, newest first",
        request=io.ListInput,
        ok=shapes.ListOutput,
        example={**SCOPE, "page": 1, "page_size": 20, "category": "preference"},
    )
    def post(self, request: Request) -> Response:
        form, _ = self.validated(request)
        assert isinstance(form, io.ListInput)
        page = selectors.memory_list(scope=form.scope(), query=form.list_query())
        return Response(shapes.ListOutput(page).data)


class OverviewView(ServiceAPIView):
    @v1_operation(
        summary="Totals, 30-day changes, sources, categories and the 90-day trend",
        request=io.ScopeInput,
        ok=shapes.OverviewOutput,
        example=SCOPE,
    )
    def post(self, request: Request) -> Response:
        form, _ = self.validated(request)
        return Response(shapes.OverviewOutput(selectors.memory_overview(scope=form.scope())).data)


class TopicsView(ServiceAPIView):
    input_serializer = io.TopicsInput

    @v1_operation(
        summary="The topic heat map (entities by linked memories)",
        request=io.TopicsInput,
        ok=shapes.TopicsOutput,
        example={**SCOPE, "limit": 40},
    )
    def post(self, request: Request) -> Response:
        form, data = self.validated(request)
        topics = selectors.topic_heatmap(scope=form.scope(), limit=data["limit"])
        return Response(shapes.TopicsOutput({"items": topics}).data)


class RelatedView(ServiceAPIView):
    input_serializer = io.RelatedInput

    @v1_operation(
        summary="The memories of the same scope closest to one memory",
        request=io.RelatedInput,
        ok=shapes.RelatedOutput,
        extra=REFUSALS,
        example={**SCOPE, "memory_id": MEMORY_ID, "limit": 5},
    )
    def post(self, request: Request) -> Response:
        form, data = self.validated(request)
        related = selectors.memory_related(
            scope=form.scope(), memory_id=data["memory_id"], limit=data["limit"]
        )
        return Response(shapes.RelatedOutput({"items": related}).data)


class HistoryView(ServiceAPIView):
    input_serializer = io.MemoryIdInput

    @v1_operation(
        summary="The change trail of one memory, oldest first",
        request=io.MemoryIdInput,
        ok=shapes.HistoryOutput,
        extra=REFUSALS,
        example={**SCOPE, "memory_id": MEMORY_ID},
    )
    def post(self, request: Request) -> Response:
        form, data = self.validated(request)
        memory_id = data["memory_id"]
        entries = selectors.memory_history(scope=form.scope(), memory_id=memory_id)
        return Response(shapes.HistoryOutput({"memory_id": memory_id, "items": entries}).data)


class UpdateItemView(ServiceAPIView):
    input_serializer = io.UpdateItemInput
    rate_kind = RateKind.WRITE

    @v1_operation(
        summary="Correct one memory in place (the id stays); text is required",
        request=io.UpdateItemInput,
        ok=shapes.WriteOutput,
        extra=WRITE_FAILURES,
        example={**SCOPE, "memory_id": MEMORY_ID, "text": "用户偏好英文技术文档。"},
    )
    def post(self, request: Request) -> Response:
        form, data = self.validated(request)
        outcome = services.memory_update(
            scope=form.scope(),
            memory_id=data["memory_id"],
            text=data["text"],
            category=data.get("category"),
            memory_key=data.get("memory_key"),
            valid_until=data.get("valid_until", UNSET),
            actor=service_actor(request),
        )
        return outcome_response(
            shapes.WriteOutput, dataclasses.replace(outcome, action="update"), edge=Edge.V1
        )


class DeleteItemView(ServiceAPIView):
    input_serializer = io.MemoryIdInput

    @v1_operation(
        summary="Forget one memory everywhere (row, entities, history text)",
        request=io.MemoryIdInput,
        ok=shapes.DeleteOutput,
        extra=DELETE_FAILURES,
        example={**SCOPE, "memory_id": MEMORY_ID},
    )
    def post(self, request: Request) -> Response:
        form, data = self.validated(request)
        outcome = services.memory_delete(
            scope=form.scope(), memory_id=data["memory_id"], actor=service_actor(request)
        )
        return outcome_response(shapes.DeleteOutput, outcome, edge=Edge.V1)


class DeleteUserView(ServiceAPIView):
    @v1_operation(
        summary="Forget every memory of the scope",
        request=io.ScopeInput,
        ok=shapes.DeleteOutput,
        extra=DELETE_FAILURES,
        example=SCOPE,
    )
    def post(self, request: Request) -> Response:
        form, _ = self.validated(request)
        outcome = services.memory_delete_user(scope=form.scope(), actor=service_actor(request))
        return outcome_response(shapes.DeleteOutput, outcome, edge=Edge.V1)


class ManageView(ServiceAPIView):
    input_serializer = io.ManageInput
    rate_kind = RateKind.WRITE

    @v1_operation(
        summary="One explicit decision: add, update, delete or none",
        description=(
            "`text` is required for add and update; `memory_id` (from search) for update and "
            "delete. A refused (switch off, scheduled run), rejected (admission) or not_found "
            "decision answers 200 with `success: false` and the reason."
        ),
        request=io.ManageInput,
        ok=shapes.WriteOutput,
        extra=WRITE_FAILURES,
        example={**SCOPE, "action": "add", "text": "用户偏好简体中文技术方案。"},
    )
    def post(self, request: Request) -> Response:
        form, data = self.validated(request)
        outcome = manage_memory(
            scope=form.scope(),
            action=data["action"],
            actor=service_actor(request),
            memory_id=data.get("memory_id"),
            text=data.get("text", ""),
            category=data.get("category"),
            confidence=data.get("confidence"),
            memory_key=data.get("memory_key"),
            valid_until=data.get("valid_until", UNSET),
            run_id=data["run_id"],
            run_kind=data["run_kind"],
        )
        return outcome_response(shapes.WriteOutput, outcome, edge=Edge.V1)


class IngestView(ServiceAPIView):
    """Add-only auto-ingest: admission now, extraction later in a worker (202 + job id)."""

    input_serializer = io.IngestInput
    rate_kind = RateKind.WRITE

    @v1_operation(
        summary="Submit a finished task's messages for add-only extraction",
        description=(
            "Send exactly one of `messages` (new shape) or `text` (legacy: one user message). "
            "202 when queued; 200 with `accepted: false` when admission rejected or policy "
            "skipped it."
        ),
        request=io.IngestInput,
        ok=shapes.IngestAcceptedOutput,
        ok_status=202,
        extra={200: shapes.IngestAcceptedOutput},
        example={
            **SCOPE,
            "run_id": "run-42",
            "source": "task_completed",
            "messages": [{"role": "user", "content": "以后都用简体中文回答我。"}],
        },
    )
    def post(self, request: Request) -> Response:
        form, data = self.validated(request)
        submission = ingest_submit(
            scope=form.scope(),
            messages=[Message(role=m["role"], content=m["content"]) for m in data["messages"]],
            source=data["source"],
            run_id=data["run_id"],
            run_kind=data["run_kind"],
            metadata=data["metadata"],
        )
        body = shapes.IngestAcceptedOutput(submission).data
        return Response(body, status=status.HTTP_202_ACCEPTED if submission.accepted else 200)


class IngestStatusView(ServiceAPIView):
    @v1_operation(
        summary="The state of one ingest job of the scope",
        request=None,
        parameters=[io.ScopeInput],
        ok=shapes.IngestStatusOutput,
        extra=REFUSALS,
        response_example={
            "job_id": "0b6c7a52-4a55-4b8e-9a3c-6f1c2d7e8f90",
            "status": "succeeded",
            "attempts": 1,
            "inserted_count": 1,
            "memory_ids": [MEMORY_ID],
            "reason": "",
            "run_id": "run-42",
            "created_at": "2026-11-30T12:00:00+08:00",
            "updated_at": "2026-11-30T12:00:02+08:00",
        },
    )
    def get(self, request: Request, job_id: Any) -> Response:
        form = io.ScopeInput(data=query_params(request), context={"caller": request.user})
        form.is_valid(raise_exception=True)
        job = ingest_job_get(scope=form.scope(), job_id=str(job_id))
        return Response(shapes.IngestStatusOutput(job).data)


class ExportView(ServiceAPIView):
    @v1_operation(
        summary="The scope's memories as a versioned JSON document (no vectors)",
        description=(
            "Every memory of the scope, whatever its status, oldest first: text, category, "
            "key, status, source, timestamps and validity. `/v1/memories/import` takes it back."
        ),
        request=io.ScopeInput,
        ok=shapes.ExportOutput,
        example=SCOPE,
    )
    def post(self, request: Request) -> Response:
        form, _ = self.validated(request)
        return Response(shapes.ExportOutput(portability.memory_export(scope=form.scope())).data)


class ImportView(ServiceAPIView):
    input_serializer = io.ImportInput
    rate_kind = RateKind.WRITE

    @v1_operation(
        summary="Import an export document into the scope, in one request and one lock",
        description=(
            "Every active item passes admission and the duplicate/key rules of an add; the "
            "answer counts `added`, `superseded`, `no_effect` and `rejected`, with each item's "
            "status and reason by index. Importing the same document twice changes nothing. "
            "A backend failure stops the import (503): items written stay, the rest are "
            "`not_attempted`, and a re-run finishes it."
        ),
        request=io.ImportInput,
        ok=shapes.ImportOutput,
        extra={503: outcome_or_error("ImportOrOutage", shapes.ImportOutput)},
        example={
            **SCOPE,
            "document": {
                "format": "poco-memory-export",
                "version": 1,
                "memories": [{"content": "用户偏好简体中文技术方案。", "category": "preference"}],
            },
        },
    )
    def post(self, request: Request) -> Response:
        form, data = self.validated(request)
        report = portability.memory_import(
            scope=form.scope(), items=data["document"]["memories"], actor=service_actor(request)
        )
        return Response(
            shapes.ImportOutput(report).data, status=503 if report.backend_error else 200
        )
