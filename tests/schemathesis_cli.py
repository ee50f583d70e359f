"""Schemathesis as a client runs it (its ``st run`` CLI) against a live server, shared by the
/v1 and /mem0 contract fuzz tests."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from memories import selectors
from memories.scope import scope_of

ST = Path(sys.executable).with_name("st")
HOOKS = Path(__file__).with_name("schemathesis_hooks.py")


def warm_models() -> None:
    """Load the embedder and NLP models before the run, not inside its first request."""
    selectors.memory_search(scope=scope_of(tenant_id="warm", user_id="up"), query="预热")


def st_run(schema_url: str, tmp_path: Path, *options: str) -> str:
    """Run ``st run`` on ``schema_url`` with ``options`` (seeded) and return its output,
    asserting that it found nothing. One worker: with two, schemathesis builds its strategies
    on two threads, and CPython 3.11's AST constructor keeps its recursion depth per
    interpreter, not per thread (python/cpython#106905), so two threads parsing at once can
    stop the run with "SystemError: AST constructor recursion depth mismatch" (a CI run of
    2026-12-04 did) — a failure of the interpreter, not of the service."""
    run = subprocess.run(
        [
            str(ST),
            "run",
            schema_url,
            *options,
            "--seed",
            "8",
            "--workers",
            "1",
            "--request-timeout",
            "30",
            "--report-dir",
            str(tmp_path),
        ],
        cwd=tmp_path,  # its cache folder (.schemathesis/) stays out of the checkout
        # The one /v1 rule no JSON Schema can state is left out of its verdict (the hooks' file).
        env={**os.environ, "SCHEMATHESIS_HOOKS": str(HOOKS)},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    output = run.stdout + run.stderr
    assert run.returncode == 0, output[-20000:]
    return output


def assert_tested(output: str, operations: int) -> None:
    """Every operation was reached."""
    assert re.search(rf"Tested: {operations}\b", output), output[-5000:]
