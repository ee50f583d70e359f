"""What the operator sees of versions and configuration: ``/ready`` with secrets masked, and
the report's table of the baseline's versions beside the target's."""

from __future__ import annotations

from importlib import metadata
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection

from edges.gate.baseline import read_baseline
from edges.gate.report import Result, recorded_versions, render_markdown
from edges.gate.versions import mask_url
from tests.edges.gate.conftest import OPERATOR


def test_urls_lose_their_credentials_and_queries():
    assert mask_url("https://bob:pw@llm.example.com:8443/v1?key=abc") == (
        "https://***@llm.example.com:8443/v1?***"
    )
    assert mask_url("") == ""


@pytest.mark.django_db
def test_ready_shows_operators_the_versions_and_a_masked_configuration(client, settings):
    settings.SERVICE_TOKENS = [f"ops:{OPERATOR}:"]
    settings.LLM_API_KEY = "sk-very-secret-llm-key"
    settings.EMBEDDING_BASE_URL = "https://bob:hunter2@embed.example.com/v1"
    answer = client.get("/ready", HTTP_AUTHORIZATION=f"Bearer {OPERATOR}")
    service = answer.json()["service"]
    assert service["packages"]["mem0ai"] and service["packages"]["Django"]
    assert service["configuration"]["llm_api_key"] == "set (masked)"
    assert service["configuration"]["embedding_base_url"] == "https://***@embed.example.com/v1"
    text = answer.content.decode()
    assert "sk-very-secret" not in text and "hunter2" not in text
    assert "service" not in client.get("/ready").json()


def versions_table(result: Result) -> dict[str, tuple[str, str]]:
    """The report's "Versions" section: component → (baseline, target)."""
    section = render_markdown(result).split("## Versions\n\n")[1].split("\n\n")[0]
    rows = [line.strip("|").split(" | ") for line in section.splitlines()[2:]]
    return {name.strip(): (before.strip(), now.strip()) for name, before, now in rows}


@pytest.mark.django_db(transaction=True)
def test_the_versions_table_compares_like_with_like(client, settings, tmp_path):
    """The baseline and verify record the same things under the same names: the pgvector
    package beside the vector extension, the PostgreSQL server under one name. Nothing changed
    between the two, so no row differs (the extension was shown against the package as
    "pgvector 0.8.x → 0.5.x", the server as "postgresql" against "database")."""
    settings.SERVICE_TOKENS = [f"ops:{OPERATOR}:"]
    path = tmp_path / "b.json"
    call_command(
        "memory_gate", "baseline", "--out", str(path), stdout=StringIO(), stderr=StringIO()
    )
    ready = client.get("/ready", HTTP_AUTHORIZATION=f"Bearer {OPERATOR}").json()
    result = Result(run="r", url="u", started_at="", baseline_recorded_at="")
    result.target = {"checks": ready["checks"], **ready["service"]}
    result.baseline_versions = recorded_versions(read_baseline(path))

    table = versions_table(result)

    with connection.cursor() as cursor:
        cursor.execute("SELECT extversion FROM pg_extension WHERE extname = 'vector'")
        extension = cursor.fetchone()[0]
        cursor.execute("SHOW server_version")
        server = cursor.fetchone()[0]
    assert table["pgvector"] == (metadata.version("pgvector"),) * 2
    assert table["vector extension"] == (extension, extension)
    assert table["postgresql"] == (server, server)
    assert [name for name, (before, now) in table.items() if before != now] == []


def test_a_baseline_of_the_first_format_names_its_extension_version_as_such():
    """A baseline recorded before this release kept the extension's version as "pgvector"."""
    old = {"format": "poco-memory-gate-baseline", "version": 1}
    old["versions"] = {"pgvector": "0.8.0", "postgresql": "16.4", "Django": "5.2"}
    assert recorded_versions(old)["versions"] == {
        "vector extension": "0.8.0",
        "postgresql": "16.4",
        "Django": "5.2",
    }
