"""The user-facing memory API: ``/api/v1/user-customer-settings/memories*``.

Session authentication with CSRF, and the scope is always the signed-in user: no parameter
can name another one (an unknown parameter is a 400).  The same services, selectors, output
shapes (``edges.contract.shapes``), error shape and exception handler as ``/v1``; the browser
never calls ``/v1``.

HTTP status: the table in ``edges.contract.outcomes`` (user-API column): 200 for a done or
harmless outcome, 400 for bad input or rejected text, 403 for another user's id, 404 for an
id that does not exist, 503 when the backend failed and nothing changed, 500 for
``partial_cleanup``.  A search outage is ``available: false``, never an empty result.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from edges.contract import parsers, shapes
from edges.contract.fields import (
    StrictBooleanField,
    StrictCharField,
    StrictChoiceField,
    StrictSerializer,
    StrictUUIDField,
    ValidUntilField,
)
from edges.contract.outcomes import Edge
from edges.contract.responses import outcome_response
from edges.contract.serializers import (
    CATEGORIES,
    MAX_QUERY,
    ExportDocumentInput,
    ListFiltersParams,
    memory_key_field,
)
from memories import selectors, services
from memories.governance import UNSET
from memories.ops import portability
from memories.ratelimits import RateKind, rate_check
from memories.scope import scope_for_user
from memories.services import MAX_FACT_LENGTH
from memories.types import (
    Actor,
    ActorKind,
    DeleteOutcome,
    MemoryScope,
    Source,
    WriteOutcome,
    WriteStatus,
)

MAX_SELECTED = 100


class UserApi(APIView):
    """The signed-in user acting on their own memory."""

    authentication_classes = [SessionAuthentication]
    permission_classes = [IsAuthenticated]
    # Which rate limit of the user's scope a call counts against (memories.ratelimits).
    rate_kind: RateKind | None = None

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)
        if self.rate_kind is not None:
            rate_check(kind=self.rate_kind, scope=self.scope(), token=None)

    def scope(self) -> MemoryScope:
        return scope_for_user(self.request.user)

    def actor(self) -> Actor:
        return Actor(kind=ActorKind.USER, id=self.request.user.get_username())


def query_params(serializer_class: type[serializers.Serializer], request: Request) -> Any:
    params = serializer_class(data=parsers.query_params(request))
    params.is_valid(raise_exception=True)
    return params.validated_data


def body(serializer_class: type[serializers.Serializer], request: Request) -> Any:
    form = serializer_class(data=request.data)
    form.is_valid(raise_exception=True)
    return form.validated_data


# --- reads ------------------------------------------------------------------------------------
class MemoryListApi(UserApi):
    """GET …/memories/vector — the user's memories, newest first, with text search."""

    class InputSerializer(ListFiltersParams):
        class Meta:
            ref_name = "UserMemoryListInput"

    @extend_schema(parameters=[InputSerializer], responses=shapes.UserListOutput)
    def get(self, request: Request) -> Response:
        params = self.InputSerializer(data=parsers.query_params(request))
        params.is_valid(raise_exception=True)
        page = selectors.memory_list(scope=self.scope(), query=params.list_query())
        uses = selectors.memory_uses(scope=self.scope(), memory_ids=[r.id for r in page.items])
        return Response(shapes.UserListOutput(page, context={"uses": uses}).data)


class MemorySearchApi(UserApi):
    """GET …/memories/search — semantic search; an outage is ``available: false``."""

    rate_kind = RateKind.SEARCH

    class InputSerializer(StrictSerializer):
        q = StrictCharField(max_length=MAX_QUERY)
        top_k = serializers.IntegerField(min_value=1, max_value=50, default=10)

        class Meta:
            ref_name = "UserMemorySearchInput"

    @extend_schema(parameters=[InputSerializer], responses=shapes.SearchOutput)
    def get(self, request: Request) -> Response:
        data = query_params(self.InputSerializer, request)
        result = selectors.memory_search(
            scope=self.scope(), query=data["q"], top_k=data["top_k"], counted=True
        )
        return Response(shapes.SearchOutput(result).data)


class OverviewApi(UserApi):
    """GET …/memories/overview — totals, 30-day changes, sources, categories, 90-day trend."""

    @extend_schema(responses=shapes.OverviewOutput)
    def get(self, request: Request) -> Response:
        query_params(StrictSerializer, request)
        return Response(shapes.OverviewOutput(selectors.memory_overview(scope=self.scope())).data)


class TopicsApi(UserApi):
    """GET …/memories/topics — the topic heat map (entities by linked memories)."""

    class InputSerializer(StrictSerializer):
        limit = serializers.IntegerField(min_value=1, max_value=200, default=40)

        class Meta:
            ref_name = "UserTopicsInput"

    @extend_schema(parameters=[InputSerializer], responses=shapes.TopicsOutput)
    def get(self, request: Request) -> Response:
        data = query_params(self.InputSerializer, request)
        topics = selectors.topic_heatmap(scope=self.scope(), limit=data["limit"])
        return Response(shapes.TopicsOutput({"items": topics}).data)


