"""What /v1/schema publishes: the internal /v1 contract only, every status with its body."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from drf_spectacular.utils import OpenApiExample, PolymorphicProxySerializer, extend_schema
from rest_framework import serializers

from edges.contract.shapes import ErrorOutput

# Every operation can answer these with the error shape.
ERRORS = {
    400: ErrorOutput,  # invalid_request (fields named) or malformed_json (also nested > 32)
    401: ErrorOutput,  # missing or wrong service token
    403: ErrorOutput,  # a token bound to other tenants than the one asked for
    413: ErrorOutput,  # body over DATA_UPLOAD_MAX_MEMORY_SIZE
    415: ErrorOutput,  # not application/json
    429: ErrorOutput,  # a rate limit of the token or the scope (Retry-After says when)
    500: ErrorOutput,  # a bug of ours
    503: ErrorOutput,  # PostgreSQL, the embedder or Mem0 unavailable
}
# By-id reads: another user's id in the tenant (403); an unknown id, or another tenant's (404).
REFUSALS = {403: ErrorOutput, 404: ErrorOutput}


def outcome_or_error(
    name: str, outcome: type[serializers.Serializer]
) -> PolymorphicProxySerializer:
    """A status answered either by a decided outcome's body or by the error shape."""
    return PolymorphicProxySerializer(
        component_name=name, serializers=[outcome, ErrorOutput], resource_type_field_name=None
    )


def failure_statuses(
    name: str, outcome: type[serializers.Serializer]
) -> dict[int, PolymorphicProxySerializer]:
    """A write's failing statuses (403 refused, 500 partial, 503 outage), each answered by the
    decided ``outcome`` or by the error shape; ``name`` prefixes their component names."""
    return {
        403: outcome_or_error(f"{name}OrRefusal", outcome),
        500: outcome_or_error(f"{name}OrError", outcome),
        503: outcome_or_error(f"{name}OrOutage", outcome),
    }


def v1_operation(
    *,
    summary: str,
    request: Any,
    ok: Any,
    example: dict[str, Any] | None = None,
    ok_status: int = 200,
    extra: dict[int, Any] | None = None,
    description: str = "",
    parameters: list[Any] | None = None,
    response_example: dict[str, Any] | None = None,
) -> Callable[[Any], Any]:
    """One documented operation: its success, every error status, and an example."""
    responses = {ok_status: ok, **ERRORS, **(extra or {})}
    examples = [OpenApiExample(summary, value=example, request_only=True)] if example else []
    if response_example:
        examples.append(
            OpenApiExample(summary, value=response_example, response_only=True, status_codes=[200])
        )
    return extend_schema(
        summary=summary,
        description=description,
        request=request,
        parameters=parameters,
        responses=responses,
        examples=examples,
    )


def only_v1(endpoints: list[tuple[str, str, str, Any]], **kwargs: Any) -> list[Any]:
    return [e for e in endpoints if e[0].startswith("/v1/memories/")]


# --- postprocessing: say in the document what the serializers enforce -----------------------
def _is_blank_alternative(schema: Any) -> bool:
    return schema == {"type": "string", "maxLength": 0}


def _collapse_blank_alternatives(node: Any) -> Any:
    """drf-spectacular writes an ``allow_blank`` string with a pattern as
    ``oneOf: [pattern, maxLength 0]``; "" then matches both branches, which oneOf forbids.
    Our patterns accept "" already, so the first branch alone says it."""
    if isinstance(node, list):
        return [_collapse_blank_alternatives(item) for item in node]
    if not isinstance(node, dict):
        return node
    one_of = node.get("oneOf")
    if isinstance(one_of, list) and len(one_of) == 2 and _is_blank_alternative(one_of[1]):
        rest = {k: v for k, v in node.items() if k != "oneOf"}
        return _collapse_blank_alternatives({**one_of[0], **rest})
    return {key: _collapse_blank_alternatives(value) for key, value in node.items()}


# ManageInput: which fields each action needs (ManageInput.validate enforces the same).
MANAGE_ACTIONS = [
    {"properties": {"action": {"enum": ["add"]}}, "required": ["text"]},
    {"properties": {"action": {"enum": ["update"]}}, "required": ["memory_id", "text"]},
    {"properties": {"action": {"enum": ["delete"]}}, "required": ["memory_id"]},
    {"properties": {"action": {"enum": ["none"]}}},
]


def strict_requests(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """Unknown request fields are refused (``additionalProperties: false``); ingest takes
    exactly one of ``messages``/``text``; manage needs ``text`` for add/update and
    ``memory_id`` for update/delete."""
    from edges.contract.serializers import MAX_MESSAGES, MAX_METADATA_ENTRIES, MAX_METADATA_KEY
    from memories.admission.refs import REF_PATTERN

    result = _collapse_blank_alternatives(result)
    schemas = result.get("components", {}).get("schemas", {})
    for name, schema in schemas.items():
        if name.endswith("Request") and schema.get("type") == "object":
            schema["additionalProperties"] = False
    ingest = schemas.get("IngestInputRequest")
    if ingest:
        ingest["properties"]["messages"].update(minItems=1, maxItems=MAX_MESSAGES)
        ingest["properties"]["metadata"].update(
            maxProperties=MAX_METADATA_ENTRIES,
            propertyNames={"minLength": 1, "maxLength": MAX_METADATA_KEY, "pattern": REF_PATTERN},
        )
        ingest["oneOf"] = [{"required": ["messages"]}, {"required": ["text"]}]
    manage = schemas.get("ManageInputRequest")
    if manage:
        manage["oneOf"] = MANAGE_ACTIONS
    return result
