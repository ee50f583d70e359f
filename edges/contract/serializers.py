"""Input of the /v1 contract: strict types, published bounds, no unknown fields.

Output shapes live in :mod:`edges.contract.shapes`.
"""

from __future__ import annotations

import re
from dataclasses import fields
from datetime import UTC
from typing import Any, ClassVar

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from drf_spectacular.utils import extend_schema_field
from rest_framework import exceptions, serializers

from edges.contract.auth import ServiceCaller
from edges.contract.fields import (
    BOUND_HELP,
    EMPTY_RANGE,
    AsOfField,
    BoundField,
    RefField,
    StrictBooleanField,
    StrictCharField,
    StrictChoiceField,
    StrictFloatField,
    StrictIntegerField,
    StrictRegexField,
    StrictSerializer,
    StrictUUIDField,
    StringMapField,
    ValidUntilField,
    holds_no_instant,
)
from memories.export_document import (
    CHANGED_FIELDS,
    EXPORT_FORMAT,
    EXPORT_VERSION,
    HISTORY_EVENTS,
    MAX_HISTORY,
    MAX_IMPORT_ITEMS,
    OLDEST_READ_VERSION,
    STATUSES,
)
from memories.types import (
    MEMORY_KEY,
    SCOPE_PART,
    ActorKind,
    Category,
    ListOrder,
    ListQuery,
    MemoryScope,
    SearchFilters,
    Source,
    StatusFilter,
)

MAX_QUERY = 2000
MAX_TEXT = 2000
MAX_PAGE = 10_000  # x page_size 100: a million memories, far past any one user's
MAX_PAGE_SIZE = 100
MAX_MESSAGE = 20_000
MAX_MESSAGES = 50
MAX_METADATA_ENTRIES = 20
MAX_METADATA_KEY = 64
CATEGORIES = [c.value for c in Category]
SOURCES = [s.value for s in Source]
MESSAGE_ROLES = ["user", "assistant", "system", "tool"]
STATUS_FILTERS = [s.value for s in StatusFilter]
ORDERS = [o.value for o in ListOrder]
MAX_MEMORY_KEY = 96


def memory_key_field(*, allow_blank: bool = False, **kwargs: Any) -> StrictRegexField:
    """``namespace.attribute`` in lower-case ASCII, e.g. ``preference.answer_language``; with
    ``allow_blank`` also ``""`` (removes the key), and the published pattern says so."""
    pattern = MEMORY_KEY
    if allow_blank:
        pattern = re.compile(r"^(?:" + MEMORY_KEY.pattern.strip("^").removesuffix(r"\Z") + r")?\Z")
    return StrictRegexField(
        pattern,
        max_length=MAX_MEMORY_KEY,
        trim_whitespace=False,
        required=False,
        allow_blank=allow_blank,
        **kwargs,
    )


class ScopeInput(StrictSerializer):
    tenant_id = StrictRegexField(SCOPE_PART, max_length=64, trim_whitespace=False)
    user_id = StrictRegexField(SCOPE_PART, max_length=64, trim_whitespace=False)

    def scope(self) -> MemoryScope:
        """The scope the input names, for the service caller in ``context["caller"]``: every
        /v1 view gets its scope here, so none can skip the check of a token bound to tenants
        (``ServiceCaller.scope``, 403). Without a caller there is no scope."""
        data: dict[str, Any] = self.validated_data
        caller = self.context.get("caller")
        if not isinstance(caller, ServiceCaller):
            raise ImproperlyConfigured("a /v1 scope needs context={'caller': request.user}")
        return caller.scope(tenant_id=data["tenant_id"], user_id=data["user_id"])


class MemoryIdInput(ScopeInput):
    memory_id = StrictUUIDField()


