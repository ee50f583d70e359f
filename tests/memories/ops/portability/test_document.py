"""The export document on the real database: what it holds, and a whole restore through it."""

from __future__ import annotations

import json

import pytest

from memories.export_document import EXPORT_FORMAT, EXPORT_VERSION
from memories.models import AuditEvent
from memories.ops import portability
from memories.services import memory_add
from memories.types import (
    SCHEMA_VERSION,
    Category,
    Source,
    WriteStatus,
)
from tests.memories.conftest import assert_invalid, body
from tests.memories.ops.portability.conftest import (
    FACTS,
    comparable,
    version_1_document,
)

pytestmark = pytest.mark.django_db


def test_export_is_a_versioned_document_of_the_scope_only(exported, scope):
    assert exported["format"] == EXPORT_FORMAT
    assert exported["version"] == EXPORT_VERSION
    assert exported["scope"] == {"tenant_id": scope.tenant_id, "user_id": scope.user_id}
    assert {m["content"] for m in exported["memories"]} == {text for text, _ in FACTS}
    assert "Bob" not in json.dumps(exported, ensure_ascii=False)


def test_exported_memory_carries_its_governance_fields_and_no_vector(exported):
    item = next(m for m in exported["memories"] if m["content"].startswith("用户偏好"))
    assert item["category"] == "preference"
    assert item["status"] == "active"
    assert item["source"] == "manage"
    assert (
        item["created_at"] and item["embedding_model"] and item["schema_version"] == SCHEMA_VERSION
    )
    assert {"pinned", "history", "usage", "imported_at"} < set(item)
    assert "vector" not in json.dumps(exported)


def test_the_v1_export_is_the_whole_document_pins_history_and_use_included(v1, scope, agent):
    # /v1/memories/export once answered only the first columns: a pin, the trail and the use
    # counts were lost on the way through it, though the console's export kept them.
    from memories.services import memory_update
    from memories.services.validity import memory_pin

    kept = memory_add(scope=scope, text="周报使用“飞书”文档撰写。", actor=agent).memory_id
    corrected = "周报使用「飞书」文档撰写，结论先行。"
    memory_update(scope=scope, memory_id=kept, text=corrected, actor=agent)
    memory_pin(scope=scope, memory_id=kept, pinned=True, actor=agent)

    answer = v1.post("export", body(scope))

    assert answer.status_code == 200, answer.content
    document = answer.json()
    (item,) = document["memories"]
    assert item["content"] == corrected
    assert item["pinned"] is True and item["pinned_at"]
    assert [entry["event"] for entry in item["history"]][:2] == ["ADD", "UPDATE"]
    assert item["history"][1]["old_text"] == "周报使用“飞书”文档撰写。"
    assert item["usage"]["recalled_count"] == 0
    expected = portability.memory_export(scope=scope)
    assert {**document, "exported_at": None} == {**expected, "exported_at": None}


def test_export_of_an_empty_scope_is_an_empty_document(v1, scope):
    answer = v1.post("export", body(scope))
    assert answer.status_code == 200
    assert answer.json()["memories"] == []


def test_export_refuses_unknown_fields(v1, scope):
    assert_invalid(v1.post("export", body(scope, page=1)), "page")


def test_export_delete_all_import_export_gives_the_same_document(scope, agent):
    from edges.contract.export_reader import ExportDocument, read_export_data
    from memories.services import memory_delete_user, memory_update
    from memories.services.validity import memory_pin
    from memories.usage import Use, count_use

    kept = memory_add(
        scope=scope, text="周报使用“飞书”文档撰写。", actor=agent, run_id="run-20261130-07"
    ).memory_id
    corrected = memory_update(
        scope=scope, memory_id=kept, text="周报使用「飞书」文档撰写，结论先行。", actor=agent
    )
    assert corrected.status == WriteStatus.UPDATED
    assert memory_pin(scope=scope, memory_id=kept, pinned=True, actor=agent).status in (
        WriteStatus.UPDATED,
        WriteStatus.ADDED,
    )
    count_use(scope=scope, memory_ids=[kept], use=Use.RECALLED)
    count_use(scope=scope, memory_ids=[kept], use=Use.RECALLED)
    count_use(scope=scope, memory_ids=[kept], use=Use.INJECTED)
    memory_add(scope=scope, text="用户喜欢猫。", actor=agent, category=Category.PREFERENCE)

    before = portability.memory_export(scope=scope)
    assert before["version"] == EXPORT_VERSION >= 2
    first = next(item for item in before["memories"] if item["content"].startswith("周报"))
    assert first["pinned"] is True and first["source"] == Source.MANAGE
    assert first["source_ref"] == "run-20261130-07"
    assert first["usage"]["recalled_count"] == 2 and first["usage"]["injected_count"] == 1
    assert [entry["event"] for entry in first["history"]][:2] == ["ADD", "UPDATE"]
    assert first["history"][1]["old_text"] == "周报使用“飞书”文档撰写。"

    assert memory_delete_user(scope=scope, actor=agent).status == "deleted"
    read = read_export_data(json.loads(json.dumps(before, ensure_ascii=False)))
    assert isinstance(read, ExportDocument)
    report = portability.memory_import(scope=scope, items=read.memories, actor=agent)
    assert report.count("added") == 2, report

    after = portability.memory_export(scope=scope)
    for old, new in zip(comparable(before), comparable(after), strict=True):
        for key in old:
            assert new[key] == old[key], key
    restored = next(item for item in after["memories"] if item["content"].startswith("周报"))
    assert restored["imported_at"] and restored["import_id"]
    assert all(entry["imported"] for entry in restored["history"] if entry["status"] != "imported")
    # The trail says when it was imported, beside the original times.
    assert [e["status"] for e in restored["history"]].count("imported") == 1


def test_a_version_1_document_is_still_read(scope, agent):
    from edges.contract.export_reader import ExportDocument, read_export_data

    read = read_export_data(version_1_document([{"content": "用户喜欢先看结论。"}]))
    assert isinstance(read, ExportDocument) and read.version == 1
    report = portability.memory_import(scope=scope, items=read.memories, actor=agent)
    assert report.count("added") == 1


def test_a_secret_in_an_imported_trail_does_not_enter_the_audit_trail(scope, agent):
    from edges.contract.export_reader import ExportDocument, read_export_data

    secret = "我的邮箱密码：Kiwi21Moss!"
    item = {
        "content": "用户喜欢先看结论。",
        "history": [
            {"event": "ADD", "new_text": secret, "at": "2026-01-01T00:00:00+00:00"},
            {
                "event": "UPDATE",
                "old_text": secret,
                "new_text": "用户喜欢先看结论。",
                "at": "2026-01-02T00:00:00+00:00",
            },
        ],
    }
    read = read_export_data({"format": EXPORT_FORMAT, "version": 2, "memories": [item]})
    assert isinstance(read, ExportDocument)
    report = portability.memory_import(scope=scope, items=read.memories, actor=agent)
    assert report.count("added") == 1
    written = list(AuditEvent.objects.values_list("old_text", "new_text"))
    assert "Kiwi21Moss" not in json.dumps(written, ensure_ascii=False)
    # The change itself is kept, marked as imported, at its original time.
    update = AuditEvent.objects.get(event="UPDATE")
    assert "imported" in update.changes and update.created_at.year == 2026
    assert update.new_text == "用户喜欢先看结论。" and update.old_text == ""
