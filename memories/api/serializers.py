"""Input validation and output shapes of the /v1 contract (seed 000 §9)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from memories.types import SCOPE_PART, Category, MemoryScope, SearchFilters, Source

MAX_QUERY = 2000
MAX_TEXT = 2000


class ScopeInput(serializers.Serializer):
    tenant_id = serializers.RegexField(SCOPE_PART, max_length=64, trim_whitespace=False)
    user_id = serializers.RegexField(SCOPE_PART, max_length=64, trim_whitespace=False)

    def scope(self) -> MemoryScope:
        data: dict[str, Any] = self.validated_data
        return MemoryScope(tenant_id=data["tenant_id"], user_id=data["user_id"])


class MemoryIdInput(ScopeInput):
    memory_id = serializers.UUIDField(format="hex_verbose")


class SearchInput(ScopeInput):
    query = serializers.CharField(max_length=MAX_QUERY, trim_whitespace=True)
    top_k = serializers.IntegerField(min_value=1, max_value=50, default=5)
    min_score = serializers.FloatField(min_value=0.0, max_value=1.0, required=False)
    # Filters every recall channel applies before its top-k cut (issue 9).
    category = serializers.ChoiceField(choices=[c.value for c in Category], required=False)
    source = serializers.ChoiceField(choices=[s.value for s in Source], required=False)  # type: ignore[assignment]
    created_after = serializers.DateTimeField(required=False)
    created_before = serializers.DateTimeField(required=False)
    updated_after = serializers.DateTimeField(required=False)
    updated_before = serializers.DateTimeField(required=False)

    def filters(self) -> SearchFilters:
        data: dict[str, Any] = self.validated_data
        return SearchFilters(
            category=data.get("category", ""),
            source=data.get("source", ""),
            created_after=data.get("created_after"),
            created_before=data.get("created_before"),
            updated_after=data.get("updated_after"),
            updated_before=data.get("updated_before"),
        )


class ContextInput(ScopeInput):
    """The executor's automatic context: the user's current input and the kind of run."""

    input = serializers.CharField(max_length=20000, trim_whitespace=True, allow_blank=True)
    run_kind = serializers.CharField(max_length=32, required=False, default="", allow_blank=True)


class ContextOutput(serializers.Serializer):
    text = serializers.CharField(allow_blank=True)
    injected_count = serializers.IntegerField(min_value=0, max_value=3)
    available = serializers.BooleanField()
    error_reason = serializers.CharField(allow_null=True)


class ManageInput(ScopeInput):
    ACTIONS = ("add", "update", "delete", "none")
    action = serializers.ChoiceField(choices=ACTIONS)
    memory_id = serializers.UUIDField(format="hex_verbose", required=False)
    text = serializers.CharField(max_length=MAX_TEXT, required=False, trim_whitespace=True)
    category = serializers.ChoiceField(choices=[c.value for c in Category], required=False)
    confidence = serializers.FloatField(min_value=0.0, max_value=1.0, required=False)
    run_id = serializers.CharField(max_length=128, required=False, default="")
    run_kind = serializers.CharField(max_length=32, required=False, default="")
    reason = serializers.CharField(max_length=500, required=False, default="")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        action = attrs["action"]
        errors: dict[str, list[str]] = {}
        if action in ("add", "update") and not attrs.get("text"):
            errors["text"] = [f"text is required for {action}"]
        if action in ("update", "delete") and not attrs.get("memory_id"):
            errors["memory_id"] = [f"memory_id from search is required for {action}"]
        if errors:
            raise serializers.ValidationError(errors)
        return attrs


class ListInput(ScopeInput):
    page = serializers.IntegerField(min_value=1, default=1)
    page_size = serializers.IntegerField(min_value=1, max_value=100, default=20)
    query = serializers.CharField(max_length=200, required=False, default="", allow_blank=True)
    category = serializers.ChoiceField(
        choices=[c.value for c in Category], required=False, default="", allow_blank=True
    )
    source = serializers.CharField(max_length=16, required=False, default="", allow_blank=True)  # type: ignore[assignment]
    topic = serializers.CharField(max_length=200, required=False, default="", allow_blank=True)


class TopicsInput(ScopeInput):
    limit = serializers.IntegerField(min_value=1, max_value=200, default=40)


class RelatedInput(MemoryIdInput):
    limit = serializers.IntegerField(min_value=1, max_value=20, default=5)


class UpdateItemInput(MemoryIdInput):
    text = serializers.CharField(max_length=MAX_TEXT, trim_whitespace=True)
    category = serializers.ChoiceField(choices=[c.value for c in Category], required=False)


# --- outputs -----------------------------------------------------------------------------------
class HitMetadataOutput(serializers.Serializer):
    category = serializers.CharField()


class SearchHitOutput(serializers.Serializer):
    id = serializers.CharField()
    content = serializers.CharField()
    score = serializers.FloatField()
    metadata = serializers.SerializerMethodField()

    def get_metadata(self, hit: Any) -> dict[str, str]:
        return {"category": hit.category}


class SearchOutput(serializers.Serializer):
    items = SearchHitOutput(many=True)
    total = serializers.IntegerField()
    available = serializers.BooleanField()
    error_reason = serializers.CharField(allow_null=True)


class WriteOutput(serializers.Serializer):
    action = serializers.CharField()
    success = serializers.BooleanField()
    status = serializers.CharField()
    memory_id = serializers.CharField(allow_null=True)
    inserted_count = serializers.IntegerField()
    reason = serializers.CharField(allow_null=True)


class DeleteOutput(serializers.Serializer):
    success = serializers.BooleanField()
    status = serializers.CharField()
    deleted_count = serializers.IntegerField()
    reason = serializers.CharField(allow_null=True)


class MemoryOutput(serializers.Serializer):
    id = serializers.CharField()
    content = serializers.CharField()
    metadata = serializers.SerializerMethodField()
    created_at = serializers.DateTimeField(allow_null=True)
    updated_at = serializers.DateTimeField(allow_null=True)

    def get_metadata(self, record: Any) -> dict[str, Any]:
        return {**record.metadata, "category": record.category, "source": record.source}


class ListOutput(serializers.Serializer):
    items = MemoryOutput(many=True)
    total = serializers.IntegerField()
    page = serializers.IntegerField()
    page_size = serializers.IntegerField()
    pages = serializers.IntegerField()


class DailyOutput(serializers.Serializer):
    day = serializers.CharField()
    adds = serializers.IntegerField()
    updates = serializers.IntegerField()
    deletes = serializers.IntegerField()


class OverviewOutput(serializers.Serializer):
    total = serializers.IntegerField()
    added_30d = serializers.IntegerField()
    updated_30d = serializers.IntegerField()
    last_changed_at = serializers.DateTimeField(allow_null=True)
    sources = serializers.DictField(child=serializers.IntegerField())
    categories = serializers.DictField(child=serializers.IntegerField())
    daily = DailyOutput(many=True)


class TopicOutput(serializers.Serializer):
    id = serializers.CharField()
    text = serializers.CharField()
    kind = serializers.CharField()
    memory_count = serializers.IntegerField()


class TopicsOutput(serializers.Serializer):
    items = TopicOutput(many=True)


class RelatedItemOutput(SearchHitOutput):
    pass


class RelatedOutput(serializers.Serializer):
    items = RelatedItemOutput(many=True)


class HistoryEntryOutput(serializers.Serializer):
    event = serializers.CharField()
    old_text = serializers.CharField(allow_blank=True)
    new_text = serializers.CharField(allow_blank=True)
    actor_kind = serializers.CharField()
    actor_id = serializers.CharField(allow_blank=True)
    source = serializers.CharField(allow_blank=True)  # type: ignore[assignment]
    run_id = serializers.CharField(allow_blank=True)
    status = serializers.CharField(allow_blank=True)
    created_at = serializers.DateTimeField()


class HistoryOutput(serializers.Serializer):
    memory_id = serializers.CharField()
    items = HistoryEntryOutput(many=True)


class RefusalOutput(serializers.Serializer):
    status = serializers.CharField()
    success = serializers.BooleanField()


class IngestMessageInput(serializers.Serializer):
    role = serializers.ChoiceField(choices=["user", "assistant", "system", "tool"])
    content = serializers.CharField(max_length=20000, allow_blank=True, trim_whitespace=False)


class IngestInput(ScopeInput):
    """New shape ``messages`` (real roles) or the legacy ``text`` shape (one user message)."""

    run_id = serializers.CharField(max_length=128, required=False, default="")
    source = serializers.CharField(max_length=32, required=False, default="task_completed")  # type: ignore[assignment]
    run_kind = serializers.CharField(max_length=32, required=False, default="")
    messages = IngestMessageInput(many=True, required=False, max_length=50)  # type: ignore[call-arg]
    text = serializers.CharField(max_length=20000, required=False, trim_whitespace=False)
    metadata = serializers.DictField(required=False, default=dict)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        has_messages, has_text = bool(attrs.get("messages")), bool(attrs.get("text"))
        if has_messages == has_text:
            raise serializers.ValidationError(
                {"messages": ["send either messages (new shape) or text (legacy shape)"]}
            )
        if has_text:
            attrs["messages"] = [{"role": "user", "content": attrs.pop("text")}]
            if "source" not in self.initial_data:
                attrs["source"] = "legacy_text"
        return attrs


class IngestAcceptedOutput(serializers.Serializer):
    accepted = serializers.BooleanField()
    status = serializers.CharField()
    job_id = serializers.CharField(allow_null=True)
    reason = serializers.CharField(allow_null=True)


class IngestStatusOutput(serializers.Serializer):
    job_id = serializers.CharField(source="id")
    status = serializers.CharField()
    attempts = serializers.IntegerField()
    inserted_count = serializers.IntegerField()
    memory_ids = serializers.ListField(child=serializers.CharField())
    reason = serializers.CharField(allow_blank=True)
    run_id = serializers.CharField(allow_blank=True)
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()