class SearchFiltersInput(StrictSerializer):
    """The filters of a search, declared once for every door that takes them (``/v1``, and
    ``/mem0`` through it): every recall channel applies them before its top-k cut; ``filters``
    is the one ``SearchFilters`` they mean. Each time is read by ``fields.read_time`` (a day or
    a date-time with its offset), and a range that holds no instant is refused."""

    RANGES: ClassVar[tuple[tuple[str, str], ...]] = (
        ("created_after", "created_before"),
        ("updated_after", "updated_before"),
    )

    category = StrictChoiceField(choices=CATEGORIES, required=False)
    source = StrictChoiceField(choices=SOURCES, required=False)  # type: ignore[assignment]
    created_after = BoundField(help_text="Created at or after. " + BOUND_HELP)
    created_before = BoundField(help_text="Created before. " + BOUND_HELP)
    updated_after = BoundField(help_text="Last changed at or after. " + BOUND_HELP)
    updated_before = BoundField(help_text="Last changed before. " + BOUND_HELP)
    memory_key = memory_key_field()
    as_of = AsOfField()

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        errors: dict[str, list[str]] = {}
        for after, before in self.RANGES:
            if holds_no_instant(attrs.get(after), attrs.get(before)):
                message = EMPTY_RANGE.format(after=after, before=before)
                errors[after] = errors[before] = [message]
        if errors:
            raise serializers.ValidationError(errors)
        return attrs

    def filters(self) -> SearchFilters:
        data: dict[str, Any] = self.validated_data
        return SearchFilters(
            as_of=data.get("as_of"),
            memory_key=data.get("memory_key", ""),
            category=data.get("category", ""),
            source=data.get("source", ""),
            created_after=data.get("created_after"),
            created_before=data.get("created_before"),
            updated_after=data.get("updated_after"),
            updated_before=data.get("updated_before"),
        )


class SearchInput(ScopeInput, SearchFiltersInput):
    query = StrictCharField(max_length=MAX_QUERY, trim_whitespace=True)
    top_k = StrictIntegerField(min_value=1, max_value=50, default=5)
    min_score = StrictFloatField(min_value=0.0, max_value=1.0, required=False)


class ContextInput(ScopeInput):
    """The executor's automatic context: the user's current input and the kind of run."""

    input = StrictCharField(max_length=MAX_MESSAGE, trim_whitespace=True, allow_blank=True)
    run_kind = RefField(max_length=32)
    as_of = AsOfField()


class ManageInput(ScopeInput):
    ACTIONS = ("add", "update", "delete", "none")
    action = StrictChoiceField(choices=ACTIONS)
    memory_id = StrictUUIDField(required=False)
    text = StrictCharField(max_length=MAX_TEXT, required=False, trim_whitespace=True)
    category = StrictChoiceField(choices=CATEGORIES, required=False)
    confidence = StrictFloatField(min_value=0.0, max_value=1.0, required=False)
    # add: the key this fact is the current value of; update: "" removes the key.
    memory_key = memory_key_field(allow_blank=True)
    # Absent: add uses the default lifetime, update keeps it; null: never expires.
    valid_until = ValidUntilField()
    run_id = RefField()
    run_kind = RefField(max_length=32)
    reason = StrictCharField(max_length=500, required=False, default="", allow_blank=True)

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


def list_text_field() -> StrictCharField:
    """The words a list is searched for (``query`` on /v1, ``q`` in a query string)."""
    return StrictCharField(max_length=200, required=False, default="", allow_blank=True)


class ListFiltersInput(StrictSerializer):
    """The filters of a list of memories and its page, declared once for every door (``/v1``
    and ``/mem0``'s ``get_all`` in a JSON body; the user API in a query string through
    ``ListFiltersParams``); ``list_query`` is the one ``ListQuery`` they mean. ``text_field``
    names the parameter that carries the words."""

    text_field: ClassVar[str] = "query"

    query = list_text_field()
    category = StrictChoiceField(choices=CATEGORIES, required=False, default="", allow_blank=True)
    # A source no memory can have is a 400 naming the choices, never an empty list.
    source = StrictChoiceField(  # type: ignore[assignment]
        choices=SOURCES, required=False, default="", allow_blank=True
    )
    topic = StrictCharField(max_length=200, required=False, default="", allow_blank=True)
    status = StrictChoiceField(
        choices=STATUS_FILTERS, required=False, default=StatusFilter.ACTIVE.value
    )
    memory_key = memory_key_field(default="")
    run_id = RefField()
    order = StrictChoiceField(choices=ORDERS, required=False, default=ListOrder.CREATED.value)
    page: serializers.IntegerField = StrictIntegerField(min_value=1, max_value=MAX_PAGE, default=1)
    page_size: serializers.IntegerField = StrictIntegerField(
        min_value=1, max_value=MAX_PAGE_SIZE, default=20
    )

    def list_query(self) -> ListQuery:
        """The validated parameters as the one ``ListQuery``; what was not sent keeps the
        query's default."""
        data: dict[str, Any] = self.validated_data
        given = {**data, "query": data.get(self.text_field, "")}
        return ListQuery(**{f.name: given[f.name] for f in fields(ListQuery) if f.name in given})