class MemoryDetailApi(UserApi):
    """GET …/memories/<id> — one memory."""

    @extend_schema(responses=shapes.UserMemoryOutput)
    def get(self, request: Request, memory_id: Any) -> Response:
        scope = self.scope()
        record = selectors.memory_get(scope=scope, memory_id=str(memory_id))
        uses = selectors.memory_uses(scope=scope, memory_ids=[record.id])
        return Response(shapes.UserMemoryOutput(record, context={"uses": uses}).data)


class RelatedApi(UserApi):
    """GET …/memories/<id>/related — the closest memories of the same user."""

    class InputSerializer(StrictSerializer):
        limit = serializers.IntegerField(min_value=1, max_value=20, default=5)

        class Meta:
            ref_name = "UserRelatedInput"

    @extend_schema(parameters=[InputSerializer], responses=shapes.UserRelatedOutput)
    def get(self, request: Request, memory_id: Any) -> Response:
        data = query_params(self.InputSerializer, request)
        related = selectors.memory_related(
            scope=self.scope(), memory_id=str(memory_id), limit=data["limit"]
        )
        return Response(shapes.UserRelatedOutput({"items": related}).data)


class HistoryApi(UserApi):
    """GET …/memories/<id>/history — the change trail (ADD/UPDATE/NOOP…), oldest first."""

    @extend_schema(responses=shapes.UserHistoryOutput)
    def get(self, request: Request, memory_id: Any) -> Response:
        entries = selectors.memory_history(scope=self.scope(), memory_id=str(memory_id))
        body = {"memory_id": str(memory_id), "items": entries}
        return Response(shapes.UserHistoryOutput(body).data)


class MemoryExportApi(UserApi):
    """GET …/memories/export.json | export.csv — 导出我的记忆: every memory of the user as a
    download (the /v1 export document, or a CSV with a BOM for Excel)."""

    @extend_schema(
        responses={(200, "application/json"): shapes.ExportOutput, (200, "text/csv"): str}
    )
    def get(self, request: Request, kind: str) -> HttpResponse:
        query_params(StrictSerializer, request)
        return portability.export_download(scope=self.scope(), kind=kind)


class SwitchesApi(UserApi):
    """GET …/memories/switches — 保存记忆 and 参考记忆."""

    @extend_schema(responses=shapes.SwitchesOutput)
    def get(self, request: Request) -> Response:
        return Response(shapes.SwitchesOutput(selectors.memory_switches(scope=self.scope())).data)


# --- writes -----------------------------------------------------------------------------------
class MemoryUpdateApi(UserApi):
    """POST …/memories/<id>/update — correct a fact in place; the id stays the same."""

    rate_kind = RateKind.WRITE

    class InputSerializer(StrictSerializer):
        text = StrictCharField(max_length=MAX_FACT_LENGTH, trim_whitespace=True)
        category = StrictChoiceField(choices=CATEGORIES, required=False)
        memory_key = memory_key_field(allow_blank=True)
        valid_until = ValidUntilField()

        class Meta:
            ref_name = "UserMemoryUpdateInput"

    @extend_schema(request=InputSerializer, responses=shapes.UserWriteOutput)
    def post(self, request: Request, memory_id: Any) -> Response:
        data = body(self.InputSerializer, request)
        outcome: WriteOutcome = services.memory_update(
            scope=self.scope(),
            memory_id=str(memory_id),
            text=data["text"],
            category=data.get("category"),
            memory_key=data.get("memory_key"),
            valid_until=data.get("valid_until", UNSET),
            actor=self.actor(),
            source=Source.CONSOLE,
        )
        return outcome_response(shapes.UserWriteOutput, outcome, edge=Edge.USER_API)


class MemoryDeleteApi(UserApi):
    """POST …/memories/<id>/delete — forget one memory everywhere."""

    @extend_schema(request=None, responses=shapes.DeleteOutput)
    def post(self, request: Request, memory_id: Any) -> Response:
        outcome: DeleteOutcome = services.memory_delete(
            scope=self.scope(), memory_id=str(memory_id), actor=self.actor(), source=Source.CONSOLE
        )
        return outcome_response(shapes.DeleteOutput, outcome, edge=Edge.USER_API)


class MemoryDeleteAllApi(UserApi):
    """POST …/memories/delete-all — forget every memory of the user (``confirm: true``)."""

    class InputSerializer(StrictSerializer):
        confirm = StrictBooleanField()

        class Meta:
            ref_name = "UserMemoryDeleteAllInput"

        def validate_confirm(self, value: bool) -> bool:
            if value is not True:
                raise serializers.ValidationError("must be true to delete every memory")
            return value

    @extend_schema(request=InputSerializer, responses=shapes.DeleteOutput)
    def post(self, request: Request) -> Response:
        body(self.InputSerializer, request)
        outcome = services.memory_delete_user(
            scope=self.scope(), actor=self.actor(), source=Source.CONSOLE
        )
        return outcome_response(shapes.DeleteOutput, outcome, edge=Edge.USER_API)


