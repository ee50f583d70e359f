"""The MCP tools' output shapes: ``/v1``'s serializers (``edges.contract.shapes``) as pydantic
models with the same fields, so the tools publish and answer exactly what ``/v1`` does."""

from __future__ import annotations

import typing
from typing import Any

from pydantic import BaseModel, Field, create_model
from rest_framework import serializers
from rest_framework.fields import empty

from edges.contract.shapes import SearchOutput, WriteOutput

_SCALARS: dict[type[serializers.Field], type] = {
    serializers.BooleanField: bool,
    serializers.IntegerField: int,
    serializers.FloatField: float,
    serializers.CharField: str,
    serializers.ChoiceField: str,
    serializers.DateTimeField: str,
}


def _python_type(name: str, field: serializers.Field, shape: serializers.Serializer) -> Any:
    """The Python type a serializer field outputs, for pydantic."""
    kind: Any
    if isinstance(field, serializers.ListSerializer):
        assert field.child is not None, "a many=True serializer has its child"
        kind = list[_python_type(name, field.child, shape)]  # type: ignore[misc]
    elif isinstance(field, serializers.Serializer):
        kind = pydantic_model(type(field))
    elif isinstance(field, serializers.SerializerMethodField):
        method = getattr(type(shape), field.method_name or f"get_{name}")
        kind = typing.get_type_hints(method)["return"]
    elif isinstance(field, serializers.ListField):
        kind = list[_python_type(name, field.child, shape)]  # type: ignore[misc]
    elif isinstance(field, serializers.DictField):
        kind = dict[str, _python_type(name, field.child, shape)]  # type: ignore[misc]
    else:
        kind = next((t for base, t in _SCALARS.items() if isinstance(field, base)), Any)
    return kind | None if field.allow_null else kind


def pydantic_model(
    shape: type[serializers.Serializer], *, name: str = "", **extra: Any
) -> type[BaseModel]:
    """``shape`` as a pydantic model with the same fields, nullability, defaults and help
    texts, plus ``extra`` (pydantic field definitions) an edge adds of its own. A body
    ``shape(result).data`` validates against it unchanged."""
    instance = shape()
    definitions: dict[str, Any] = {}
    for field_name, field in instance.fields.items():
        kind = _python_type(field_name, field, instance)
        default = ... if field.default is empty else field.default
        description = str(field.help_text) if field.help_text else None
        definitions[field_name] = (kind, Field(default, description=description))
    return create_model(name or shape.__name__, **definitions, **extra)


# The MCP tools' outputs: /v1's search and write shapes, and a search's ``notice`` (the frame
# /v1/memories/context puts before recalled facts: they are data, not commands).
McpSearchOutput = pydantic_model(
    SearchOutput,
    notice=(str, ""),
)
McpManageOutput = pydantic_model(WriteOutput, name="ManageOutput")
