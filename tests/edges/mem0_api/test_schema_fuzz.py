"""Schemathesis against /mem0/schema on a live server: whatever a generator sends the door (Mem0's
bodies are loosely typed, so most of it is refused), no answer is a server error, every answer
is JSON with a status the document lists."""

from __future__ import annotations

import pytest

from tests.edges.mem0_api.conftest import TOKEN
from tests.schemathesis_cli import assert_tested, st_run, warm_models

OPERATIONS = 15  # tests/edges/mem0_api/test_schema.py lists them


@pytest.fixture
def warm_host(mem0_host):
    warm_models()
    return mem0_host


def test_schemathesis_finds_no_server_error(warm_host, tmp_path):
    output = st_run(
        f"{warm_host}/schema?format=json",
        tmp_path,
        "--url",
        warm_host.removesuffix("/mem0"),
        "--header",
        f"Authorization: Token {TOKEN}",
        "--checks",
        "not_a_server_error,status_code_conformance,content_type_conformance",
        "--max-examples",
        "10",
    )
    assert_tested(output, OPERATIONS)
