"""Slow fault tests (``make reliability``): a worker killed mid-job, the database going away
during a job. Real worker processes, the real database; only the remote LLM is a local fake.

Nothing is lost when a process dies, the job row always agrees with the queue, and
every final state drops the candidate text.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

import psycopg
import pytest
from django.db import DatabaseError, connection
from procrastinate.contrib.django.models import ProcrastinateJob
from psycopg import sql

from lifecycle.models import IngestJob
from memories.engine.adapter import connection_string_for
from memories.models import AuditEvent, MemoryRow
from tests.lifecycle.fake_llm import FakeLLM, fact
from tests.lifecycle.test_retry_and_durability import accept, queue_jobs, worker
from tests.support import eventually

pytestmark = pytest.mark.reliability

FACT = "用户偏好所有技术方案使用简体中文"
# Above procrastinate's 10 s heartbeat interval, so a live worker never looks stalled.
STALLED_AFTER = "20"


def wait_for(predicate, *, timeout: float, what: str, log: Path) -> None:
    try:
        eventually(predicate, what=what, timeout=timeout, interval=0.2)
    except AssertionError as error:
        raise AssertionError(f"{error}\n{log.read_text()[-3000:]}") from None


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


class Outage:
    """Take the test database away from every client (new connections refused, live ones
    terminated) for ``seconds``, then give it back: a real outage, the server itself stays up
    because this test process depends on it too."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.name = connection.settings_dict["NAME"]
        self.admin = connection_string_for("postgres")
        self.over = threading.Event()
        self.count = 0

    def _set(self, allowed: bool) -> None:
        with psycopg.connect(self.admin, autocommit=True) as conn:
            conn.execute(
                sql.SQL("ALTER DATABASE {} ALLOW_CONNECTIONS {}").format(
                    sql.Identifier(self.name), sql.SQL("true" if allowed else "false")
                )
            )
            if not allowed:
                conn.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s",
                    (self.name,),
                )

    def start(self) -> None:
        self.over.clear()
        self.count += 1
        self._set(allowed=False)
        timer = threading.Timer(self.seconds, self.end)
        timer.daemon = True
        timer.start()

    def end(self) -> None:
        if not self.over.is_set():
            self._set(allowed=True)
            self.over.set()


@pytest.mark.parametrize(
    ("every_attempt", "expected"),
    [(False, IngestJob.Status.SUCCEEDED), (True, IngestJob.Status.FAILED)],
    ids=["once", "during-every-attempt"],
)
def test_a_database_outage_during_a_job_is_retried_then_decided(
    v1_live, scope, tmp_path, every_attempt, expected
):
    """The database goes away while the job is extracting (once, or during every attempt).
    Each failed attempt counts; with the queue in the same database the retry is recorded
    when it is back. Four failed attempts end ``failed`` with the reason, never ``running``."""
    outage = Outage(3)

    def cut_then_answer(_body):
        outage.start()
        return [fact(FACT)]

    then = cut_then_answer if every_attempt else [fact(FACT)]
    llm = FakeLLM([cut_then_answer], then=then).start()
    log = tmp_path / "workers.log"
    try:
        job_id = accept(v1_live, scope, "run-outage")
        deadline = time.monotonic() + 600
        # A deployment's supervisor restarts a worker that stopped because its database went
        # away (``make run``'s launcher does); so does this loop.
        while True:
            with worker(log, "-q", "ingest", env=llm_env(llm)) as process:
                while process.poll() is None and time.monotonic() < deadline:
                    if outage.over.is_set() and _decided(job_id):
                        break
                    time.sleep(0.3)  # the supervisor's look at its worker, not a wait for it
                if process.poll() is None:
                    process.terminate()
                    process.wait(timeout=30)
            if (outage.over.is_set() and _decided(job_id)) or time.monotonic() > deadline:
                break
            outage.over.wait(timeout=60)
    finally:
        outage.end()
        llm.close()

    connection.close()  # the outage killed this test's own connection too
    job = IngestJob.objects.get(id=job_id)
    assert job.status == expected, (job.status, job.reason, log.read_text()[-3000:])
    assert job.messages == []
    queue_states = [j.status for j in queue_jobs(job_id)]
    assert queue_states == [str(expected)], queue_states
    stored = {str(r.id) for r in MemoryRow.objects.filter(payload__user_id=scope.key)}
    assert stored == set(job.memory_ids)  # nothing half-written by the failed attempts
    if expected == IngestJob.Status.FAILED:
        # The worker's own "backend_error: …" if it could write it, else the queue's verdict.
        assert job.reason.startswith(("backend_error", "queue_failed after 4 attempts"))
        assert job.attempts == 4 and outage.count == 4 and stored == set()
    else:
        assert job.attempts == 2 and len(stored) == 1


def _decided(job_id: str) -> bool:
    try:
        connection.close()
        job = IngestJob.objects.get(id=job_id)
        states = [j.status for j in queue_jobs(job_id)]
    except DatabaseError:
        return False
    return job.status in IngestJob.FINAL and states == [str(job.status)]
