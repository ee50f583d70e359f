"""The per-user cap on the ingest path: a full scope's job ends without extraction, and
adoption never takes a scope past the cap (a real queue worker, the offline extractor)."""

from __future__ import annotations

from lifecycle.models import IngestJob
from memories import services
from memories.models import MemoryRow
from tests.lifecycle.conftest import run_queue
from tests.lifecycle.test_ingest import TASK
from tests.memories.conftest import body


def test_an_ingest_of_a_full_scope_is_skipped_quota_exceeded(v1_live, scope, agent, settings):
    settings.MAX_MEMORIES_PER_USER = 1
    services.memory_add(scope=scope, text="用户喜欢喝绿茶。", actor=agent)
    job_id = v1_live.post("ingest", body(scope, messages=TASK)).json()["job_id"]
    run_queue()
    job = IngestJob.objects.get(id=job_id)
    assert (job.status, job.reason) == (IngestJob.Status.SKIPPED, "quota_exceeded")
    assert job.messages == []
    assert [row.content for row in MemoryRow.objects.all()] == ["用户喜欢喝绿茶。"]


def test_adoption_stops_at_the_cap(v1_live, scope, agent, settings):
    settings.MAX_MEMORIES_PER_USER = 2
    services.memory_add(scope=scope, text="用户喜欢喝绿茶。", actor=agent)
    job_id = v1_live.post("ingest", body(scope, messages=TASK)).json()["job_id"]
    run_queue()
    job = IngestJob.objects.get(id=job_id)
    assert job.status == IngestJob.Status.SUCCEEDED, job.reason
    assert MemoryRow.objects.filter(payload__user_id=scope.key).count() == 2
    assert job.inserted_count == 1
