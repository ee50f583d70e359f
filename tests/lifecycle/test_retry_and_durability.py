"""Retry decisions, durability across worker restarts, and one writer per run under races.

Backend errors are tried at most 4 times, 1, 2 and 4 seconds apart;
deterministic outcomes are never retried; an accepted candidate is stored exactly once; once a
run's agent called /manage, that run's auto-ingest never writes.
"""

from __future__ import annotations

import contextlib
import datetime
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection, connections
from procrastinate.contrib.django.models import ProcrastinateJob
from procrastinate.jobs import Job
from rest_framework.test import APIClient

from lifecycle import tasks
from lifecycle.ingest import IngestFailed
from lifecycle.models import IngestJob, RunLedger
from memories.engine.adapter import connection_string_for
from memories.models import AuditEvent, MemoryRow
from memories.types import BackendError, CleanupError
from tests.lifecycle.conftest import run_queue
from tests.memories.conftest import TOKEN, body
from tests.support import eventually

TASK = [
    {
        "role": "user",
        "content": "以后所有技术方案都使用简体中文，项目叫“Poco”。这次先生成一份 HTML 报告。",
    },
    {"role": "assistant", "content": "好的，已生成报告。已确认：Poco 的技术方案统一使用简体中文。"},
]


# --- the retry strategy -----------------------------------------------------------------------
def job_with(attempts: int) -> Job:
    return Job(
        id=1,
        queue="ingest",
        lock=None,
        queueing_lock=None,
        task_name="lifecycle.run_ingest",
        attempts=attempts,
    )


@pytest.mark.parametrize(("attempts", "delay"), [(0, 1), (1, 2), (2, 4)])
def test_backend_errors_back_off_1_2_4_seconds(attempts, delay):
    before = datetime.datetime.now(datetime.UTC)
    decision = tasks.BackoffOnBackendError().get_retry_decision(
        exception=BackendError("llm down"), job=job_with(attempts)
    )
    after = datetime.datetime.now(datetime.UTC)
    assert decision is not None and decision.retry_at is not None
    expected = datetime.timedelta(seconds=delay)
    assert before + expected <= decision.retry_at <= after + expected
    assert decision.queue is None and decision.lock is None  # same queue, no new lock


@pytest.mark.parametrize("attempts", [3, 4, 10])
def test_no_fifth_attempt(attempts):
    decision = tasks.BackoffOnBackendError().get_retry_decision(
        exception=BackendError("llm down"), job=job_with(attempts)
    )
    assert decision is None
    assert tasks.MAX_ATTEMPTS == 4


@pytest.mark.parametrize(
    "exception",
    [
        IngestFailed("language_drift"),
        ValueError("bad value"),
        LookupError("gone"),
        RuntimeError("bug"),
        KeyboardInterrupt(),
    ],
    ids=type,
)
@pytest.mark.parametrize("attempts", [0, 2])
def test_deterministic_failures_are_never_retried(exception, attempts):
    decision = tasks.BackoffOnBackendError().get_retry_decision(
        exception=exception, job=job_with(attempts)
    )
    assert decision is None


def test_the_ingest_task_uses_the_strategy():
    assert isinstance(tasks.run_ingest.retry_strategy, tasks.BackoffOnBackendError)
    assert tasks.run_ingest.queue == "ingest"
    # A CleanupError is a BackendError: a half-cleaned extraction is worth another attempt.
    assert tasks.BackoffOnBackendError().get_retry_decision(
        exception=CleanupError("residue"), job=job_with(0)
    )


