"""``manage.py mcp_stdio``: the same tools over stdio for one scope, as a local agent client
starts it (a real subprocess on the test database, driven by the SDK's stdio client)."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from memories.models import AuditEvent, MemoryRow

ROOT = Path(__file__).resolve().parents[3]


def server_parameters(*arguments: str) -> StdioServerParameters:
    from django.db import connection

    db = connection.settings_dict
    url = f"postgresql://{db['USER']}@/{db['NAME']}?host={db['HOST']}"
    return StdioServerParameters(
        command=sys.executable,
        args=["manage.py", "mcp_stdio", *arguments],
        cwd=str(ROOT),
        env={**os.environ, "DATABASE_URL": url},
    )


async def add_and_search(parameters: StdioServerParameters) -> tuple[list[str], dict, dict]:
    async with (
        stdio_client(parameters) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        names = [tool.name for tool in (await session.list_tools()).tools]
        added = await session.call_tool(
            "manage_user_memory", {"action": "add", "text": "用户偏好简洁直接的回答。"}
        )
        found = await session.call_tool("search_user_memory", {"query": "回答风格"})
        return names, added.structured_content, found.structured_content


def test_stdio_serves_the_same_tools_for_the_named_scope(transactional_db, scope):
    names, added, found = asyncio.run(
        add_and_search(server_parameters("--tenant", scope.tenant_id, "--user", scope.user_id))
    )
    assert sorted(names) == ["manage_user_memory", "search_user_memory"]
    assert (added["status"], added["success"]) == ("added", True)
    row = MemoryRow.objects.get(id=added["memory_id"])
    assert (row.scope_key, row.content) == (scope.key, "用户偏好简洁直接的回答。")
    assert AuditEvent.objects.get(memory_id=added["memory_id"]).actor_id == "mcp-stdio"
    assert [hit["id"] for hit in found["items"]] == [added["memory_id"]]


def test_stdio_refuses_a_malformed_scope():
    with pytest.raises(CommandError, match="user_id"):
        call_command("mcp_stdio", "--tenant", "acme", "--user", "alice:bob")


@pytest.mark.parametrize(
    ("option", "value", "problem"),
    [
        ("--run-id", "13912345678", "cn_mobile"),
        ("--run-id", "password=hunter2", "an id of at most 128"),
        ("--run-kind", "x" * 33, "an id of at most 32"),
    ],
)
def test_stdio_refuses_a_run_id_the_http_header_refuses(option, value, problem):
    """The run id becomes the memories' ``source_ref`` and the run ledger's key: the same rule
    as ``X-Poco-Run-Id`` (``ref_problem``), not just a length."""
    with pytest.raises(CommandError, match=problem) as refused:
        call_command("mcp_stdio", "--tenant", "acme", "--user", "alice", option, value)
    assert option in str(refused.value)
    assert value not in str(refused.value)