class ListFiltersParams(ListFiltersInput):
    """``ListFiltersInput`` read from a query string, where every value is text: the words are
    ``q`` and the page numbers are digits."""

    text_field = "q"

    query = None  # type: ignore[assignment]
    q = list_text_field()
    page = serializers.IntegerField(min_value=1, max_value=MAX_PAGE, default=1)
    page_size = serializers.IntegerField(min_value=1, max_value=MAX_PAGE_SIZE, default=20)


class ListInput(ScopeInput, ListFiltersInput):
    """A page of the scope's memories on /v1."""


class TopicsInput(ScopeInput):
    limit = StrictIntegerField(min_value=1, max_value=200, default=40)


class RelatedInput(MemoryIdInput):
    limit = StrictIntegerField(min_value=1, max_value=20, default=5)


class UpdateItemInput(MemoryIdInput):
    text = StrictCharField(max_length=MAX_TEXT, trim_whitespace=True)
    category = StrictChoiceField(choices=CATEGORIES, required=False)
    memory_key = memory_key_field(allow_blank=True)
    valid_until = ValidUntilField()


class IngestMessageInput(StrictSerializer):
    role = StrictChoiceField(choices=MESSAGE_ROLES)
    content = StrictCharField(max_length=MAX_MESSAGE, allow_blank=True, trim_whitespace=False)


class IngestTooLarge(exceptions.APIException):
    """An ingest past its bounds (message count, characters in all): a 413 naming the field."""

    status_code = 413
    default_code = "payload_too_large"

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.fields = {"messages": [reason]}


class IngestInput(ScopeInput):
    """New shape ``messages`` (real roles) or the legacy ``text`` shape (one user message):
    exactly one of the two."""

    run_id = RefField()
    source = RefField(max_length=32, default="task_completed")  # type: ignore[assignment]
    run_kind = RefField(max_length=32)
    # The count is bounded in validate_messages (a 413, like the total size), not here (400).
    messages = IngestMessageInput(many=True, required=False, min_length=1)  # type: ignore[call-arg]
    text = StrictCharField(max_length=MAX_MESSAGE, required=False, trim_whitespace=False)
    metadata = StringMapField(
        max_entries=MAX_METADATA_ENTRIES,
        max_key=MAX_METADATA_KEY,
        max_value=500,
        required=False,
        default=dict,
    )

    def validate_messages(self, messages: list[dict[str, str]]) -> list[dict[str, str]]:
        # One ingest is one extraction on the one queue: bounded, so no tenant's job can hold
        # the worker for long (a 1 MB transcript took minutes).
        if len(messages) > MAX_MESSAGES:
            raise IngestTooLarge(f"at most {MAX_MESSAGES} messages per ingest")
        total = sum(len(m["content"]) for m in messages)
        if total > settings.INGEST_MAX_CHARS:
            raise IngestTooLarge(
                f"at most {settings.INGEST_MAX_CHARS} characters in all messages of an ingest"
            )
        return messages

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        has_messages, has_text = "messages" in attrs, "text" in attrs
        if has_messages == has_text:
            raise serializers.ValidationError(
                {"messages": ["send either messages (new shape) or text (legacy shape)"]}
            )
        if has_text:
            attrs["messages"] = [{"role": "user", "content": attrs.pop("text")}]
            if "source" not in self.initial_data:
                attrs["source"] = "legacy_text"
        return attrs


# --- export / import (memories.export_document) -------------------------------------
class DocumentInstantField(serializers.DateTimeField):
    """An instant of an export document. One without an offset is UTC, as the service reads a
    stored instant (``memories.instants``): an import lands it where the lists show it."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(default_timezone=UTC, **kwargs)


@extend_schema_field(
    {
        "type": "object",
        "description": "The fields an UPDATE changed, each as [old, new].",
        "properties": {
            name: {
                "type": "array",
                "minItems": 2,
                "maxItems": 2,
                "items": {"type": "string", "maxLength": 200, "nullable": True},
            }
            for name in CHANGED_FIELDS
        },
        "additionalProperties": False,
    }
)
class ChangesField(serializers.DictField):
    """A trail row's ``changes``, published with its closed set of names (``validate_changes``
    below is the rule)."""


class ImportHistoryInput(StrictSerializer):
    """One row of an exported memory's change trail (version 2)."""

    event = StrictChoiceField(choices=list(HISTORY_EVENTS))
    old_text = StrictCharField(
        max_length=MAX_TEXT, required=False, allow_blank=True, trim_whitespace=False, default=""
    )
    new_text = StrictCharField(
        max_length=MAX_TEXT, required=False, allow_blank=True, trim_whitespace=False, default=""
    )
    status = RefField(max_length=32)
    source = RefField(max_length=16)  # type: ignore[assignment]
    run_id = RefField()
    actor_kind = StrictChoiceField(
        choices=[kind.value for kind in ActorKind], required=False, default=ActorKind.SYSTEM.value
    )
    changes = ChangesField(required=False, default=dict)
    at = DocumentInstantField()
    imported = StrictBooleanField(required=False, default=False)

    def validate_changes(self, changes: dict[str, Any]) -> dict[str, list[str | None]]:
        """Only the fields an UPDATE names, each as [old, new] of short strings or null."""
        checked: dict[str, list[str | None]] = {}
        for name, pair in changes.items():
            if name not in CHANGED_FIELDS:
                raise serializers.ValidationError(f"unknown changed field {name!r}")
            if not isinstance(pair, list) or len(pair) != 2:
                raise serializers.ValidationError(f"{name}: expected [old, new]")
            if any(v is not None and (not isinstance(v, str) or len(v) > 200) for v in pair):
                raise serializers.ValidationError(f"{name}: values are short strings or null")
            checked[name] = list(pair)
        return checked


