"""Schemathesis against /mem0/schema on a live server: whatever a generator sends the door (Mem0's
bodies are loosely typed, so most of it is refused), no answer is a server error, every answer
is JSON with a status the document lists."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from memories import selectors
from memories.types import MemoryScope
from tests.mem0_api.conftest import TOKEN

ST = Path(sys.executable).with_name("st")
OPERATIONS = 15  # tests/mem0_api/test_schema.py lists them


@pytest.fixture
def warm_host(mem0_host):
    # Load the embedder and NLP models before the run, not inside its first request.
    selectors.memory_search(scope=MemoryScope(tenant_id="warm", user_id="up"), query="预热")
    return mem0_host


def test_schemathesis_finds_no_server_error(warm_host, tmp_path):
    run = subprocess.run(
        [
            str(ST),
            "run",
            f"{warm_host}/schema?format=json",
            "--url",
            warm_host.removesuffix("/mem0"),
            "--header",
            f"Authorization: Token {TOKEN}",
            "--checks",
            "not_a_server_error,status_code_conformance,content_type_conformance",
            "--max-examples",
            "10",
            "--seed",
            "8",
            "--workers",
            "1",
            "--request-timeout",
            "30",
            "--report-dir",
            str(tmp_path),
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    output = run.stdout + run.stderr
    assert run.returncode == 0, output[-20000:]
    assert re.search(rf"Tested: {OPERATIONS}\b", output), output[-5000:]
