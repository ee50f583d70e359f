"""What the /v1 tests share: a stored memory that a request slipping through validation could
change, and the counts that show nothing changed."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection

from memories import services
from memories.models import AuditEvent

ALICE = {"tenant_id": "acme", "user_id": "alice"}
UNKNOWN_ID = "00000000-0000-4000-8000-000000000000"


@pytest.fixture
def stored(scope, agent) -> str:
    """One real memory, so a request that slipped through validation could change something."""
    outcome = services.memory_add(
        scope=scope, text='用户偏好简体中文技术方案，项目叫"Poco"。', actor=agent
    )
    assert outcome.memory_id is not None
    return outcome.memory_id


def counts() -> tuple[int, int, int]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM poco_memories")
        memories = cursor.fetchone()[0]
        cursor.execute("SELECT count(*) FROM poco_memories_entities")
        entities = cursor.fetchone()[0]
    return memories, entities, AuditEvent.objects.count()


def memory_text(memory_id: str) -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT payload->>'data' FROM poco_memories WHERE id = %s", [memory_id])
        return cursor.fetchone()[0]


def keys_anywhere(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in keys_anywhere(v)}
    if isinstance(value, list):
        return {k for v in value for k in keys_anywhere(v)}
    return set()


# Every POST operation of /v1 (ingest aside: its body differs).
POST_OPS = [
    "search",
    "manage",
    "list-user",
    "overview",
    "topics",
    "related",
    "history",
    "update-item",
    "delete-item",
    "delete-user",
]
INGEST = {"messages": [{"role": "user", "content": "我偏好简体中文回答。"}]}


def with_stored(fields: dict[str, Any], stored: str) -> dict[str, Any]:
    """Put the real id where a field says STORED: a request that slipped through would act."""

    def swap(value: Any) -> Any:
        if isinstance(value, list):
            return [swap(x) for x in value]
        return stored if value == "STORED" else value

    return {k: swap(v) for k, v in fields.items()}
