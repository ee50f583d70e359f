"""A real uvicorn serving ``poco_memory.asgi:application`` against the test database, and an
agent that talks to it with the MCP SDK's own client."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from mcp import ClientSession
from mcp.client.streamable_http import create_mcp_http_client, streamable_http_client
from mcp_types import CallToolResult

from tests.memories.conftest import TOKEN
from tests.memories.engine.test_outage import swap_engine, unreachable_db_engine  # noqa: F401 - fixtures
from tests.processes import uvicorn_in_thread


@pytest.fixture(scope="session")
def live_url(django_db_setup) -> Iterator[str]:
    """One server for the session (the app's lifespan runs once). Its threads open their own
    connections to the test database, so tests that use it need ``transactional_db``."""
    import uvicorn
    from django.db import connection

    from poco_memory.asgi import application

    # No persistent connections in the server's threads (DEBUG off keeps them 60 s): a test that
    # takes the database away must be seen by the very next tool call.
    max_age = connection.settings_dict["CONN_MAX_AGE"]
    connection.settings_dict["CONN_MAX_AGE"] = 0

    with uvicorn_in_thread(uvicorn.Config(application, lifespan="on", log_level="warning")) as url:
        yield url
    connection.settings_dict["CONN_MAX_AGE"] = max_age


def scope_headers(scope, *, run_id: str = "", run_kind: str = "") -> dict[str, str]:
    headers = {"X-Poco-Tenant-Id": scope.tenant_id, "X-Poco-User-Id": scope.user_id}
    if run_id:
        headers["X-Poco-Run-Id"] = run_id
    if run_kind:
        headers["X-Poco-Run-Kind"] = run_kind
    return headers


class Agent:
    """An MCP client session per call (the server is stateless), driven from sync tests so
    that the test's own ORM assertions stay outside the event loop."""

    def __init__(self, url: str, headers: dict[str, str]) -> None:
        self.url = f"{url}/mcp"
        self.headers = headers

    async def _session(self, work: Any) -> Any:
        async with (
            create_mcp_http_client(headers=self.headers) as http,
            streamable_http_client(self.url, http_client=http) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            return await work(session)

    def tool_names(self) -> list[str]:
        async def work(session: ClientSession) -> list[str]:
            return [tool.name for tool in (await session.list_tools()).tools]

        return asyncio.run(self._session(work))

    def tools(self) -> dict[str, Any]:
        async def work(session: ClientSession) -> dict[str, Any]:
            return {tool.name: tool for tool in (await session.list_tools()).tools}

        return asyncio.run(self._session(work))

    def call(self, name: str, **arguments: Any) -> CallToolResult:
        async def work(session: ClientSession) -> CallToolResult:
            return await session.call_tool(name, arguments)

        return asyncio.run(self._session(work))


@pytest.fixture
def mcp_token(settings) -> str:
    settings.SERVICE_TOKENS = [TOKEN]
    return TOKEN


@pytest.fixture
def agent_for(live_url, mcp_token, transactional_db):
    def make(scope, *, run_id: str = "", run_kind: str = "") -> Agent:
        headers = {"Authorization": f"Bearer {mcp_token}"}
        headers.update(scope_headers(scope, run_id=run_id, run_kind=run_kind))
        return Agent(live_url, headers)

    return make


@pytest.fixture
def mcp_agent(agent_for, scope) -> Agent:
    return agent_for(scope)
