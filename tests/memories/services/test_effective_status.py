"""A memory past its ``valid_until`` is expired at once, before the periodic sweep marks it:
every output that shows a status (the list's metadata, the record, the export, the CSV) says
``expired``, read through one function (``governance.payload_status``). Real PostgreSQL."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from memories import governance, selectors, services
from memories.engine import get_engine
from memories.models import MemoryRow
from memories.ops.portability import export_csv, memory_export
from memories.types import ListQuery, MemoryStatus
from tests.memories.conftest import body

pytestmark = pytest.mark.django_db

GONE = "用户住在武汉"
KEPT = "用户喜欢喝龙井茶"


@pytest.fixture
def overdue(scope, agent) -> str:
    """A memory whose valid_until passed a day ago; the sweep has not run."""
    memory_id = services.memory_add(scope=scope, text=GONE, actor=agent).memory_id
    services.memory_add(scope=scope, text=KEPT, actor=agent)
    get_engine().patch_payload(
        memory_id=memory_id,
        fields={"valid_until": (timezone.now() - timedelta(days=1)).isoformat()},
    )
    assert MemoryRow.objects.get(id=memory_id).payload["status"] == "active"  # as stored
    return memory_id


def test_the_record_and_its_metadata_say_expired(scope, overdue):
    record = selectors.memory_get(scope=scope, memory_id=overdue)
    assert record.status == MemoryStatus.EXPIRED
    assert record.metadata["status"] == "expired"
    [listed] = selectors.memory_list(scope=scope, query=ListQuery(status="expired")).items
    assert (listed.id, listed.metadata["status"]) == (overdue, "expired")


def test_list_user_metadata_says_expired(v1, scope, overdue):
    answer = v1.post("list-user", body(scope, status="expired")).json()
    [item] = answer["items"]
    assert item["id"] == overdue and item["metadata"]["status"] == "expired"
    every = v1.post("list-user", body(scope, status="all")).json()["items"]
    assert {m["content"]: m["metadata"]["status"] for m in every} == {
        GONE: "expired",
        KEPT: "active",
    }


def test_the_export_and_its_csv_say_expired(scope, overdue):
    document = memory_export(scope=scope)
    statuses = {m["content"]: m["status"] for m in document["memories"]}
    assert statuses == {GONE: "expired", KEPT: "active"}
    row = next(line for line in export_csv(document).splitlines() if GONE in line)
    assert "已过期" in row or "expired" in row.lower()


def test_the_effective_status_is_one_function(scope, overdue):
    stored = MemoryRow.objects.get(id=overdue).payload
    assert governance.payload_status(stored) == MemoryStatus.EXPIRED
    assert governance.payload_status(stored, now=timezone.now() - timedelta(days=2)) == (
        MemoryStatus.ACTIVE
    )
