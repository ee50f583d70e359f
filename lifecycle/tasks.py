"""Queue tasks (procrastinate, jobs stored in PostgreSQL; workers run anywhere)."""

from __future__ import annotations

import datetime

from procrastinate import JobContext, RetryDecision
from procrastinate.contrib.django import app
from procrastinate.jobs import Job
from procrastinate.retry import BaseRetryStrategy

from memories.types import BackendError

# seed 000 §4.1: backend errors are tried at most 4 times, 1, 2 and 4 seconds apart.
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
    name="lifecycle.run_ingest", queue="ingest", retry=BackoffOnBackendError(), pass_context=True
)
def run_ingest(context: JobContext, job_id: str) -> str:
    from lifecycle.ingest import ingest_run

    assert context.job is not None
    attempt = context.job.attempts + 1
    job = ingest_run(job_id=job_id, attempt=attempt, final_attempt=attempt >= MAX_ATTEMPTS)
    return str(job.status)
