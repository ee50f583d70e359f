"""The agent's door: MCP reaches the same memories as /v1, and not another user's."""

from __future__ import annotations

from typing import Any

from edges.gate.fixtures import ISOLATION_QUERY, ISOLATION_TEXT
from edges.gate.harness import Gate, Step
from edges.gate.mcp_door import MANAGE, SEARCH, ToolAnswer, call_tool
from edges.gate.service import Scope


def tool(gate: Gate, scope: Scope, name: str, **arguments: Any) -> ToolAnswer:
    gate.service.requests += 1
    return call_tool(
        url=gate.service.url,
        token=gate.service.token,
        tenant_id=scope.tenant_id,
        user_id=scope.user_id,
        name=name,
        arguments=arguments,
    )


def mcp(gate: Gate) -> None:
    """The agent's door: an add and a search over MCP reach the same memory as /v1, and
    another user's connection neither finds nor deletes it."""
    scope, other = gate.scope("mcp"), gate.scope("mcp-intruder")
    added = tool(gate, scope, MANAGE, action="add", text=ISOLATION_TEXT, category="fact")
    memory_id = added.content.get("memory_id")
    listed = [m["id"] for m in gate.listed(scope)]
    gate.check(
        "mcp.manage_add",
        added.ok and added.content.get("status") == "added" and listed == [memory_id],
        f"manage_user_memory add: {added.content or added.error}; /v1 lists {listed}",
    )
    found = tool(gate, scope, SEARCH, query=ISOLATION_QUERY)
    hits = [item.get("id") for item in found.content.get("items") or []]
    gate.check(
        "mcp.search",
        found.ok and found.content.get("available") is True and memory_id in hits,
        f"search_user_memory: {hits or found.error or found.content}",
    )
    foreign = tool(gate, other, SEARCH, query=ISOLATION_QUERY)
    foreign_hits = [item.get("id") for item in foreign.content.get("items") or []]
    gate.check(
        "isolation.recall",
        foreign.ok and memory_id not in foreign_hits,
        f"another user over MCP recalls {foreign.error or foreign_hits}",
    )
    drop = tool(gate, other, MANAGE, action="delete", memory_id=memory_id)
    gate.check(
        "isolation.delete",
        drop.content.get("status") == "forbidden" and len(gate.listed(scope)) == 1,
        f"another user over MCP deletes: {drop.content or drop.error}",
    )


STEP = Step("mcp", mcp)
