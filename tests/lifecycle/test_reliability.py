"""Slow fault tests (``make reliability``): a worker killed mid-job, the database going away
during a job. Real worker processes, the real database; only the remote LLM is a local fake.

Issue 7 §2: nothing is lost when a process dies, the job row always agrees with the queue, and
every final state drops the candidate text.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from procrastinate.contrib.django.models import ProcrastinateJob

from lifecycle.models import IngestJob
from memories.models import AuditEvent, MemoryRow
from tests.lifecycle.fake_llm import FakeLLM, fact
from tests.lifecycle.test_retry_and_durability import accept, queue_jobs, worker

pytestmark = pytest.mark.reliability

FACT = "用户偏好所有技术方案使用简体中文"
# Above procrastinate's 10 s heartbeat interval, so a live worker never looks stalled.
STALLED_AFTER = "20"


def wait_for(predicate, *, timeout: float, what: str, log: Path) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, f"{what}:\n{log.read_text()[-3000:]}"
        time.sleep(0.2)


def llm_env(llm: FakeLLM) -> dict[str, str]:
    return {
        "POCO_LLM_BASE_URL": llm.base_url,
        "POCO_LLM_MODEL": "fake",
        "POCO_INGEST_STALLED_AFTER_SECONDS": STALLED_AFTER,
    }


def test_a_job_whose_worker_was_killed_is_retried_by_another_worker(v1_live, scope, tmp_path):
    arrived, release = threading.Event(), threading.Event()

    def stuck(_body):
        arrived.set()
        release.wait(timeout=300)  # the worker asking is dead by then
        return [fact(FACT)]

    llm = FakeLLM([stuck], then=[fact(FACT)]).start()
    try:
        job_id = accept(v1_live, scope, "run-killed")
        log = tmp_path / "workers.log"
        with worker(log, "-q", "ingest", env=llm_env(llm)) as doomed:
            wait_for(arrived.is_set, timeout=120, what="the job never reached the LLM", log=log)
            assert IngestJob.objects.get(id=job_id).status == IngestJob.Status.RUNNING
            doomed.kill()  # SIGKILL mid-job: no clean-up code runs
            doomed.wait(timeout=30)
        release.set()
        assert [j.status for j in queue_jobs(job_id)] == ["doing"]

        with worker(log, "-q", "ingest", env=llm_env(llm)) as rescuer:
            wait_for(
                lambda: IngestJob.objects.get(id=job_id).status in IngestJob.FINAL,
                timeout=180,
                what="the stalled job was never retried",
                log=log,
            )
            rescuer.terminate()
            rescuer.wait(timeout=30)
    finally:
        release.set()
        llm.close()

    job = IngestJob.objects.get(id=job_id)
    assert job.status == IngestJob.Status.SUCCEEDED, (job.status, job.reason)
    assert job.attempts == 2 and job.messages == []
    assert [j.status for j in queue_jobs(job_id)] == ["succeeded"]
    [row] = MemoryRow.objects.filter(payload__user_id=scope.key)
    assert row.content == FACT and job.memory_ids == [str(row.id)]
    assert AuditEvent.objects.filter(memory_id=row.id, event="ADD").count() == 1
    assert llm.calls == 2
    assert not ProcrastinateJob.objects.filter(status="doing").exists()
