from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import psycopg
import pytest
from django.db import connection
from rest_framework.test import APIClient

from memories.engine.adapter import connection_string_for
from memories.locks import scope_lock_key

TOKEN = "test-service-token"
# The keys of every /v1 write answer; MCP's manage tool answers the same.
WRITE_ANSWER_KEYS = frozenset(
    {"action", "success", "status", "memory_id", "inserted_count", "reason", "superseded_id"}
)


class V1:
    """A /v1 caller with a valid service token."""

    def __init__(self, client: APIClient) -> None:
        self.client = client

    def post(self, op: str, body: Any, **extra: Any):
        return self.client.post(f"/v1/memories/{op}", body, format="json", **extra)


@pytest.fixture
def v1(settings, db) -> V1:
    settings.SERVICE_TOKENS = [TOKEN]
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {TOKEN}")
    return V1(client)


def body(scope, **fields: Any) -> dict[str, Any]:
    return {"tenant_id": scope.tenant_id, "user_id": scope.user_id, **fields}


def added(scope, agent, *texts: str) -> dict[str, str]:
    """Each text stored by the explicit add (``services.memory_add``), with its memory's id."""
    from memories import services

    ids: dict[str, str] = {}
    for text in texts:
        outcome = services.memory_add(scope=scope, text=text, actor=agent)
        assert outcome.memory_id is not None, outcome
        ids[text] = outcome.memory_id
    return ids


def assert_error(response, http_status: int, code: str, *fields: str) -> dict[str, Any]:
    """The one error shape: ``{success: false, status, error: {code, message, fields}}``."""
    assert response.status_code == http_status, response.content
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    data = response.json()
    assert set(data) == {"success", "status", "error"}, data
    assert data["success"] is False
    assert data["status"] == code
    assert set(data["error"]) == {"code", "message", "fields"}, data
    assert data["error"]["code"] == code
    assert isinstance(data["error"]["message"], str) and data["error"]["message"]
    assert isinstance(data["error"]["fields"], dict)
    for field in fields:
        assert field in data["error"]["fields"], data
        assert data["error"]["fields"][field], data
    return data


def assert_invalid(response, *fields: str) -> None:
    assert_error(response, 400, "invalid_request", *fields)


@pytest.fixture
def scope_lock_held(scope) -> Iterator[Callable[[], None]]:
    """Hold the scope's write lock from another session until the returned call releases it."""
    holder = psycopg.connect(
        connection_string_for(connection.settings_dict["NAME"]), autocommit=True
    )
    holder.execute("SELECT pg_advisory_lock(hashtextextended(%s, 0))", (scope_lock_key(scope),))
    released = False

    def release() -> None:
        nonlocal released
        if not released:
            holder.execute(
                "SELECT pg_advisory_unlock(hashtextextended(%s, 0))", (scope_lock_key(scope),)
            )
            released = True

    yield release
    release()
    holder.close()


def advisory_lock_waiters() -> int:
    """Sessions queued in PostgreSQL for an advisory lock of this test database (another test
    process, e.g. a second pytest-xdist worker, has a database of its own on the same server)."""
    with psycopg.connect(connection_string_for(connection.settings_dict["NAME"])) as observer:
        row = observer.execute(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
            " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
        ).fetchone()
    return int(row[0]) if row else 0


def waiting_for_advisory_lock() -> bool:
    return advisory_lock_waiters() > 0