class ImportUsageInput(StrictSerializer):
    """How often agents were given an exported memory (version 2)."""

    recalled_count = StrictIntegerField(min_value=0, max_value=10**9, required=False, default=0)
    last_recalled_at = DocumentInstantField(required=False, allow_null=True, default=None)
    injected_count = StrictIntegerField(min_value=0, max_value=10**9, required=False, default=0)
    last_injected_at = DocumentInstantField(required=False, allow_null=True, default=None)


class ImportItemInput(StrictSerializer):
    """One exported memory: every field an export writes is accepted, so a document round-trips
    unchanged; ``content`` is the only one required."""

    id = StrictUUIDField(required=False, allow_null=True)
    content = StrictCharField(max_length=MAX_TEXT, trim_whitespace=True)
    category = StrictChoiceField(choices=CATEGORIES, required=False, default=Category.FACT.value)
    memory_key = StrictCharField(max_length=128, required=False, allow_null=True, allow_blank=True)
    status = StrictChoiceField(choices=list(STATUSES), required=False, default="active")
    source = StrictChoiceField(choices=SOURCES, required=False, allow_null=True)  # type: ignore[assignment]
    source_ref = RefField(allow_null=True)
    confidence = StrictFloatField(min_value=0.0, max_value=1.0, required=False, allow_null=True)
    superseded_by = StrictUUIDField(required=False, allow_null=True)
    valid_until = DocumentInstantField(required=False, allow_null=True)
    created_at = DocumentInstantField(required=False, allow_null=True)
    updated_at = DocumentInstantField(required=False, allow_null=True)
    embedding_model = StrictCharField(
        max_length=200, required=False, allow_null=True, allow_blank=True
    )
    schema_version = StrictIntegerField(
        min_value=1, max_value=1000, required=False, allow_null=True
    )
    # Version 2: the pin, the trail, the usage and the marks of an earlier import.
    pinned = StrictBooleanField(required=False, default=False)
    pinned_at = DocumentInstantField(required=False, allow_null=True)
    history = ImportHistoryInput(many=True, required=False, max_length=MAX_HISTORY)  # type: ignore[call-arg]
    usage = ImportUsageInput(required=False, allow_null=True)
    imported_at = DocumentInstantField(required=False, allow_null=True)
    import_id = RefField(allow_null=True)


class ExportDocumentInput(StrictSerializer):
    """The document ``/v1/memories/export`` answers (``memories.ops.portability``)."""

    format = StrictChoiceField(choices=[EXPORT_FORMAT])
    # Published as the range of versions this server reads (it writes the newest).
    version = StrictIntegerField(
        min_value=OLDEST_READ_VERSION,
        max_value=EXPORT_VERSION,
        error_messages=dict.fromkeys(
            ("min_value", "max_value"),
            f"unsupported version; this server reads versions {OLDEST_READ_VERSION} to "
            f"{EXPORT_VERSION}",
        ),
    )
    scope = ScopeInput(required=False)
    exported_at = DocumentInstantField(required=False, allow_null=True)
    memories = ImportItemInput(many=True, max_length=MAX_IMPORT_ITEMS)  # type: ignore[call-arg]


class ImportInput(ScopeInput):
    """Import an export document into the scope named by ``tenant_id``/``user_id`` (which may
    differ from the scope the document was exported from)."""

    document = ExportDocumentInput()
