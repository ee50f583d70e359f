"""The user-facing memory API: ``/api/v1/user-customer-settings/memories*`` (seed 000 §9).

Session authentication with CSRF, and the scope is always the signed-in user: no parameter
can name another one.  The same services and selectors as ``/v1``; the browser never calls
``/v1``.

HTTP status: 200 for a done or harmless outcome (``updated``, ``no_effect``, ``deleted``),
400 for bad input (``fields`` name the errors), 403 for another user's id, 404 for an id
that does not exist, 503 when the backend failed and nothing changed, 500 for
``partial_cleanup`` (the memory is gone but its derived data is not).  Failure bodies always
carry ``success: false`` and the outcome's ``status``; a search outage is
``available: false``, never an empty result.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from memories import selectors, services
from memories.scope import scope_for_user
from memories.selectors import MemoryForbidden, MemoryNotFound
from memories.services import MAX_FACT_LENGTH
from memories.types import (
    Actor,
    ActorKind,
    Category,
    DeleteOutcome,
    DeleteStatus,
    MemoryScope,
    Source,
    WriteOutcome,
    WriteStatus,
)

CATEGORIES = [c.value for c in Category]
SOURCES = [s.value for s in Source]

OUTCOME_STATUS = {
    WriteStatus.NOT_FOUND.value: status.HTTP_404_NOT_FOUND,
    WriteStatus.FORBIDDEN.value: status.HTTP_403_FORBIDDEN,
    WriteStatus.REJECTED.value: status.HTTP_400_BAD_REQUEST,
    WriteStatus.BACKEND_ERROR.value: status.HTTP_503_SERVICE_UNAVAILABLE,
    DeleteStatus.PARTIAL_CLEANUP.value: status.HTTP_500_INTERNAL_SERVER_ERROR,
}


class UserApi(APIView):
    """The signed-in user acting on their own memory."""

    authentication_classes = [SessionAuthentication]
    permission_classes = [IsAuthenticated]

    def scope(self) -> MemoryScope:
        return scope_for_user(self.request.user)

    def actor(self) -> Actor:
        return Actor(kind=ActorKind.USER, id=self.request.user.get_username())


def refusal(outcome_status: str) -> Response:
    """Not found / forbidden: the outcome and nothing about the memory."""
    return Response(
        {"success": False, "status": outcome_status}, status=OUTCOME_STATUS[outcome_status]
    )


def query_params(serializer_class: type[serializers.Serializer], request: Request) -> Any:
    params = serializer_class(data=request.query_params)
    params.is_valid(raise_exception=True)
    return params.validated_data


class MemoryOutput(serializers.Serializer):
    """One memory as the user sees it (shared by list and detail)."""

    id = serializers.CharField()
    content = serializers.CharField()
    category = serializers.CharField()
    # DRF pops declared fields off the class; the stubs see Field.source.
    source = serializers.CharField()  # type: ignore[assignment]
    created_at = serializers.DateTimeField(allow_null=True)
    updated_at = serializers.DateTimeField(allow_null=True)
    metadata = serializers.DictField()

    class Meta:
        ref_name = "UserMemory"


class RefusalOutput(serializers.Serializer):
    success = serializers.BooleanField()
    status = serializers.CharField()

    class Meta:
        ref_name = "UserRefusal"


# --- reads ------------------------------------------------------------------------------------
class MemoryListApi(UserApi):
    """GET …/memories/vector — the user's memories, newest first, with text search."""

    class InputSerializer(serializers.Serializer):
        q = serializers.CharField(max_length=200, required=False, default="", allow_blank=True)
        category = serializers.ChoiceField(
            choices=CATEGORIES, required=False, default="", allow_blank=True
        )
        source = serializers.ChoiceField(  # type: ignore[assignment]
            choices=SOURCES, required=False, default="", allow_blank=True
        )
        topic = serializers.CharField(max_length=200, required=False, default="", allow_blank=True)
        page = serializers.IntegerField(min_value=1, default=1)
        page_size = serializers.IntegerField(min_value=1, max_value=100, default=20)

        class Meta:
            ref_name = "UserMemoryListInput"

    class OutputSerializer(serializers.Serializer):
        items = MemoryOutput(many=True)
        total = serializers.IntegerField()
        page = serializers.IntegerField()
        page_size = serializers.IntegerField()
        pages = serializers.IntegerField()

        class Meta:
            ref_name = "UserMemoryListOutput"

    @extend_schema(parameters=[InputSerializer], responses=OutputSerializer)
    def get(self, request: Request) -> Response:
        data = query_params(self.InputSerializer, request)
        page = selectors.memory_list(
            scope=self.scope(),
            query=data["q"],
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
        return Response(self.OutputSerializer(body).data)


class MemorySearchApi(UserApi):
    """GET …/memories/search — semantic search; an outage is ``available: false``."""

    class InputSerializer(serializers.Serializer):
        q = serializers.CharField(max_length=2000)
        top_k = serializers.IntegerField(min_value=1, max_value=50, default=10)

        class Meta:
            ref_name = "UserMemorySearchInput"

    class OutputSerializer(serializers.Serializer):
        class HitSerializer(serializers.Serializer):
            id = serializers.CharField()
            content = serializers.CharField()
            score = serializers.FloatField()
            metadata = serializers.SerializerMethodField()

            class Meta:
                ref_name = "UserSearchHit"

            def get_metadata(self, hit: Any) -> dict[str, str]:
                return {"category": hit.category}

        items = HitSerializer(many=True)
        total = serializers.IntegerField()
        available = serializers.BooleanField()
        error_reason = serializers.CharField(allow_null=True)

        class Meta:
            ref_name = "UserMemorySearchOutput"

    @extend_schema(parameters=[InputSerializer], responses=OutputSerializer)
    def get(self, request: Request) -> Response:
        data = query_params(self.InputSerializer, request)
        result = selectors.memory_search(scope=self.scope(), query=data["q"], top_k=data["top_k"])
        body = {
            "items": result.items,
            "total": result.total,
            "available": result.available,
            "error_reason": result.error_reason,
        }
        return Response(self.OutputSerializer(body).data)


class OverviewApi(UserApi):
    """GET …/memories/overview — totals, 30-day changes, sources, categories, 90-day trend."""

    class OutputSerializer(serializers.Serializer):
        class DailySerializer(serializers.Serializer):
            day = serializers.CharField()
            adds = serializers.IntegerField()
            updates = serializers.IntegerField()
            deletes = serializers.IntegerField()

            class Meta:
                ref_name = "UserDailyActivity"

        total = serializers.IntegerField()
        added_30d = serializers.IntegerField()
        updated_30d = serializers.IntegerField()
        last_changed_at = serializers.DateTimeField(allow_null=True)
        sources = serializers.DictField(child=serializers.IntegerField())
        categories = serializers.DictField(child=serializers.IntegerField())
        daily = DailySerializer(many=True)

        class Meta:
            ref_name = "UserOverviewOutput"

    @extend_schema(responses=OutputSerializer)
    def get(self, request: Request) -> Response:
        return Response(self.OutputSerializer(selectors.memory_overview(scope=self.scope())).data)


class TopicsApi(UserApi):
    """GET …/memories/topics — the topic heat map (entities by linked memories)."""

    class InputSerializer(serializers.Serializer):
        limit = serializers.IntegerField(min_value=1, max_value=200, default=40)

        class Meta:
            ref_name = "UserTopicsInput"

    class OutputSerializer(serializers.Serializer):
        class TopicSerializer(serializers.Serializer):
            id = serializers.CharField()
            text = serializers.CharField()
            kind = serializers.CharField()
            memory_count = serializers.IntegerField()

            class Meta:
                ref_name = "UserTopic"

        items = TopicSerializer(many=True)

        class Meta:
            ref_name = "UserTopicsOutput"

    @extend_schema(parameters=[InputSerializer], responses=OutputSerializer)
    def get(self, request: Request) -> Response:
        data = query_params(self.InputSerializer, request)
        topics = selectors.topic_heatmap(scope=self.scope(), limit=data["limit"])
        return Response(self.OutputSerializer({"items": topics}).data)


class MemoryDetailApi(UserApi):
    """GET …/memories/<id> — one memory."""

    @extend_schema(responses={200: MemoryOutput, 403: RefusalOutput, 404: RefusalOutput})
    def get(self, request: Request, memory_id: Any) -> Response:
        try:
            record = selectors.memory_get(scope=self.scope(), memory_id=str(memory_id))
        except MemoryNotFound:
            return refusal(WriteStatus.NOT_FOUND.value)
        except MemoryForbidden:
            return refusal(WriteStatus.FORBIDDEN.value)
        return Response(MemoryOutput(record).data)


class RelatedApi(UserApi):
    """GET …/memories/<id>/related — the closest memories of the same user."""

    class InputSerializer(serializers.Serializer):
        limit = serializers.IntegerField(min_value=1, max_value=20, default=5)

        class Meta:
            ref_name = "UserRelatedInput"

    class OutputSerializer(serializers.Serializer):
        class RelatedSerializer(serializers.Serializer):
            id = serializers.CharField()
            content = serializers.CharField()
            score = serializers.FloatField()
            category = serializers.CharField()

            class Meta:
                ref_name = "UserRelatedMemory"

        items = RelatedSerializer(many=True)

        class Meta:
            ref_name = "UserRelatedOutput"

    @extend_schema(
        parameters=[InputSerializer],
        responses={200: OutputSerializer, 403: RefusalOutput, 404: RefusalOutput},
    )
    def get(self, request: Request, memory_id: Any) -> Response:
        data = query_params(self.InputSerializer, request)
        try:
            related = selectors.memory_related(
                scope=self.scope(), memory_id=str(memory_id), limit=data["limit"]
            )
        except MemoryNotFound:
            return refusal(WriteStatus.NOT_FOUND.value)
        except MemoryForbidden:
            return refusal(WriteStatus.FORBIDDEN.value)
        return Response(self.OutputSerializer({"items": related}).data)


class HistoryApi(UserApi):
    """GET …/memories/<id>/history — the change trail (ADD/UPDATE/NOOP…), oldest first."""

    class OutputSerializer(serializers.Serializer):
        class EntrySerializer(serializers.Serializer):
            event = serializers.CharField()
            old_text = serializers.CharField(allow_blank=True)
            new_text = serializers.CharField(allow_blank=True)
            actor_kind = serializers.CharField()
            actor_id = serializers.CharField(allow_blank=True)
            source = serializers.CharField(allow_blank=True)  # type: ignore[assignment]
            status = serializers.CharField(allow_blank=True)
            created_at = serializers.DateTimeField()

            class Meta:
                ref_name = "UserHistoryEntry"

        memory_id = serializers.CharField()
        items = EntrySerializer(many=True)

        class Meta:
            ref_name = "UserHistoryOutput"

    @extend_schema(responses={200: OutputSerializer, 403: RefusalOutput, 404: RefusalOutput})
    def get(self, request: Request, memory_id: Any) -> Response:
        try:
            entries = selectors.memory_history(scope=self.scope(), memory_id=str(memory_id))
        except MemoryNotFound:
            return refusal(WriteStatus.NOT_FOUND.value)
        except MemoryForbidden:
            return refusal(WriteStatus.FORBIDDEN.value)
        body = {"memory_id": str(memory_id), "items": entries}
        return Response(self.OutputSerializer(body).data)


class SwitchesOutput(serializers.Serializer):
    memory_save_enabled = serializers.BooleanField()
    memory_reference_enabled = serializers.BooleanField()

    class Meta:
        ref_name = "UserMemorySwitches"


class SwitchesApi(UserApi):
    """GET …/memories/switches — 保存记忆 and 参考记忆."""

    @extend_schema(responses=SwitchesOutput)
    def get(self, request: Request) -> Response:
        return Response(SwitchesOutput(selectors.memory_switches(scope=self.scope())).data)


# --- writes -----------------------------------------------------------------------------------
class WriteOutput(serializers.Serializer):
    success = serializers.BooleanField()
    status = serializers.CharField()
    memory_id = serializers.CharField(allow_null=True)
    reason = serializers.CharField(allow_null=True)

    class Meta:
        ref_name = "UserWriteOutput"


class DeleteOutput(serializers.Serializer):
    success = serializers.BooleanField()
    status = serializers.CharField()
    deleted_count = serializers.IntegerField()
    reason = serializers.CharField(allow_null=True)

    class Meta:
        ref_name = "UserDeleteOutput"


def write_response(outcome: WriteOutcome) -> Response:
    if outcome.status in (WriteStatus.NOT_FOUND, WriteStatus.FORBIDDEN):
        return refusal(outcome.status.value)
    body = {
        "success": outcome.success,
        "status": outcome.status.value,
        "memory_id": outcome.memory_id,
        "reason": outcome.reason,
    }
    return Response(WriteOutput(body).data, status=OUTCOME_STATUS.get(outcome.status.value, 200))


def delete_response(outcome: DeleteOutcome) -> Response:
    if outcome.status in (DeleteStatus.NOT_FOUND, DeleteStatus.FORBIDDEN):
        return refusal(outcome.status.value)
    body = {
        "success": outcome.success,
        "status": outcome.status.value,
        "deleted_count": outcome.deleted_count,
        "reason": outcome.reason,
    }
    return Response(DeleteOutput(body).data, status=OUTCOME_STATUS.get(outcome.status.value, 200))


class MemoryUpdateApi(UserApi):
    """POST …/memories/<id>/update — correct a fact in place; the id stays the same."""

    class InputSerializer(serializers.Serializer):
        text = serializers.CharField(max_length=MAX_FACT_LENGTH, trim_whitespace=True)
        category = serializers.ChoiceField(choices=CATEGORIES, required=False)

        class Meta:
            ref_name = "UserMemoryUpdateInput"

    @extend_schema(
        request=InputSerializer,
        responses={
            200: WriteOutput,
            400: WriteOutput,
            403: RefusalOutput,
            404: RefusalOutput,
            503: WriteOutput,
        },
    )
    def post(self, request: Request, memory_id: Any) -> Response:
        form = self.InputSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        outcome = services.memory_update(
            scope=self.scope(),
            memory_id=str(memory_id),
            text=form.validated_data["text"],
            category=form.validated_data.get("category"),
            actor=self.actor(),
            source=Source.CONSOLE,
        )
        return write_response(outcome)


class MemoryDeleteApi(UserApi):
    """POST …/memories/<id>/delete — forget one memory everywhere."""

    @extend_schema(
        request=None,
        responses={
            200: DeleteOutput,
            403: RefusalOutput,
            404: RefusalOutput,
            500: DeleteOutput,
            503: DeleteOutput,
        },
    )
    def post(self, request: Request, memory_id: Any) -> Response:
        outcome = services.memory_delete(
            scope=self.scope(), memory_id=str(memory_id), actor=self.actor(), source=Source.CONSOLE
        )
        return delete_response(outcome)


class MemoryDeleteAllApi(UserApi):
    """POST …/memories/delete-all — forget every memory of the user (``confirm: true``)."""

    class InputSerializer(serializers.Serializer):
        confirm = serializers.BooleanField()

        class Meta:
            ref_name = "UserMemoryDeleteAllInput"

        def validate_confirm(self, value: bool) -> bool:
            if value is not True:
                raise serializers.ValidationError("must be true to delete every memory")
            return value

    @extend_schema(
        request=InputSerializer,
        responses={200: DeleteOutput, 500: DeleteOutput, 503: DeleteOutput},
    )
    def post(self, request: Request) -> Response:
        self.InputSerializer(data=request.data).is_valid(raise_exception=True)
        outcome = services.memory_delete_user(
            scope=self.scope(), actor=self.actor(), source=Source.CONSOLE
        )
        return delete_response(outcome)


class SwitchesUpdateApi(UserApi):
    """POST …/memories/switches/update — change one or both switches."""

    class InputSerializer(serializers.Serializer):
        memory_save_enabled = serializers.BooleanField(required=False)
        memory_reference_enabled = serializers.BooleanField(required=False)

        class Meta:
            ref_name = "UserMemorySwitchesInput"

        def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
            if not attrs:
                raise serializers.ValidationError(
                    "send memory_save_enabled and/or memory_reference_enabled"
                )
            return attrs

    @extend_schema(request=InputSerializer, responses=SwitchesOutput)
    def post(self, request: Request) -> Response:
        form = self.InputSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        scope = self.scope()
        services.memory_switches_update(
            scope=scope,
            memory_save_enabled=form.validated_data.get("memory_save_enabled"),
            memory_reference_enabled=form.validated_data.get("memory_reference_enabled"),
        )
        return Response(SwitchesOutput(selectors.memory_switches(scope=scope)).data)
