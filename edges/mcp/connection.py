"""Who is calling and for whom: read once from the connection, never from tool arguments.

Over HTTP the executor opens the MCP session with a service token and the scope headers; over
stdio the operator names the scope on the command line. Either way the tools receive a
``Connection`` and have no tenant or user argument a prompt-injected model could fill in.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from edges.contract.auth import ServiceCaller, TenantRefused, service_token
from memories.admission.refs import ref_problem
from memories.types import SCOPE_PART, Actor, MemoryScope

TENANT_HEADER = "X-Poco-Tenant-Id"
USER_HEADER = "X-Poco-User-Id"
RUN_ID_HEADER = "X-Poco-Run-Id"
RUN_KIND_HEADER = "X-Poco-Run-Kind"
# The same limits as the run fields of /v1 manage.
MAX_RUN_ID = 128
MAX_RUN_KIND = 32


@dataclass(frozen=True)
class Connection:
    scope: MemoryScope
    actor: Actor
    run_id: str = ""
    run_kind: str = ""


class ConnectionRefused(Exception):
    """The request may not reach the tools. ``status`` is the HTTP answer, ``fields`` says
    which header is wrong (the project's one error shape)."""

    def __init__(
        self, status: int, error: str, detail: str, fields: dict[str, list[str]] | None = None
    ) -> None:
        super().__init__(detail)
        self.status = status
        self.error = error
        self.detail = detail
        self.fields = fields or {}


def connection_from_headers(headers: Mapping[str, str]) -> Connection:
    """Authenticate the service token, then build the scope from the X-Poco-* headers — where
    /v1 builds it too (``ServiceCaller.scope``): a token bound to tenants is refused any other,
    and the refusal is recorded (a database write: call it from sync code).

    ``headers`` must look names up case-insensitively (Starlette's ``Headers`` does).
    """
    keyword, _, token = headers.get("authorization", "").partition(" ")
    found = (
        service_token(token.strip(), edge="mcp") if keyword == "Bearer" and token.strip() else None
    )
    if found is None:
        raise ConnectionRefused(401, "unauthorized", "send 'Authorization: Bearer <service token>'")
    caller = ServiceCaller(token=found, edge="mcp")

    tenant_id = headers.get(TENANT_HEADER, "")
    user_id = headers.get(USER_HEADER, "")
    run_id = headers.get(RUN_ID_HEADER, "")
    run_kind = headers.get(RUN_KIND_HEADER, "")
    fields: dict[str, list[str]] = {}
    for header, value in ((TENANT_HEADER, tenant_id), (USER_HEADER, user_id)):
        if not value:
            fields[header] = ["this header is required: it names whose memory the tools use"]
        elif not SCOPE_PART.match(value):
            fields[header] = ["1-64 characters of A-Z a-z 0-9 _ . @ + -"]
    # The one rule for ids (memories.admission.refs), as on /v1.
    for header, value, limit in (
        (RUN_ID_HEADER, run_id, MAX_RUN_ID),
        (RUN_KIND_HEADER, run_kind, MAX_RUN_KIND),
    ):
        problem = ref_problem(value, max_length=limit)
        if problem is not None:
            fields[header] = [problem]
    if fields:
        raise ConnectionRefused(400, "invalid_request", "invalid scope headers", fields)
    try:
        scope = caller.scope(tenant_id=tenant_id, user_id=user_id)
    except TenantRefused as refused:
        raise ConnectionRefused(403, "forbidden", str(refused.detail)) from refused
    return Connection(
        scope=scope,
        actor=caller.actor,
        run_id=run_id,
        run_kind=run_kind,
    )
