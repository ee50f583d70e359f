"""memory_preflight and /ready against the real database, embedder and Mem0."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.test import Client

from memories.engine import get_engine
from memories.ops.preflight import INDEXES
from tests.memories.engine.test_outage import django_database_unreachable

pytestmark = pytest.mark.django_db


def preflight() -> tuple[str, CommandError | None]:
    out = StringIO()
    try:
        call_command("memory_preflight", stdout=out)
    except CommandError as exc:
        return out.getvalue(), exc
    return out.getvalue(), None


def failing_lines(report: str) -> list[str]:
    return [line for line in report.splitlines() if line.startswith("FAIL")]


def test_preflight_passes_on_a_sound_deployment():
    report, error = preflight()
    assert error is None, report
    assert failing_lines(report) == []
    for name in ("extensions", "tables", "vector dimension", "indexes", "NLP Chinese"):
        assert any(line.startswith("ok") and name in line for line in report.splitlines())
    assert "mem0 entity helpers" in report and "embedder width" in report
    assert "preflight passed" in report


def test_preflight_names_a_missing_index_and_fails():
    with connection.cursor() as cursor:  # rolled back with the test's transaction
        cursor.execute("ALTER INDEX poco_memories_created_idx RENAME TO renamed_by_test")
    report, error = preflight()
    assert error is not None and "indexes" in str(error)
    assert any("poco_memories_created_idx" in line for line in failing_lines(report))
    assert "poco_memories_created_idx" in INDEXES


def test_preflight_fails_when_a_mem0_internal_is_gone(monkeypatch):
    memory_class = type(get_engine()._memory)
    monkeypatch.delattr(memory_class, "_upsert_entity")
    report, error = preflight()
    assert error is not None
    assert any("_upsert_entity is gone" in line for line in failing_lines(report))


def test_preflight_fails_when_the_table_width_is_not_the_embedders(settings):
    settings.EMBEDDING_DIMS = 768
    report, error = preflight()
    assert error is not None
    [line] = [line for line in failing_lines(report) if "vector dimension" in line]
    assert "vector(512)" in line and "768" in line


OPERATOR = "scraper-secret-Hy64pLw8"
BOUND = "beta-secret-Zr93mXc4"


@pytest.fixture
def operator(client, settings):
    """A caller that may read /ready's details: a service token bound to no tenant."""
    settings.SERVICE_TOKENS = [f"scraper:{OPERATOR}:", f"beta:{BOUND}:tenant-b"]
    client.defaults["HTTP_AUTHORIZATION"] = f"Bearer {OPERATOR}"
    return client


def test_ready_is_200_with_every_cheap_check(operator):
    answer = operator.get("/ready")
    assert answer.status_code == 200
    data = answer.json()
    assert data["status"] == "ready"
    assert set(data["checks"]) == {
        "database",
        "extensions",
        "tables",
        "vector dimension",
        "second model",
    }
    assert all(check["ok"] for check in data["checks"].values())


def test_ready_shows_no_internals_to_anyone_else(client, settings, django_user_model):
    """Server and extension versions and table names are for operators: an anonymous caller, a
    token bound to tenants, a wrong token and a signed-in non-staff user get the status only."""
    settings.SERVICE_TOKENS = [f"scraper:{OPERATOR}:", f"beta:{BOUND}:tenant-b"]
    user = django_user_model.objects.create_user(username="kim", password="kim-pass-1")
    signed_in = Client()
    signed_in.force_login(user)
    for answer in (
        client.get("/ready"),
        client.get("/ready", HTTP_AUTHORIZATION=f"Bearer {BOUND}"),
        client.get("/ready", HTTP_AUTHORIZATION="Bearer wrong"),
        signed_in.get("/ready"),
    ):
        assert answer.status_code == 200
        assert answer.json() == {"status": "ready"}
        assert "PostgreSQL" not in answer.content.decode()


def test_ready_shows_the_checks_to_staff(client, django_user_model):
    staff = django_user_model.objects.create_user(
        username="root-kim", password="root-pass-1", is_staff=True
    )
    client.force_login(staff)
    assert set(client.get("/ready").json()["checks"]) >= {"database", "tables"}


def test_ready_is_503_when_the_width_disagrees_while_health_stays_200(operator, client, settings):
    settings.EMBEDDING_DIMS = 1536
    answer = operator.get("/ready")
    assert answer.status_code == 503
    assert answer.json()["checks"]["vector dimension"]["ok"] is False
    anonymous = Client().get("/ready")
    assert (anonymous.status_code, anonymous.json()) == (503, {"status": "unavailable"})
    assert client.get("/health").status_code == 200


@pytest.mark.django_db(transaction=True)
def test_ready_is_503_when_the_database_is_unreachable(operator, tmp_path):
    with django_database_unreachable(tmp_path):
        answer = operator.get("/ready")
        anonymous = Client().get("/ready")
    assert answer.status_code == 503
    assert answer.json()["checks"]["database"]["ok"] is False
    assert (anonymous.status_code, anonymous.json()) == (503, {"status": "unavailable"})
