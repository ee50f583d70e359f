"""``services.memory_add_many`` (the import's batch path) against ``memory_add``: the
same inputs give the same outcomes, the same stored payloads and the same audit trail, item by
item in input order — with earlier items of the batch counting as stored memories. Real
PostgreSQL, Mem0 and the bundled embedder."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import DatabaseError
from django.utils import timezone

from memories import services
from memories.models import AuditEvent, MemoryRow
from memories.services import NewMemory
from memories.types import MemoryScope, Source, WriteOutcome, WriteStatus

pytestmark = pytest.mark.django_db

KEY = "preference.answer_language"
PET = "pet.name"
DOG = "用户养了一只狗，名字叫旺财。"
CAT = "用户养了一只猫，名字叫咪咪。"
ZH = "以后默认用中文回答"

STORED = [
    NewMemory(text="以后默认用英文回答", memory_key=KEY),
    NewMemory(text="用户喜欢猫。"),
]
BATCH = [
    NewMemory(text="用户喜欢猫。"),  # the same text as a stored memory
    NewMemory(text="   "),  # invalid text
    NewMemory(text="用户喜欢狗。", memory_key="Bad Key!"),  # invalid key
    NewMemory(text="用户下周出差。", valid_until=timezone.now() - timedelta(days=1)),
    NewMemory(text="用户可能喜欢爵士乐。", confidence=0.3),  # below MIN_CONFIDENCE
    NewMemory(text=ZH, memory_key=KEY, confidence=0.7),  # an inference keeps the explicit one
    NewMemory(text=ZH, memory_key=KEY),  # explicit: supersedes the stored value
    NewMemory(text=ZH),  # the same text as an earlier item of the batch
    NewMemory(text="对，还是默认用中文回答"),  # a restatement of an earlier item
    NewMemory(text=DOG, memory_key=PET),
    NewMemory(text=CAT, memory_key=PET),  # supersedes the earlier item of its key
    NewMemory(text=DOG),  # its earlier twin is superseded: no longer a duplicate
    NewMemory(  # admitted with the noise cut out
        text="以后所有报告统一使用 HTML 格式，不要再用 PDF。\n$ pip install -r requirements.txt"
    ),
    NewMemory(text="用户说“周报模板”要用 A4 纸。", category="preference", source_ref="run-9"),
]


def _one_by_one(scope: MemoryScope, agent: Any, items: list[NewMemory]) -> list[WriteOutcome]:
    return [
        services.memory_add(
            scope=scope,
            text=item.text,
            actor=agent,
            category=item.category,
            source=Source.IMPORT,
            confidence=item.confidence,
            memory_key=item.memory_key,
            valid_until=item.valid_until,
            source_ref=item.source_ref,
            created_at=item.created_at,
        )
        for item in items
    ]


def _labels(stored: list[WriteOutcome], batch: list[WriteOutcome]) -> dict[str, str]:
    """Ids differ between two scopes: name each memory by the input that wrote it."""
    names = {o.memory_id: f"stored{i}" for i, o in enumerate(stored) if o.memory_id}
    names |= {
        o.memory_id: f"item{i}"
        for i, o in enumerate(batch)
        if o.status == WriteStatus.ADDED and o.memory_id
    }
    return names


def _snapshot(scope: MemoryScope, stored: list[WriteOutcome], batch: list[WriteOutcome]) -> Any:
    names = _labels(stored, batch)
    outcomes = [
        (o.status, o.reason, names.get(o.memory_id), names.get(o.superseded_id)) for o in batch
    ]
    payloads = {}
    for row in MemoryRow.objects.filter(payload__user_id=scope.key).defer("vector"):
        payload = dict(row.payload)
        for volatile in ("user_id", "created_at", "updated_at", "valid_until"):
            assert payload.pop(volatile, None) is not None or volatile == "valid_until"
        payload.pop("superseded_at", None)  # when it was superseded: now, in either scope
        payload["superseded_by"] = names.get(payload["superseded_by"], payload["superseded_by"])
        payloads[names[str(row.id)]] = payload
    audit = [
        (e.event, names.get(e.memory_id), e.status, e.new_text, e.actor_id, e.source, e.run_id)
        for e in AuditEvent.objects.filter(user_id=scope.user_id).order_by("id")
    ]
    return outcomes, payloads, audit


def test_a_batch_gives_what_memory_add_gives_item_by_item(scope, other_scope, agent):
    stored_a = _one_by_one(scope, agent, STORED)
    one_by_one = _one_by_one(scope, agent, BATCH)
    stored_b = _one_by_one(other_scope, agent, STORED)
    batched = services.memory_add_many(
        scope=other_scope, items=BATCH, actor=agent, source=Source.IMPORT
    )

    expected = _snapshot(scope, stored_a, one_by_one)
    assert _snapshot(other_scope, stored_b, batched) == expected

    outcomes, payloads, _ = expected
    assert [(status, reason) for status, reason, _, _ in outcomes] == [
        (WriteStatus.NO_EFFECT, "duplicate"),
        (WriteStatus.REJECTED, "invalid_text"),
        (WriteStatus.REJECTED, "invalid_memory_key"),
        (WriteStatus.REJECTED, "valid_until_past"),
        (WriteStatus.REJECTED, "low_confidence"),
        (WriteStatus.NO_EFFECT, "explicit_statement_kept"),
        (WriteStatus.ADDED, None),
        (WriteStatus.NO_EFFECT, "duplicate"),
        (WriteStatus.NO_EFFECT, "duplicate"),
        (WriteStatus.ADDED, None),
        (WriteStatus.ADDED, None),
        (WriteStatus.ADDED, None),
        (WriteStatus.ADDED, None),
        (WriteStatus.ADDED, None),
    ]
    assert outcomes[6][3] == "stored0" and outcomes[10][3] == "item9"
    assert outcomes[7][2] == outcomes[8][2] == "item6"
    assert payloads["stored0"]["status"] == "superseded"
    assert payloads["item9"]["superseded_by"] == "item10"
    assert payloads["item12"]["data"] == "以后所有报告统一使用 HTML 格式，不要再用 PDF。"
    assert payloads["item13"]["data"] == "用户说“周报模板”要用 A4 纸。"


def test_a_batch_that_cannot_write_its_audit_trail_writes_nothing(other_scope, agent, monkeypatch):
    (holder,) = _one_by_one(other_scope, agent, STORED[:1])
    before = set(MemoryRow.objects.filter(payload__user_id=other_scope.key).values_list("id"))

    def broken(*args: Any, **kwargs: Any) -> None:
        raise DatabaseError("audit table gone")

    monkeypatch.setattr(AuditEvent.objects, "bulk_create", broken)
    outcomes = services.memory_add_many(
        scope=other_scope,
        items=[NewMemory(text=ZH, memory_key=KEY), NewMemory(text=DOG), NewMemory(text="")],
        actor=agent,
    )

    assert [o.status for o in outcomes] == [
        WriteStatus.BACKEND_ERROR,
        WriteStatus.BACKEND_ERROR,
        WriteStatus.REJECTED,
    ]
    rows = MemoryRow.objects.filter(payload__user_id=other_scope.key)
    assert set(rows.values_list("id")) == before
    assert rows.get(id=holder.memory_id).payload["status"] == "active"
    assert rows.get(id=holder.memory_id).payload["superseded_by"] is None
