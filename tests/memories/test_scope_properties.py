"""Property tests for scope isolation: random scopes and ids never read or change another
scope's memory, through any by-id /v1 operation or any read of a whole scope."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.db import connection
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memories import services
from memories.types import MemoryScope
from tests.memories.conftest import body

pytestmark = pytest.mark.django_db

VICTIM = MemoryScope(tenant_id="acme", user_id="alice")
VICTIM_FACTS = ("需求对接人是“林清”，每周三同步一次进度。", "Prefers Go for new backend services.")
MARKERS = ("林清", "周三", "Go for new backend")

scope_parts = st.from_regex(r"[A-Za-z0-9_.@+\-]{1,64}", fullmatch=True)
# Other users of the victim's tenant (403 for its ids) and scopes of any tenant (an id of
# another tenant is answered as an unknown one).
intruders = st.one_of(
    st.builds(MemoryScope, tenant_id=st.just(VICTIM.tenant_id), user_id=scope_parts),
    st.builds(MemoryScope, tenant_id=scope_parts, user_id=scope_parts),
).filter(lambda s: s != VICTIM)
BY_ID = [
    ("related", {}),
    ("history", {}),
    ("update-item", {"text": "用户要求所有输出改用英文。"}),
    ("delete-item", {}),
    ("manage", {"action": "update", "text": "用户要求所有输出改用英文。"}),
    ("manage", {"action": "delete"}),
]
PROPERTY_SETTINGS = settings(
    max_examples=30,
    deadline=None,
    derandomize=True,
    database=None,  # nothing written into the checkout; derandomized runs replay anyway
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@pytest.fixture
def victim_ids(agent) -> list[str]:
    ids = []
    for text in VICTIM_FACTS:
        outcome = services.memory_add(scope=VICTIM, text=text, actor=agent)
        assert outcome.memory_id is not None, outcome
        ids.append(outcome.memory_id)
    return ids


def victim_rows() -> list[tuple[str, str, str]]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT id::text, payload->>'data', payload->>'hash' FROM poco_memories "
            "WHERE payload->>'user_id' = %s ORDER BY id",
            [VICTIM.key],
        )
        return cursor.fetchall()


def leaks(answer: Any) -> bool:
    text = answer.content.decode()
    return any(marker in text for marker in MARKERS)


@PROPERTY_SETTINGS
@given(intruder=intruders, op=st.sampled_from(BY_ID), pick=st.integers(0, 2))
def test_random_scopes_never_touch_another_scopes_memory(v1, victim_ids, intruder, op, pick):
    before = victim_rows()
    name, extra = op
    target = victim_ids[pick] if pick < len(victim_ids) else str(uuid.uuid4())
    answer = v1.post(name, body(intruder, memory_id=target, **extra))
    if target in victim_ids and intruder.tenant_id == VICTIM.tenant_id:
        assert answer.status_code == 403, answer.content
        assert answer.json()["status"] == "forbidden"
    else:  # an unknown id, or another tenant's: never confirmed
        assert answer.json()["status"] == "not_found", answer.content
    assert answer.json()["success"] is False
    assert not leaks(answer)
    assert victim_rows() == before


@PROPERTY_SETTINGS
@given(intruder=intruders, query=st.sampled_from(["林清", "Go", "进度", "backend"]))
def test_random_scopes_never_read_another_scopes_memory(v1, victim_ids, intruder, query):
    before = victim_rows()
    for op, extra in (
        ("search", {"query": query, "min_score": 0.0}),
        ("list-user", {"query": query}),
        ("overview", {}),
        ("topics", {}),
    ):
        answer = v1.post(op, body(intruder, **extra))
        assert answer.status_code == 200, answer.content
        assert not leaks(answer)
        if "items" in answer.json():
            assert not {i.get("id") for i in answer.json()["items"]} & set(victim_ids)
    assert victim_rows() == before