# --- durability: real worker processes ---------------------------------------------------------
def worker_env() -> dict[str, str]:
    """The test database and data dir, nothing else inherited that could point elsewhere."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"XDG_RUNTIME_DIR", "DATABASE_URL", "PROMETHEUS_MULTIPROC_DIR"}
        and not key.startswith(("POCO_LLM_", "POCO_EMBEDDING_", "PROCRASTINATE_"))
    }
    env["DATABASE_URL"] = connection_string_for(connection.settings_dict["NAME"])
    env["POCO_DATA_DIR"] = str(settings.DATA_DIR)
    return env


@contextlib.contextmanager
def worker(log: Path, *args: str, env: dict[str, str] | None = None) -> Iterator[subprocess.Popen]:
    """``manage.py procrastinate worker`` as its own process; never left running."""
    command = [sys.executable, "manage.py", "procrastinate", "worker", *args]
    with log.open("ab") as out:
        process = subprocess.Popen(
            command,
            cwd=settings.BASE_DIR,
            env={**worker_env(), **(env or {})},
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        yield process
    finally:
        if process.poll() is None:  # the test failed half-way: stop the one we started
            process.kill()
            process.wait()


def finish(process: subprocess.Popen, log: Path, timeout: float = 60) -> None:
    try:
        code = process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        pytest.fail(f"worker did not finish in {timeout}s:\n{log.read_text()[-3000:]}")
    assert code == 0, log.read_text()[-3000:]


def one_shot_worker(log: Path) -> None:
    with worker(log, "--one-shot", "-q", "ingest") as process:
        finish(process, log)


def queue_jobs(job_id: str) -> list[ProcrastinateJob]:
    return list(ProcrastinateJob.objects.filter(args__job_id=job_id).order_by("id"))


def stored_for(scope, run_id: str) -> list[MemoryRow]:
    return list(MemoryRow.objects.filter(payload__user_id=scope.key, payload__origin_run_id=run_id))


def accept(v1, scope, run_id: str) -> str:
    answer = v1.post("ingest", body(scope, run_id=run_id, source="task_completed", messages=TASK))
    assert answer.status_code == 202, answer.content
    return answer.json()["job_id"]


def test_accepted_job_is_stored_exactly_once_by_another_process(v1_live, scope, tmp_path):
    job_id = accept(v1_live, scope, "run-durable")
    assert IngestJob.objects.get(id=job_id).status == IngestJob.Status.QUEUED
    assert [j.status for j in queue_jobs(job_id)] == ["todo"]

    one_shot_worker(tmp_path / "worker-1.log")
    job = IngestJob.objects.get(id=job_id)
    assert job.status == IngestJob.Status.SUCCEEDED, job.reason
    stored = stored_for(scope, "run-durable")
    assert job.inserted_count == len(stored) >= 1
    assert sorted(job.memory_ids) == sorted(str(r.id) for r in stored)
    assert [j.status for j in queue_jobs(job_id)] == ["succeeded"]

    # A second worker process, and even a re-delivered job for the same candidate: no double
    # store, the decided job stays decided.
    tasks.run_ingest.defer(job_id=job_id)
    one_shot_worker(tmp_path / "worker-2.log")
    assert [j.status for j in queue_jobs(job_id)] == ["succeeded", "succeeded"]
    again = IngestJob.objects.get(id=job_id)
    assert again.status == IngestJob.Status.SUCCEEDED
    assert again.attempts == job.attempts and again.memory_ids == job.memory_ids
    assert sorted(str(r.id) for r in stored_for(scope, "run-durable")) == sorted(job.memory_ids)
    assert AuditEvent.objects.filter(source="ingest", event="ADD").count() == len(stored)


def test_a_stopped_worker_loses_nothing(v1_live, scope, tmp_path):
    job_id = accept(v1_live, scope, "run-restart")
    log = tmp_path / "stopped.log"
    # A worker of this deployment that is stopped before it picks anything up.
    with worker(log, "-q", "ingest-elsewhere") as process:

        def started() -> bool:
            assert process.poll() is None, log.read_text()[-3000:]
            return "Starting worker" in log.read_text()

        eventually(started, what="the worker started", timeout=30, interval=0.1)
        process.send_signal(signal.SIGTERM)
        finish(process, log, timeout=30)
    assert "Stop" in log.read_text()  # a clean shutdown, not a crash
    assert IngestJob.objects.get(id=job_id).status == IngestJob.Status.QUEUED
    assert [j.status for j in queue_jobs(job_id)] == ["todo"]

    one_shot_worker(tmp_path / "restarted.log")
    job = IngestJob.objects.get(id=job_id)
    assert job.status == IngestJob.Status.SUCCEEDED and job.attempts == 1
    assert len(stored_for(scope, "run-restart")) == job.inserted_count >= 1


# --- one writer per run, under concurrency -----------------------------------------------------
def _caller() -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {TOKEN}")
    return client


def _post(start: threading.Barrier, op: str, payload: dict):
    try:
        client = _caller()
        start.wait(timeout=10)
        return client.post(f"/v1/memories/{op}", payload, format="json")
    finally:
        connections.close_all()  # this thread's own database connection


@pytest.mark.parametrize("action", ["none", "add"])
def test_manage_racing_ingest_always_wins(v1_live, scope, action):
    submissions = []
    runs = [f"race-{action}-{i}" for i in range(5)]
    with ThreadPoolExecutor(max_workers=2) as pool:
        for index, run_id in enumerate(runs):
            start = threading.Barrier(2)
            manage = {"action": action, "run_id": run_id}
            if action == "add":
                manage["text"] = f"用户偏好第 {index} 号方案使用简体中文。"
            calls = [
                pool.submit(_post, start, "manage", body(scope, **manage)),
                pool.submit(
                    _post,
                    start,
                    "ingest",
                    body(scope, run_id=run_id, source="task_completed", messages=TASK),
                ),
            ]
            if index % 2:
                calls.reverse()  # vary which request is handed to a thread first
            answers = {r.request["PATH_INFO"]: r for r in (c.result() for c in calls)}
            assert answers["/v1/memories/manage"].json()["success"] is True
            submissions.append((run_id, answers["/v1/memories/ingest"].json()))

    run_queue()
    for run_id, submission in submissions:
        assert RunLedger.objects.filter(run_id=run_id, explicit_action=action).exists()
        if submission["accepted"]:
            job = IngestJob.objects.get(id=submission["job_id"])
            assert (job.status, job.reason) == ("skipped", "skipped_explicit_writer"), run_id
        else:
            assert submission["status"] == "skipped", submission
            assert submission["reason"] == "skipped_explicit_writer", submission
        assert stored_for(scope, run_id) == [], run_id
    assert not AuditEvent.objects.filter(source="ingest").exists()
    expected = len(runs) if action == "add" else 0
    assert MemoryRow.objects.filter(payload__source="manage").count() == expected
