"""Dependencies point one way: edges → lifecycle → the memory core (ARCHITECTURE, README)."""

from __future__ import annotations

import ast
from pathlib import Path

import memories

CORE = Path(memories.__file__).parent
# The edges may call into lifecycle (ingest, manage); nothing else in memories/ may. The upgrade
# gate is one: an operator's tool that checks the whole release, ingest's policy included.
EDGES = ("api", "user_api", "mem0_api", "console", "mcp", "admin.py", "management", "gate")


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_the_memory_core_never_imports_lifecycle():
    core_files = [
        path
        for path in CORE.rglob("*.py")
        if path.relative_to(CORE).parts[0] not in EDGES and "migrations" not in path.parts
    ]
    assert len(core_files) > 10
    offenders = {
        str(path.relative_to(CORE)): sorted(
            name for name in imported_modules(path) if name.split(".")[0] == "lifecycle"
        )
        for path in core_files
    }
    assert {path: names for path, names in offenders.items() if names} == {}
