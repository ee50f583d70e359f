"""Every memory of one user (``delete_all``, ``delete_users``) and the tenant's users."""

from __future__ import annotations

import ast
from typing import Any

from rest_framework.exceptions import ParseError
from rest_framework.request import Request
from rest_framework.response import Response

from edges.contract import serializers as io
from edges.contract.parsers import ambiguous_json, loads
from edges.mem0_api import schema as doc
from edges.mem0_api import shapes
from edges.mem0_api.edge import Mem0View, Refused, entity_id, failure_response
from memories import selectors, services


# --- delete_all -------------------------------------------------------------------------------
class DeleteAllView(Mem0View):
    """``delete_all(user_id=...)``: every memory of that user. Nothing narrower or wider: a
    delete by agent, run or app would have to guess, so it is refused."""

    @doc.mem0_operation(
        operation_id="mem0_delete_all",
        summary="delete_all: every memory of one user",
        ok=doc.MessageOut,
    )
    def delete(self, request: Request) -> Response:
        params = self.params
        unknown = sorted(set(params) - {"user_id", "filters"})
        if unknown:
            raise Refused(f"delete_all takes user_id only; not supported: {', '.join(unknown)}")
        filters = _query_filters(params.get("filters"))
        if set(filters) - {"user_id"}:
            raise Refused("delete_all takes user_id only: it deletes every memory of one user")
        user_id = entity_id(params, filters, "user_id")
        if not user_id:
            raise Refused("name the user: delete_all(filters={'user_id': '...'})", "user_id")
        return _delete_user(self, user_id, done="Memories deleted successfully!")


def _delete_user(view: Mem0View, user_id: str, *, done: str) -> Response:
    """Forget every memory of one user of the call's tenant: ``done`` as Mem0's message, or the
    failed outcome with the user API's status."""
    scope, _, _ = view.v1_input(io.ScopeInput, {"user_id": user_id}, rate=None)
    outcome = services.memory_delete_user(scope=scope, actor=view.caller().actor)
    if not outcome.success:
        return failure_response(outcome.status, outcome.reason)
    return Response({"message": done})


def _query_filters(raw: str | None) -> dict[str, Any]:
    """``filters`` in a query string: JSON (read by ``loads``, as every body is), or the Python
    dict text ``mem0ai``'s client puts there (``str(dict)``), read as a literal only, never
    evaluated. Either way a key twice in one object is refused, never read as its last value."""
    if raw is None:
        return {}
    if len(raw) > 2000:
        raise Refused("filters too long", "filters")
    problem = ambiguous_json(raw.encode())
    if problem is not None:
        raise Refused(f"filters: {problem}", "filters")
    try:
        value = loads(raw.encode())
    except ParseError:
        value = _python_literal(raw)
    if not isinstance(value, dict):
        raise Refused("filters must be an object", "filters")
    return value


def _python_literal(raw: str) -> Any:
    try:
        tree = ast.parse(raw, mode="eval")
        for node in ast.walk(tree):
            if not isinstance(node, ast.Dict):
                continue
            seen: list[Any] = []
            for key in (ast.literal_eval(k) for k in node.keys if k is not None):
                if key in seen:
                    raise Refused(
                        f"filters: the key {key!r} appears twice in one object", "filters"
                    )
                seen.append(key)
        return ast.literal_eval(tree)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        raise Refused("filters must be an object", "filters") from None


# --- entities ---------------------------------------------------------------------------------
class EntitiesView(Mem0View):
    """``users()``: the tenant's users who have memories. Agents, apps and runs own no
    memories here, so only users are listed."""

    @doc.mem0_operation(
        operation_id="mem0_users",
        summary="users: the tenant's users with memories",
        ok=doc.EntitiesOut,
    )
    def get(self, request: Request) -> Response:
        tenant = self.tenant()
        self.caller().check_tenant(tenant)
        return Response(
            {"results": [shapes.entity(u) for u in selectors.tenant_users(tenant_id=tenant)]}
        )


class EntityView(Mem0View):
    """``delete_users(user_id=...)`` (and ``reset()``, user by user): every memory of one
    user, as ``delete_all`` does."""

    @doc.mem0_operation(
        operation_id="mem0_delete_users",
        summary="delete_users: every memory of one user",
        ok=doc.MessageOut,
    )
    def delete(self, request: Request, entity_type: str, name: str) -> Response:
        if entity_type != "user":
            raise Refused(
                f"deleting a {entity_type} is not supported: memories here belong to a user"
            )
        return _delete_user(self, name, done="Entity deleted successfully.")
