"""What ``/mem0/schema`` publishes: the Mem0-compatible door in a document of its own, tagged
``mem0`` (``/v1/schema`` stays the internal contract). The answer shapes are those of
``edges.mem0_api.shapes``, written out as serializers for the document only."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.utils import extend_schema
from rest_framework import serializers

from edges.contract.shapes import ErrorDetailOutput
from edges.mem0_api.edge import TENANT_HEADER
from edges.mem0_api.shapes import HISTORY_EVENTS

TAG = "mem0"
SETTINGS = {
    "TITLE": "Poco Memory: the Mem0-compatible API",
    "DESCRIPTION": (
        'Mem0\'s platform paths for existing mem0ai clients (host=".../mem0"). The tenant is '
        f"the token's one tenant, or the {TENANT_HEADER} header. docs/mem0-compat.md."
    ),
    "PREPROCESSING_HOOKS": ["edges.mem0_api.schema.only_mem0"],
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums"],
}


def only_mem0(endpoints: list[tuple[str, str, str, Any]], **kwargs: Any) -> list[Any]:
    """The door's operations, without its catch-all (what answers 501) and this document."""
    return [
        e
        for e in endpoints
        if e[0].startswith("/mem0/v")
        and getattr(getattr(e[3], "cls", None), "__name__", "") != "NotSupportedView"
    ]


class Mem0TokenScheme(OpenApiAuthenticationExtension):
    """The service token as Mem0's clients send it: ``Authorization: Token <token>``."""

    target_class = "edges.mem0_api.edge.Mem0TokenAuthentication"
    name = "mem0Token"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": "Token <service token>",
        }


class ErrorOut(serializers.Serializer):
    detail = serializers.CharField(help_text="What the client raises as its error's message.")
    error = ErrorDetailOutput()


class MemoryOut(serializers.Serializer):
    id = serializers.CharField()
    memory = serializers.CharField()
    user_id = serializers.CharField()
    agent_id = serializers.CharField(allow_null=True)
    run_id = serializers.CharField(allow_null=True)
    app_id = serializers.CharField(allow_null=True)
    metadata = serializers.DictField(help_text="memory_key, source and status of the service")
    categories = serializers.ListField(child=serializers.CharField())
    created_at = serializers.DateTimeField(allow_null=True)
    updated_at = serializers.DateTimeField(allow_null=True)
    expiration_date = serializers.DateField(allow_null=True)
    immutable = serializers.BooleanField()


class AddResultOut(serializers.Serializer):
    id = serializers.CharField(required=False, allow_null=True)
    memory = serializers.CharField(required=False, allow_null=True)
    event = serializers.CharField(required=False, help_text="ADD, or NONE (a duplicate, refused)")
    status = serializers.CharField()
    reason = serializers.CharField(required=False)
    event_id = serializers.CharField(required=False, allow_null=True, help_text="infer=true")
    message = serializers.CharField(required=False, allow_null=True)


class AddOut(serializers.Serializer):
    results = AddResultOut(many=True)


class ListOut(serializers.Serializer):
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = MemoryOut(many=True)


class HitOut(serializers.Serializer):
    id = serializers.CharField()
    memory = serializers.CharField()
    score = serializers.FloatField()
    user_id = serializers.CharField()
    categories = serializers.ListField(child=serializers.CharField())
    metadata = serializers.DictField()
    created_at = serializers.DateTimeField(allow_null=True)
    updated_at = serializers.DateTimeField(allow_null=True)


class SearchOut(serializers.Serializer):
    results = HitOut(many=True)


class HistoryOut(serializers.Serializer):
    memory_id = serializers.CharField()
    event = serializers.ChoiceField(choices=list(HISTORY_EVENTS.values()))
    old_memory = serializers.CharField(allow_null=True)
    new_memory = serializers.CharField(allow_null=True)
    user_id = serializers.CharField()
    input = serializers.JSONField(allow_null=True)
    metadata = serializers.DictField()
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()


class EventOut(serializers.Serializer):
    id = serializers.CharField()
    event_type = serializers.CharField()
    status = serializers.ChoiceField(choices=["PENDING", "RUNNING", "SUCCEEDED", "FAILED"])
    results = serializers.ListField(child=serializers.DictField())
    reason = serializers.CharField(allow_null=True)
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()


class MessageOut(serializers.Serializer):
    message = serializers.CharField()


class BatchOut(MessageOut):
    results = serializers.ListField(child=serializers.DictField())


class PingOut(serializers.Serializer):
    status = serializers.CharField()
    message = serializers.CharField()
    org_id = serializers.CharField()
    project_id = serializers.CharField(help_text="the tenant; 'unbound' for a multi-tenant token")
    user_email = serializers.CharField(allow_null=True)


class EntityOut(serializers.Serializer):
    id = serializers.CharField()
    name = serializers.CharField()
    type = serializers.CharField()
    total_memories = serializers.IntegerField()


class EntitiesOut(serializers.Serializer):
    results = EntityOut(many=True)


ERRORS = dict.fromkeys((400, 401, 403, 404, 429, 503), ErrorOut)


def mem0_operation(
    *, operation_id: str, summary: str, ok: Any, request: Any = None, description: str = ""
) -> Callable[[Any], Any]:
    """One documented operation of the door (named after the client's method): its success
    and Mem0's error shape."""
    return extend_schema(
        operation_id=operation_id,
        tags=[TAG],
        summary=summary,
        description=description,
        request=request,
        responses={200: ok, **ERRORS},
    )
