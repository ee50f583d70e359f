"""Every output shape of the memory APIs, in one module (``/v1``, the user API, MCP tools).

A shape is defined once, as a DRF serializer, and reused; a contract keeps its own serializer
only where its shape really differs (the user API flattens a memory's category/source and
leaves out agent-only fields such as ``inserted_count`` or ``run_id``). Serialize typed results
with them: ``SearchOutput(result).data``. MCP's pydantic models are generated from the same
serializers (``edges.contract.mcp_shapes``), so the tools publish and answer exactly what
``/v1`` does.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from memories.types import DeleteStatus, WriteStatus

WRITE_STATUSES = sorted(s.value for s in WriteStatus)
DELETE_STATUSES = [s.value for s in DeleteStatus]


# --- search ----------------------------------------------------------------------------------
class ScoredMemoryOutput(serializers.Serializer):
    id = serializers.CharField()
    content = serializers.CharField()
    score = serializers.FloatField()
    metadata = serializers.SerializerMethodField()

    def get_metadata(self, hit: Any) -> dict[str, str]:
        return {"category": hit.category}


class SearchHitOutput(serializers.Serializer):
    id = serializers.CharField()
    content = serializers.CharField()
    score = serializers.FloatField()
    metadata = serializers.SerializerMethodField()

    def get_metadata(self, hit: Any) -> dict[str, str | None]:
        return {"category": hit.category} | hit_metadata(hit)


def hit_metadata(hit: Any) -> dict[str, str | None]:
    """What every door says of a search hit: how it matched — "evidence" (a recall channel found
    it over its floor) or "related" (one of the nearest memories by meaning after the evidence,
    docs/retrieval.md "The order of an answer") — and, ``as_of`` an instant, its validity."""
    match: dict[str, str | None] = {"match": "related" if hit.related else "evidence"}
    return match | validity_metadata(hit.validity)


def validity_metadata(validity: Any) -> dict[str, str | None]:
    """A hit of a search ``as_of`` an instant: when its fact held (ISO 8601 instants, null:
    unknown start or no end) and its status now; nothing for any other search."""
    if validity is None:
        return {}
    return {
        "valid_from": _iso(validity.valid_from),
        "valid_until": _iso(validity.valid_until),
        "status": validity.status,
    }


def _iso(value: Any) -> str | None:
    return None if value is None else value.isoformat()


class SearchOutput(serializers.Serializer):
    """Never ``relations``; an outage is ``available: false``, never zero hits."""

    items = SearchHitOutput(many=True)
    total = serializers.IntegerField()
    available = serializers.BooleanField()
    error_reason = serializers.CharField(allow_null=True)


# --- writes ----------------------------------------------------------------------------------
class ContextOutput(serializers.Serializer):
    text = serializers.CharField(allow_blank=True)
    injected_count = serializers.IntegerField(min_value=0, max_value=3)
    available = serializers.BooleanField()
    error_reason = serializers.CharField(allow_null=True)


# A memories.types.WriteOutcome as /v1 and MCP answer it (no docstring: it would be published).
class WriteOutput(serializers.Serializer):
    action = serializers.CharField()
    success = serializers.BooleanField()
    status = serializers.ChoiceField(choices=WRITE_STATUSES)
    memory_id = serializers.CharField(allow_null=True)
    inserted_count = serializers.IntegerField()
    reason = serializers.CharField(allow_null=True)
    superseded_id = serializers.CharField(
        allow_null=True,
        default=None,
        help_text="The memory of the same memory_key this write replaced (now superseded).",
    )


class UserWriteOutput(WriteOutput):
    # None removes an inherited field (DRF); the stubs do not know that idiom.
    action = None  # type: ignore[assignment]
    inserted_count = None  # type: ignore[assignment]

    class Meta:
        ref_name = "UserWriteOutput"


class DeleteOutput(serializers.Serializer):
    success = serializers.BooleanField()
    status = serializers.ChoiceField(choices=DELETE_STATUSES)
    deleted_count = serializers.IntegerField()
    reason = serializers.CharField(allow_null=True)


# --- memories --------------------------------------------------------------------------------
class MemoryOutput(serializers.Serializer):
    id = serializers.CharField()
    content = serializers.CharField()
    metadata = serializers.SerializerMethodField()
    created_at = serializers.DateTimeField(allow_null=True)
    updated_at = serializers.DateTimeField(allow_null=True)

    def get_metadata(self, record: Any) -> dict[str, Any]:
        return {**record.metadata, "category": record.category, "source": record.source}


class UserOriginOutput(serializers.Serializer):
    """Where a memory came from: the write path, the agent run that wrote it, when."""

    source = serializers.CharField()  # type: ignore[assignment]
    run_id = serializers.CharField(
        allow_null=True, help_text="The agent's run (task) that wrote it; null for the console."
    )
    created_at = serializers.DateTimeField(allow_null=True)

    class Meta:
        ref_name = "UserMemoryOrigin"


class UserUsageOutput(serializers.Serializer):
    """How often agents were given the memory: returned by a search (recalled) or put into
    a prompt by the context endpoint (injected). Counts and times only, never the query."""

    recalled_count = serializers.IntegerField()
    last_recalled_at = serializers.DateTimeField(allow_null=True)
    injected_count = serializers.IntegerField()
    last_injected_at = serializers.DateTimeField(allow_null=True)

    class Meta:
        ref_name = "UserMemoryUsage"


class UserMemoryOutput(serializers.Serializer):
    """One memory as the user sees it: category and source beside the text, whether it is
    pinned ("always use"), where it came from and how often agents used it."""

    id = serializers.CharField()
    content = serializers.CharField()
    category = serializers.CharField()
    # DRF pops declared fields off the class; the stubs see Field.source.
    source = serializers.CharField()  # type: ignore[assignment]
    created_at = serializers.DateTimeField(allow_null=True)
    updated_at = serializers.DateTimeField(allow_null=True)
    metadata = serializers.DictField()
    pinned = serializers.SerializerMethodField()
    origin = serializers.SerializerMethodField()
    usage = serializers.SerializerMethodField()

    class Meta:
        ref_name = "UserMemory"

    def get_pinned(self, record: Any) -> bool:
        return bool(record.metadata.get("pinned"))

    @extend_schema_field(UserOriginOutput)
    def get_origin(self, record: Any) -> dict[str, Any]:
        origin = {
            "source": record.source,
            "run_id": record.metadata.get("source_ref") or None,
            "created_at": record.created_at,
        }
        return dict(UserOriginOutput(origin).data)

    @extend_schema_field(UserUsageOutput)
    def get_usage(self, record: Any) -> dict[str, Any]:
        from memories.selectors import NEVER_USED

        uses = self.context.get("uses") or {}
        return dict(UserUsageOutput(uses.get(record.id, NEVER_USED)).data)


class ListOutput(serializers.Serializer):
    items = MemoryOutput(many=True)
    total = serializers.IntegerField()
    page = serializers.IntegerField()
    page_size = serializers.IntegerField()
    pages = serializers.IntegerField()


class UserListOutput(ListOutput):
    items = UserMemoryOutput(many=True)  # type: ignore[assignment]

    class Meta:
        ref_name = "UserMemoryList"


# --- overview and topics ---------------------------------------------------------------------
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


# --- related and history ---------------------------------------------------------------------
class RelatedOutput(serializers.Serializer):
    items = ScoredMemoryOutput(many=True)


class UserRelatedMemoryOutput(serializers.Serializer):
    id = serializers.CharField()
    content = serializers.CharField()
    score = serializers.FloatField()
    category = serializers.CharField()

    class Meta:
        ref_name = "UserRelatedMemory"


class UserRelatedOutput(serializers.Serializer):
    items = UserRelatedMemoryOutput(many=True)

    class Meta:
        ref_name = "UserRelated"


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


class UserHistoryEntryOutput(HistoryEntryOutput):
    run_id = None  # type: ignore[assignment]  # the agent's run is not the user's business

    class Meta:
        ref_name = "UserHistoryEntry"


class UserHistoryOutput(HistoryOutput):
    items = UserHistoryEntryOutput(many=True)

    class Meta:
        ref_name = "UserHistory"


# --- switches and ingest ---------------------------------------------------------------------
class SwitchesOutput(serializers.Serializer):
    memory_save_enabled = serializers.BooleanField()
    memory_reference_enabled = serializers.BooleanField()


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


# --- errors (see edges.contract.errors) --------------------------------------------------------
class ErrorDetailOutput(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()
    fields = serializers.DictField(  # type: ignore[assignment]
        help_text="Each bad input field with its reasons (nested for nested input); {} otherwise."
    )


class ErrorOutput(serializers.Serializer):
    """The one error shape of both APIs."""

    success = serializers.BooleanField()
    status = serializers.CharField(help_text="The same as error.code.")
    error = ErrorDetailOutput()


# --- export / import (memories.ops.portability) ---------------------------------------------------
class ExportHistoryOutput(serializers.Serializer):
    """One row of the trail (``portability.history_item``): never who by id."""

    event = serializers.CharField()
    old_text = serializers.CharField(allow_null=True)
    new_text = serializers.CharField(allow_null=True)
    status = serializers.CharField(allow_null=True)
    source = serializers.CharField(allow_null=True)  # type: ignore[assignment]
    run_id = serializers.CharField(allow_null=True)
    actor_kind = serializers.CharField(allow_null=True)
    changes = serializers.DictField()
    at = serializers.CharField(allow_null=True, help_text="ISO 8601")
    imported = serializers.BooleanField(help_text="Written by an import, from the document")


class ExportUsageOutput(serializers.Serializer):
    recalled_count = serializers.IntegerField()
    last_recalled_at = serializers.CharField(allow_null=True, help_text="ISO 8601")
    injected_count = serializers.IntegerField()
    last_injected_at = serializers.CharField(allow_null=True, help_text="ISO 8601")


class ExportMemoryOutput(serializers.Serializer):
    id = serializers.CharField()
    content = serializers.CharField()
    category = serializers.CharField()
    memory_key = serializers.CharField(allow_null=True)
    status = serializers.CharField()
    source = serializers.CharField()  # type: ignore[assignment]
    source_ref = serializers.CharField(allow_null=True)
    confidence = serializers.FloatField(allow_null=True)
    superseded_by = serializers.CharField(allow_null=True)
    valid_until = serializers.CharField(allow_null=True, help_text="ISO 8601")
    created_at = serializers.CharField(allow_null=True, help_text="ISO 8601")
    updated_at = serializers.CharField(allow_null=True, help_text="ISO 8601")
    embedding_model = serializers.CharField(allow_null=True)
    schema_version = serializers.IntegerField(allow_null=True)
    pinned = serializers.BooleanField()
    pinned_at = serializers.CharField(allow_null=True, help_text="ISO 8601")
    history = ExportHistoryOutput(many=True, help_text="The memory's change trail, oldest first")
    usage = ExportUsageOutput()
    imported_at = serializers.CharField(allow_null=True, help_text="ISO 8601; set by an import")
    import_id = serializers.CharField(allow_null=True, help_text="The import that wrote it")


class ExportScopeOutput(serializers.Serializer):
    tenant_id = serializers.CharField()
    user_id = serializers.CharField()


class ExportOutput(serializers.Serializer):
    """A versioned export document: what ``/v1/memories/import`` takes back."""

    format = serializers.CharField()
    version = serializers.IntegerField()
    scope = ExportScopeOutput()
    exported_at = serializers.CharField(help_text="ISO 8601")
    memories = ExportMemoryOutput(many=True)


class ImportItemOutput(serializers.Serializer):
    index = serializers.IntegerField(help_text="The item's position in document.memories")
    status = serializers.ChoiceField(
        choices=["added", "no_effect", "rejected", "backend_error", "not_attempted"],
        help_text="What happened to this item (an item that took over a key is added)",
    )
    memory_id = serializers.CharField(allow_null=True)
    reason = serializers.CharField(allow_null=True)
    superseded_id = serializers.CharField(
        allow_null=True,
        help_text="The memory of the same memory_key this item replaced (now superseded).",
    )


class ImportOutput(serializers.Serializer):
    success = serializers.BooleanField()
    # scope_deleted: a delete-user of the scope ran during the import, which stopped there.
    status = serializers.ChoiceField(choices=["done", "backend_error", "scope_deleted"])
    added = serializers.SerializerMethodField()
    superseded = serializers.SerializerMethodField()
    no_effect = serializers.SerializerMethodField()
    rejected = serializers.SerializerMethodField()
    not_attempted = serializers.SerializerMethodField()
    reason = serializers.CharField(allow_null=True)
    items = ImportItemOutput(many=True)
    import_id = serializers.CharField(
        help_text="The mark every memory this import wrote carries (payload import_id)"
    )

    def get_added(self, report: Any) -> int:
        return int(report.count("added"))

    def get_superseded(self, report: Any) -> int:
        return int(report.superseded)  # memories replaced by added items, counted in added too

    def get_no_effect(self, report: Any) -> int:
        return int(report.count("no_effect"))

    def get_rejected(self, report: Any) -> int:
        return int(report.count("rejected"))

    def get_not_attempted(self, report: Any) -> int:
        return int(report.count("not_attempted") + report.count("backend_error"))


class BulkItemOutput(serializers.Serializer):
    memory_id = serializers.CharField(allow_null=True)
    status = serializers.ChoiceField(choices=WRITE_STATUSES)
    reason = serializers.CharField(allow_null=True)


class BulkWriteOutput(serializers.Serializer):
    """One outcome per memory of a bulk change, in the order sent."""

    updated = serializers.SerializerMethodField()
    items = BulkItemOutput(many=True)

    def get_updated(self, body: Any) -> int:
        return sum(1 for o in body["items"] if o.status == WriteStatus.UPDATED)


class ImportPreviewItemOutput(serializers.Serializer):
    index = serializers.IntegerField(help_text="The item's position in document.memories")
    content = serializers.CharField(help_text="As it would be stored (added), or as sent")
    category = serializers.CharField()
    decision = serializers.ChoiceField(choices=["add", "refuse", "skip"])
    reason = serializers.CharField(
        allow_null=True,
        help_text="refuse: the admission reason; skip: duplicate, not_active:<status> or "
        "expired; add: replaces (a current memory of its key) or null",
    )
    memory_id = serializers.CharField(
        allow_null=True, help_text="The stored memory it repeats (skip) or replaces (add)"
    )
    removed = serializers.ListField(
        child=serializers.CharField(),
        help_text="add: the parts admission cuts out of the text (links, paths, logs)",
    )


class ImportPreviewOutput(serializers.Serializer):
    """What an import would do; nothing is written. The import decides again."""

    added = serializers.SerializerMethodField()
    refused = serializers.SerializerMethodField()
    skipped = serializers.SerializerMethodField()
    items = ImportPreviewItemOutput(many=True)

    def get_added(self, preview: Any) -> int:
        return len(preview.added)

    def get_refused(self, preview: Any) -> int:
        return len(preview.refused)

    def get_skipped(self, preview: Any) -> int:
        return len(preview.skipped)
