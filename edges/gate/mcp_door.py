"""The gate's MCP door: the two agent tools over streamable HTTP with the SDK's own client,
one session per call (the server is stateless), driven from the gate's synchronous checks."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any

from mcp import ClientSession
from mcp.client.streamable_http import create_mcp_http_client, streamable_http_client

SEARCH = "search_user_memory"
MANAGE = "manage_user_memory"
# The HTTP client logs every request at INFO; the gate's terminal shows its own progress.
QUIET = ("httpx", "httpx2", "mcp")


@dataclass(frozen=True)
class ToolAnswer:
    ok: bool  # the session opened and the tool ran without a tool error
    content: dict[str, Any]
    error: str = ""


def call_tool(
    *, url: str, token: str, tenant_id: str, user_id: str, name: str, arguments: dict[str, Any]
) -> ToolAnswer:
    headers = {
        "Authorization": f"Bearer {token}",
        "X-Poco-Tenant-Id": tenant_id,
        "X-Poco-User-Id": user_id,
    }

    for name_ in QUIET:
        logging.getLogger(name_).setLevel(logging.WARNING)

    async def work() -> ToolAnswer:
        async with (
            create_mcp_http_client(headers=headers) as http,
            streamable_http_client(f"{url}/mcp", http_client=http) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            result = await session.call_tool(name, arguments)
            content = dict(result.structured_content or {})
            return ToolAnswer(ok=not result.is_error, content=content)

    try:
        return asyncio.run(work())
    except Exception as exc:  # noqa: BLE001 - a door that cannot be reached is a finding
        return ToolAnswer(ok=False, content={}, error=f"{type(exc).__name__}: {exc}"[:300])
