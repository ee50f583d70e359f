"""The one door for writes: the services admit their own text and never leave a
change without its audit row."""

from __future__ import annotations

import pytest
from prometheus_client import REGISTRY

from memories.engine import get_engine
from memories.models import AuditEvent, EntityRow, MemoryRow
from memories.services import memory_add, memory_record_extracted, memory_update, our_metadata
from memories.types import Source, WriteStatus

pytestmark = pytest.mark.django_db

KEPT = "用户偏好简洁的回答。"
CORRECTED = "用户偏好简洁的回答，结论先行。"


def rejections(reason: str) -> float:
    return REGISTRY.get_sample_value("memory_admission_rejected_total", {"reason": reason}) or 0.0


class AuditDown(Exception):
    pass


@pytest.fixture
def audit_down(monkeypatch):
    def refuse(*args, **fields):
        raise AuditDown

    def down():
        monkeypatch.setattr(AuditEvent.objects, "create", refuse)
        monkeypatch.setattr(AuditEvent.objects, "bulk_create", refuse)

    return down


def test_add_and_update_store_the_admitted_text(scope, agent):
    added = memory_add(
        scope=scope, text="周报用“飞书”写，模板见 https://wiki.example/w", actor=agent
    )
    assert added.status == WriteStatus.ADDED and added.memory_id
    assert MemoryRow.objects.get(id=added.memory_id).content == "周报用“飞书”写，模板见"

    updated = memory_update(
        scope=scope, memory_id=added.memory_id, text="周报用“钉钉”写 /home/a/w.md", actor=agent
    )
    assert updated.status == WriteStatus.UPDATED
    assert MemoryRow.objects.get(id=added.memory_id).content == "周报用“钉钉”写"


def test_refusals_are_counted_by_reason_and_change_nothing(scope, agent):
    memory_id = memory_add(scope=scope, text=KEPT, actor=agent).memory_id
    assert memory_id
    before = rejections("sensitive_identifier")
    audit_rows = AuditEvent.objects.count()

    added = memory_add(scope=scope, text="用户手机 139.1234.5678", actor=agent)
    updated = memory_update(
        scope=scope, memory_id=memory_id, text="报告发到 alice@example.com", actor=agent
    )

    assert (added.status, added.reason) == (WriteStatus.REJECTED, "sensitive_identifier")
    assert (updated.status, updated.reason) == (WriteStatus.REJECTED, "sensitive_identifier")
    assert rejections("sensitive_identifier") == before + 2
    assert list(MemoryRow.objects.values_list("payload__data", flat=True)) == [KEPT]
    assert AuditEvent.objects.count() == audit_rows


def test_add_takes_the_memory_back_when_its_audit_row_cannot_be_written(scope, agent, audit_down):
    audit_down()
    outcome = memory_add(scope=scope, text="团队使用“飞书”沟通。", actor=agent)

    assert (outcome.status, outcome.memory_id) == (WriteStatus.BACKEND_ERROR, None)
    assert not MemoryRow.objects.exists()
    assert not EntityRow.objects.exists()


def test_update_puts_the_old_text_back_when_its_audit_row_cannot_be_written(
    scope, agent, audit_down
):
    memory_id = memory_add(scope=scope, text=KEPT, actor=agent, category="preference").memory_id
    assert memory_id
    audit_down()

    with pytest.raises(AuditDown):
        memory_update(
            scope=scope, memory_id=memory_id, text=CORRECTED, actor=agent, category="goal"
        )

    row = MemoryRow.objects.get(id=memory_id)
    assert (row.content, row.category) == (KEPT, "preference")
    assert list(AuditEvent.objects.values_list("event", "new_text")) == [("ADD", KEPT)]


def test_adoption_refuses_a_secret_the_llm_reassembled(scope, agent):
    # The messages held the number in two harmless halves; the extracted fact holds it whole.
    engine = get_engine()
    fact = "用户的手机号是 139 1234 5678"
    memory_id = engine.add_fact(
        scope_key=scope.key, text=fact, metadata=our_metadata(category="fact", source="ingest")
    )

    outcome = memory_record_extracted(
        scope=scope, memory_id=memory_id, text=fact, actor=agent, category="fact"
    )

    assert (outcome.status, outcome.reason) == (WriteStatus.REJECTED, "sensitive_identifier")
    assert not MemoryRow.objects.filter(id=memory_id).exists()
    assert engine.entity_links(memory_id=memory_id) == 0
    assert not AuditEvent.objects.exists()


def test_adoption_keeps_a_clean_fact_with_its_audit_row(scope, agent):
    memory_id = get_engine().add_fact(
        scope_key=scope.key, text=KEPT, metadata=our_metadata(category="fact", source="ingest")
    )

    outcome = memory_record_extracted(
        scope=scope, memory_id=memory_id, text=KEPT, actor=agent, category="preference"
    )

    assert outcome.status == WriteStatus.ADDED
    assert MemoryRow.objects.get(id=memory_id).category == "preference"
    assert list(AuditEvent.objects.values_list("event", "source", "new_text")) == [
        ("ADD", Source.INGEST.value, KEPT)
    ]
