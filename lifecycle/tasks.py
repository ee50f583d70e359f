"""Queue tasks (procrastinate, jobs stored in PostgreSQL; workers run anywhere).

procrastinate imports this module before the ``memories`` app is ready (which sets up Mem0's
environment), so each task imports the memory core, and what reaches it, when it runs.
"""

from __future__ import annotations

import datetime

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import DatabaseError
from procrastinate import JobContext, RetryDecision
from procrastinate.contrib.django import app
from procrastinate.jobs import Job, Status
from procrastinate.retry import BaseRetryStrategy

from lifecycle.ingest_queue import INGEST_QUEUE, RUN_INGEST
from memories.types import BackendError

# Backend errors are tried at most 4 times, 1, 2 and 4 seconds apart.
RETRY_DELAYS_SECONDS = (1, 2, 4)
MAX_ATTEMPTS = len(RETRY_DELAYS_SECONDS) + 1


class BackoffOnBackendError(BaseRetryStrategy):
    """Retry only backend failures; rejected/no_effect/skipped finish without raising."""

    def get_retry_decision(self, *, exception: BaseException, job: Job) -> RetryDecision | None:
        if not isinstance(exception, BackendError):
            return None
        if job.attempts >= len(RETRY_DELAYS_SECONDS):
            return None
        delay = RETRY_DELAYS_SECONDS[job.attempts]
        return RetryDecision(retry_at=_now() + datetime.timedelta(seconds=delay))


def _now() -> datetime.datetime:
    return datetime.datetime.now(datetime.UTC)


@app.task(
    name=RUN_INGEST,
    queue=INGEST_QUEUE,
    retry=BackoffOnBackendError(),
    pass_context=True,
)
def run_ingest(context: JobContext, job_id: str) -> str:
    from lifecycle.ingest import ingest_run

    assert context.job is not None
    attempt = context.job.attempts + 1
    try:
        job = ingest_run(job_id=job_id, attempt=attempt, final_attempt=attempt >= MAX_ATTEMPTS)
    except DatabaseError as exc:
        # Django's own queries (the job row, marks, audit) failing is an outage like any
        # other backend failure: retried 1/2/4 s apart, never failed after one attempt.
        raise BackendError(f"database unavailable: {type(exc).__name__}") from exc
    return str(job.status)


@app.periodic(cron="* * * * * */15", periodic_id="ingest-upkeep")  # every 15 s
@app.task(
    name="lifecycle.ingest_upkeep",
    queue=INGEST_QUEUE,
    queueing_lock="lifecycle.ingest_upkeep",
    pass_context=True,
)
async def ingest_upkeep(context: JobContext, timestamp: int) -> str:
    """Hand the jobs of dead workers to live ones (procrastinate's stalled-job support: worker
    heartbeats), then make every job row agree with its queue job and prune old marks."""
    from lifecycle.upkeep import reconcile_ingest_jobs

    manager = context.app.job_manager
    stalled_jobs = list(
        await manager.get_stalled_jobs(
            task_name=run_ingest.name,
            seconds_since_heartbeat=settings.INGEST_STALLED_AFTER_SECONDS,
        )
    )
    for stalled in stalled_jobs:
        if stalled.attempts + 1 >= MAX_ATTEMPTS:
            # A job that keeps killing its worker stops after MAX_ATTEMPTS like any failure.
            await manager.finish_job(stalled, status=Status.FAILED, delete_job=False)
        else:
            await manager.retry_job(stalled)  # attempts + 1, due now
    reconciled = await sync_to_async(reconcile_ingest_jobs)()
    return f"stalled {len(stalled_jobs)}, reconciled {reconciled}"


@app.periodic(cron="*/10 * * * *", periodic_id="memory-expiry")  # every 10 minutes
@app.task(
    name="lifecycle.expire_memories",
    queue=INGEST_QUEUE,
    queueing_lock="lifecycle.expire_memories",
)
def expire_memories(timestamp: int) -> str:
    """Mark memories past their ``valid_until`` expired (time-sensitive facts need
    a valid_until or a periodic check). Recall already ignores them; the mark is what lists,
    admin and exports show."""
    from memories.services import memories_expire

    try:
        return f"expired {memories_expire()}"
    except DatabaseError as exc:
        raise BackendError(f"database unavailable: {type(exc).__name__}") from exc


@app.periodic(cron="* * * * *", periodic_id="second-vectors")  # every minute
@app.task(
    name="lifecycle.fill_second_vectors",
    queue=INGEST_QUEUE,
    queueing_lock="lifecycle.fill_second_vectors",
)
def fill_second_vectors(timestamp: int = 0) -> str:
    """Embed the memories an import (or a write while the second model failed) left without a
    second vector (``memories.ops.second_vectors``)."""
    from memories.ops.second_vectors import second_backfill

    # ~30 ms a memory with the bundled e5 on one core: an import's rest waits for the next run.
    limit = settings.SECOND_MODEL_BACKFILL_PER_MINUTE
    if limit <= 0:
        return "off (POCO_SECOND_MODEL_BACKFILL_PER_MINUTE=0)"
    try:
        report = second_backfill(limit=limit)
    except DatabaseError as exc:
        raise BackendError(f"database unavailable: {type(exc).__name__}") from exc
    except ValueError as exc:  # a column of another width: the operator's --rebuild decides
        return str(exc)
    return f"embedded {report.embedded} of {report.total} ({report.model})"
