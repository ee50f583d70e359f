"""The periodic expiry sweep: a procrastinate task, run by a real worker, marks
memories past their valid_until expired."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from procrastinate.contrib.django import app

from lifecycle import tasks
from memories import services
from memories.engine import get_engine
from memories.models import AuditEvent, MemoryRow
from tests.lifecycle.conftest import run_queue


def test_the_sweep_is_periodic_on_the_queue_workers_serve():
    [periodic] = [
        p for p in app.periodic_registry.periodic_tasks.values() if p.task is tasks.expire_memories
    ]
    assert periodic.cron == "*/10 * * * *"
    assert tasks.expire_memories.queue == tasks.run_ingest.queue


@pytest.mark.django_db(transaction=True)
def test_a_worker_marks_memories_past_their_valid_until_expired(scope, agent):
    gone = services.memory_add(scope=scope, text="以后默认用英文回答", actor=agent).memory_id
    kept = services.memory_add(scope=scope, text="用户住在杭州", actor=agent).memory_id
    assert gone and kept
    past = (timezone.now() - timedelta(seconds=1)).isoformat()
    get_engine().patch_payload(memory_id=gone, fields={"valid_until": past})

    tasks.expire_memories.defer(timestamp=0)
    run_queue()

    assert MemoryRow.objects.get(id=gone).payload["status"] == "expired"
    assert MemoryRow.objects.get(id=kept).payload["status"] == "active"
    assert AuditEvent.objects.filter(memory_id=gone, status="expired").count() == 1