class SwitchesUpdateApi(UserApi):
    """POST …/memories/switches/update — change one or both switches."""

    class InputSerializer(StrictSerializer):
        memory_save_enabled = StrictBooleanField(required=False)
        memory_reference_enabled = StrictBooleanField(required=False)

        class Meta:
            ref_name = "UserMemorySwitchesInput"

        def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
            if not attrs:
                raise serializers.ValidationError(
                    "send memory_save_enabled and/or memory_reference_enabled"
                )
            return attrs

    @extend_schema(request=InputSerializer, responses=shapes.SwitchesOutput)
    def post(self, request: Request) -> Response:
        data = body(self.InputSerializer, request)
        scope = self.scope()
        services.memory_switches_update(
            scope=scope,
            memory_save_enabled=data.get("memory_save_enabled"),
            memory_reference_enabled=data.get("memory_reference_enabled"),
        )
        return Response(shapes.SwitchesOutput(selectors.memory_switches(scope=scope)).data)


class MemoryPinApi(UserApi):
    """POST …/memories/<id>/pin — 始终使用: the context endpoint gives pinned memories its first
    places. At most ``MAX_PINS`` per user (400, reason ``pin_limit``); only a current memory."""

    rate_kind = RateKind.WRITE

    class InputSerializer(StrictSerializer):
        pinned = StrictBooleanField()

        class Meta:
            ref_name = "UserMemoryPinInput"

    @extend_schema(request=InputSerializer, responses=shapes.UserWriteOutput)
    def post(self, request: Request, memory_id: Any) -> Response:
        data = body(self.InputSerializer, request)
        outcome = services.memory_pin(
            scope=self.scope(),
            memory_id=str(memory_id),
            pinned=data["pinned"],
            actor=self.actor(),
            source=Source.CONSOLE,
        )
        return outcome_response(shapes.UserWriteOutput, outcome, edge=Edge.USER_API)


class MemorySetCategoryApi(UserApi):
    """POST …/memories/set-category — one category for up to 100 of the user's memories. An
    id that is another user's (403) or unknown (404) changes nothing at all."""

    rate_kind = RateKind.WRITE

    class InputSerializer(StrictSerializer):
        memory_ids = serializers.ListField(
            child=StrictUUIDField(), min_length=1, max_length=MAX_SELECTED
        )
        category = StrictChoiceField(choices=CATEGORIES)

        class Meta:
            ref_name = "UserMemorySetCategoryInput"

    @extend_schema(request=InputSerializer, responses=shapes.BulkWriteOutput)
    def post(self, request: Request) -> Response:
        data = body(self.InputSerializer, request)
        scope = self.scope()
        ids = list(dict.fromkeys(str(i) for i in data["memory_ids"]))
        for memory_id in ids:  # every id is the user's, or nothing changes
            selectors.memory_owned_row(scope=scope, memory_id=memory_id)
        outcomes = services.memories_set_category(
            scope=scope, memory_ids=ids, category=data["category"], actor=self.actor()
        )
        failed = any(o.status == WriteStatus.BACKEND_ERROR for o in outcomes)
        return Response(
            shapes.BulkWriteOutput({"items": outcomes}).data, status=503 if failed else 200
        )


class ImportInput(StrictSerializer):
    document = ExportDocumentInput()

    class Meta:
        ref_name = "UserImportInput"


class MemoryImportPreviewApi(UserApi):
    """POST …/memories/import/preview — what importing an export document would do, item by
    item (``add``, ``refuse`` with the reason, ``skip`` for duplicates and history); nothing is
    written. It embeds every item, so it counts against the search limit."""

    rate_kind = RateKind.SEARCH

    @extend_schema(request=ImportInput, responses=shapes.ImportPreviewOutput)
    def post(self, request: Request) -> Response:
        data = body(ImportInput, request)
        preview = portability.import_preview(scope=self.scope(), items=data["document"]["memories"])
        return Response(shapes.ImportPreviewOutput(preview).data)


class MemoryImportApi(UserApi):
    """POST …/memories/import — import an export document of this service (the same rules as
    every add); 503 when the backend failed part-way (what was written stays, re-run it)."""

    rate_kind = RateKind.WRITE

    @extend_schema(request=ImportInput, responses=shapes.ImportOutput)
    def post(self, request: Request) -> Response:
        data = body(ImportInput, request)
        report = portability.memory_import(
            scope=self.scope(), items=data["document"]["memories"], actor=self.actor()
        )
        return Response(
            shapes.ImportOutput(report).data, status=503 if report.backend_error else 200
        )
