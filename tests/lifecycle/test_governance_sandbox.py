"""The governance lifecycle sandbox through /v1: ADD → UPDATE (same id) → NOOP →
DELETE, the audit trail showing exactly those four decisions and nothing left after the delete.
The agent works as a real one would: it searches for the memory's id before it changes it."""

from __future__ import annotations

import pytest

from memories.engine import get_engine
from memories.models import AuditEvent, EntityRow, MemoryRow
from tests.memories.conftest import body

pytestmark = pytest.mark.django_db

KEY = "preference.answer_style"


def found(v1, scope, query: str) -> list[dict]:
    answer = v1.post("search", body(scope, query=query, top_k=5)).json()
    assert answer["available"] is True
    return answer["items"]


def test_add_update_noop_delete_through_v1_as_an_agent_would(v1, scope):
    # 1. ADD: an explicit, stable, reusable preference
    added = v1.post(
        "manage",
        body(scope, action="add", text="以后技术问题默认用中文，并先给结论", memory_key=KEY),
    ).json()
    assert (added["status"], added["superseded_id"]) == ("added", None)
    memory_id = added["memory_id"]

    # 2. UPDATE: the same attribute changes; the agent finds the id, the id stays
    [hit] = found(v1, scope, "技术问题用什么语言回答")
    assert hit["id"] == memory_id
    updated = v1.post(
        "manage", body(scope, action="update", memory_id=memory_id, text="以后默认用英文回答")
    ).json()
    assert (updated["status"], updated["memory_id"]) == ("updated", memory_id)

    # 3. NOOP: a restatement of the current value stores nothing
    again = v1.post(
        "manage", body(scope, action="add", text="对，还是默认用英文回答", memory_key=KEY)
    ).json()
    assert (again["status"], again["reason"], again["memory_id"]) == (
        "no_effect",
        "duplicate",
        memory_id,
    )
    assert MemoryRow.objects.filter(payload__user_id=scope.key).count() == 1

    # 4. DELETE: "忘掉我的回答语言偏好" — the agent finds it and forgets it
    [hit] = found(v1, scope, "回答语言偏好")
    assert hit["id"] == memory_id and hit["content"] == "以后默认用英文回答"
    deleted = v1.post("manage", body(scope, action="delete", memory_id=memory_id)).json()
    assert deleted["status"] == "deleted"

    history = v1.post("history", body(scope, memory_id=memory_id)).json()["items"]
    assert [(e["event"], e["status"]) for e in history] == [
        ("ADD", ""),
        ("UPDATE", ""),
        ("NOOP", "duplicate"),
        ("DELETE", "deleted"),
    ]
    # no residue: no row, no entity link, no Mem0 history, no text in the audit trail
    assert not MemoryRow.objects.filter(payload__user_id=scope.key).exists()
    assert get_engine().entity_links(memory_id=memory_id) == 0
    assert not any(memory_id in e.linked_memory_ids for e in EntityRow.objects.all())
    assert all(e["old_text"] == e["new_text"] == "" for e in history)
    assert not AuditEvent.objects.exclude(old_text="", new_text="").exists()
    assert found(v1, scope, "回答语言偏好") == []
