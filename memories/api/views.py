"""The internal /v1/memories/* contract. Views validate, call one service/selector, answer.

HTTP status: 200 for every decided outcome (the body's ``success``/``status`` say what
happened), 403 for another scope's id, 503 when the backend failed, 500 for
``partial_cleanup``, 400 for bad input. The user API answers the same way.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from lifecycle.admission import Message
from lifecycle.ingest import ingest_submit
from lifecycle.manage import manage_memory, memory_correct
from lifecycle.policy import SCHEDULED_RUN_KINDS
from lifecycle.selectors import ingest_job_get
from memories import selectors, services
from memories.api import serializers as io
from memories.api.auth import IsServiceCaller, ServiceCaller, ServiceTokenAuthentication
from memories.context import memory_context
from memories.selectors import MemoryForbidden, MemoryNotFound
from memories.types import (
    Actor,
    ActorKind,
    DeleteOutcome,
    DeleteStatus,
    WriteOutcome,
    WriteStatus,
)

STATUS_FOR = {
    WriteStatus.FORBIDDEN.value: status.HTTP_403_FORBIDDEN,
    WriteStatus.BACKEND_ERROR.value: status.HTTP_503_SERVICE_UNAVAILABLE,
    # The memory is gone but derived data is not: a failure of ours, never a success.
    DeleteStatus.PARTIAL_CLEANUP.value: status.HTTP_500_INTERNAL_SERVER_ERROR,
}


def service_actor(request: Request) -> Actor:
    caller = request.user
    assert isinstance(caller, ServiceCaller), "IsServiceCaller guards every /v1 view"
    return Actor(kind=ActorKind.AGENT, id=f"service-token-{caller.token_index}")


def write_response(action: str, outcome: WriteOutcome) -> Response:
    body = {
        "action": action,
        "success": outcome.success,
        "status": outcome.status.value,
        "memory_id": outcome.memory_id,
        "inserted_count": outcome.inserted_count,
        "reason": outcome.reason,
    }
    return Response(io.WriteOutput(body).data, status=STATUS_FOR.get(outcome.status.value, 200))


def delete_response(outcome: DeleteOutcome) -> Response:
    body = {
        "success": outcome.success,
        "status": outcome.status.value,
        "deleted_count": outcome.deleted_count,
        "reason": outcome.reason,
    }
    return Response(io.DeleteOutput(body).data, status=STATUS_FOR.get(outcome.status.value, 200))


def refusal(outcome_status: str) -> Response:
    return Response(
        {"status": outcome_status, "success": False}, status=STATUS_FOR.get(outcome_status, 404)
    )


class ServiceAPIView(APIView):
    authentication_classes = [ServiceTokenAuthentication]
    permission_classes = [IsServiceCaller]
    input_serializer: type[io.ScopeInput] = io.ScopeInput

    def validated(self, request: Request) -> tuple[io.ScopeInput, dict[str, Any]]:
        if not isinstance(request.data, dict):
            raise serializers.ValidationError({"non_field_errors": ["a JSON object is required"]})
        form = self.input_serializer(data=request.data)
        form.is_valid(raise_exception=True)
        return form, dict(form.validated_data)


class SearchView(ServiceAPIView):
    input_serializer = io.SearchInput

    @extend_schema(request=io.SearchInput, responses=io.SearchOutput)
    def post(self, request: Request) -> Response:
        form, data = self.validated(request)
        assert isinstance(form, io.SearchInput)
        result = selectors.memory_search(
            scope=form.scope(),
            query=data["query"],
            top_k=data["top_k"],
            min_score=data.get("min_score"),
            filters=form.filters(),
        )
        body = {
            "items": result.items,
            "total": result.total,
            "available": result.available,
            "error_reason": result.error_reason,
        }
        return Response(io.SearchOutput(body).data)


class ContextView(ServiceAPIView):
    """Facts to inject before an interactive run's input (seed 000 §5); 200 even on an outage,
    with ``available: false``, so the run goes on without memory."""

    input_serializer = io.ContextInput

    @extend_schema(request=io.ContextInput, responses=io.ContextOutput)
    def post(self, request: Request) -> Response:
        form, data = self.validated(request)
        context = memory_context(
            scope=form.scope(),
            user_input=data["input"],
            interactive=data["run_kind"] not in SCHEDULED_RUN_KINDS,
        )
        return Response(io.ContextOutput(context).data)


class ListUserView(ServiceAPIView):
    input_serializer = io.ListInput

    @extend_schema(request=io.ListInput, responses=io.ListOutput)
    def post(self, request: Request) -> Response:
        form, data = self.validated(request)
        page = selectors.memory_list(
            scope=form.scope(),
            query=data["query"],
            category=data["category"],
            source=data["source"],
            topic=data["topic"],
            page=data["page"],
            page_size=data["page_size"],
        )
        body = {
            "items": page.items,
            "total": page.total,
            "page": page.page,
            "page_size": page.page_size,
            "pages": page.pages,
        }
        return Response(io.ListOutput(body).data)


class OverviewView(ServiceAPIView):
    @extend_schema(request=io.ScopeInput, responses=io.OverviewOutput)
    def post(self, request: Request) -> Response:
        form, _ = self.validated(request)
        return Response(io.OverviewOutput(selectors.memory_overview(scope=form.scope())).data)


class TopicsView(ServiceAPIView):
    input_serializer = io.TopicsInput

    @extend_schema(request=io.TopicsInput, responses=io.TopicsOutput)
    def post(self, request: Request) -> Response:
        form, data = self.validated(request)
        topics = selectors.topic_heatmap(scope=form.scope(), limit=data["limit"])
        return Response(io.TopicsOutput({"items": topics}).data)


class RelatedView(ServiceAPIView):
    input_serializer = io.RelatedInput

    @extend_schema(
        request=io.RelatedInput,
        responses={200: io.RelatedOutput, 403: io.RefusalOutput, 404: io.RefusalOutput},
    )
    def post(self, request: Request) -> Response:
        form, data = self.validated(request)
        try:
            related = selectors.memory_related(
                scope=form.scope(), memory_id=str(data["memory_id"]), limit=data["limit"]
            )
        except MemoryNotFound:
            return refusal(WriteStatus.NOT_FOUND.value)
        except MemoryForbidden:
            return refusal(WriteStatus.FORBIDDEN.value)
        return Response(io.RelatedOutput({"items": related}).data)


class HistoryView(ServiceAPIView):
    input_serializer = io.MemoryIdInput

    @extend_schema(
        request=io.MemoryIdInput,
        responses={200: io.HistoryOutput, 403: io.RefusalOutput, 404: io.RefusalOutput},
    )
    def post(self, request: Request) -> Response:
        form, data = self.validated(request)
        memory_id = str(data["memory_id"])
        try:
            entries = selectors.memory_history(scope=form.scope(), memory_id=memory_id)
        except MemoryNotFound:
            return refusal(WriteStatus.NOT_FOUND.value)
        except MemoryForbidden:
            return refusal(WriteStatus.FORBIDDEN.value)
        return Response(io.HistoryOutput({"memory_id": memory_id, "items": entries}).data)


class UpdateItemView(ServiceAPIView):
    input_serializer = io.UpdateItemInput

    @extend_schema(request=io.UpdateItemInput, responses=io.WriteOutput)
    def post(self, request: Request) -> Response:
        form, data = self.validated(request)
        outcome = memory_correct(
            scope=form.scope(),
            memory_id=str(data["memory_id"]),
            text=data["text"],
            category=data.get("category"),
            actor=service_actor(request),
        )
        return write_response("update", outcome)


class DeleteItemView(ServiceAPIView):
    input_serializer = io.MemoryIdInput

    @extend_schema(request=io.MemoryIdInput, responses=io.DeleteOutput)
    def post(self, request: Request) -> Response:
        form, data = self.validated(request)
        outcome = services.memory_delete(
            scope=form.scope(), memory_id=str(data["memory_id"]), actor=service_actor(request)
        )
        return delete_response(outcome)


class DeleteUserView(ServiceAPIView):
    @extend_schema(request=io.ScopeInput, responses=io.DeleteOutput)
    def post(self, request: Request) -> Response:
        form, _ = self.validated(request)
        outcome = services.memory_delete_user(scope=form.scope(), actor=service_actor(request))
        return delete_response(outcome)


class ManageView(ServiceAPIView):
    input_serializer = io.ManageInput

    @extend_schema(request=io.ManageInput, responses=io.WriteOutput)
    def post(self, request: Request) -> Response:
        form, data = self.validated(request)
        outcome = manage_memory(
            scope=form.scope(),
            action=data["action"],
            actor=service_actor(request),
            memory_id=str(data["memory_id"]) if data.get("memory_id") else None,
            text=data.get("text", ""),
            category=data.get("category"),
            confidence=data.get("confidence"),
            run_id=data["run_id"],
            run_kind=data["run_kind"],
        )
        return Response(
            io.WriteOutput(outcome).data, status=STATUS_FOR.get(outcome.status, status.HTTP_200_OK)
        )


class IngestView(ServiceAPIView):
    """Add-only auto-ingest: admission now, extraction later in a worker (202 + job id)."""

    input_serializer = io.IngestInput

    @extend_schema(
        request=io.IngestInput,
        responses={202: io.IngestAcceptedOutput, 200: io.IngestAcceptedOutput},
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
        body = io.IngestAcceptedOutput(submission).data
        return Response(body, status=status.HTTP_202_ACCEPTED if submission.accepted else 200)


class IngestStatusView(ServiceAPIView):
    input_serializer = io.ScopeInput

    @extend_schema(
        parameters=[io.ScopeInput],
        responses={200: io.IngestStatusOutput, 403: io.RefusalOutput, 404: io.RefusalOutput},
    )
    def get(self, request: Request, job_id: str) -> Response:
        form = io.ScopeInput(data=request.query_params)
        form.is_valid(raise_exception=True)
        try:
            job = ingest_job_get(scope=form.scope(), job_id=str(job_id))
        except MemoryNotFound:
            return refusal(WriteStatus.NOT_FOUND.value)
        except MemoryForbidden:
            return refusal(WriteStatus.FORBIDDEN.value)
        return Response(io.IngestStatusOutput(job).data)
