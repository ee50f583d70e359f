"""A decided write outcome as a JSON answer: the one renderer of ``/v1`` and the user API.

The body is the outcome in its output shape (``edges.contract.shapes``), the HTTP status the
edge's column of ``edges.contract.outcomes``. ``/mem0`` answers a failed outcome in Mem0's
own shape with the user API's status, and MCP returns the same body as the tool's result.
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers
from rest_framework.response import Response

from edges.contract.outcomes import Edge, http_status
from memories.types import MemoryForbidden, MemoryNotFound, WriteStatus


def outcome_response(output: type[serializers.Serializer], outcome: Any, *, edge: Edge) -> Response:
    """``outcome`` shaped by ``output``, answered with ``edge``'s status for it. On the user API
    (REST clients) another user's id and an unknown id are the one error shape of a 403 and a
    404, raised for the exception handler; ``/v1`` answers them in the outcome's own body."""
    if edge is Edge.USER_API:
        if outcome.status == WriteStatus.FORBIDDEN:
            raise MemoryForbidden()
        if outcome.status == WriteStatus.NOT_FOUND:
            raise MemoryNotFound()
    return Response(output(outcome).data, status=http_status(outcome.status, edge))
