"""The framework-free tool functions docs/mem0-compat.md offers for Agno, AutoGen and CrewAI,
run as the page shows them against /mem0 (the frameworks themselves are not installed: the
functions are what an agent of any of them would call)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from tests.edges.mem0_api.conftest import TOKEN

DOC = Path(__file__).resolve().parents[3] / "docs" / "mem0-compat.md"


def tool_functions(host: str) -> dict[str, Any]:
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(), flags=re.S)
    [code] = [b for b in blocks if "def remember(user_id" in b]
    code = code.replace('"http://memory.internal:8000/mem0"', repr(host))
    namespace: dict[str, Any] = {"SERVICE_TOKEN": TOKEN}
    exec(compile(code, str(DOC), "exec"), namespace)  # noqa: S102 - the page's own example
    return namespace


def test_the_documented_tool_functions_remember_and_recall(mem0_host):
    tools = tool_functions(mem0_host)
    try:
        stored = tools["remember"]("alice", "I drink green tea every morning.")
        assert "green tea" in stored
        assert tools["recall"]("alice", "What does alice drink in the morning?") == [
            "I drink green tea every morning."
        ]
        assert tools["recall"]("bob", "What does alice drink in the morning?") == []
    finally:
        tools["memory"].client.close()
