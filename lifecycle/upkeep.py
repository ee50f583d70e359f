"""Periodic upkeep of the ingest pipeline (run by ``lifecycle.tasks.ingest_upkeep``).

A job row must always agree with its queue job: when a worker could not record a state (the
database was down, the process was killed), the queue's state wins and the row follows it.
"""

from __future__ import annotations

import datetime
import logging

from django.db.models import Min
from django.utils import timezone
from procrastinate.contrib.django.models import ProcrastinateJob

from lifecycle import metrics
from lifecycle.models import IngestJob
from memories.services import deletion_marks_prune

logger = logging.getLogger(__name__)

# Marks are kept at least this long, so a job still being accepted (its transaction not yet
# committed, hence invisible to the "oldest pending job" query) is never left without one.
MARK_MIN_AGE = datetime.timedelta(hours=1)
QUEUE_ENDED = {"failed", "cancelled", "aborted"}


def reconcile_ingest_jobs() -> int:
    """Make undecided job rows agree with their queue jobs; prune marks nobody can need.
    Returns how many rows changed."""
    pending = list(IngestJob.objects.exclude(status__in=IngestJob.FINAL).defer("messages"))
    latest: dict[str, ProcrastinateJob] = {}
    queue_jobs = ProcrastinateJob.objects.filter(
        args__job_id__in=[str(j.id) for j in pending]
    ).order_by("id")
    for queued in queue_jobs:
        latest[str(queued.args["job_id"])] = queued  # the newest wins
    changed = 0
    for job in pending:
        newest = latest.get(str(job.id))
        state = newest.status if newest else "missing"
        if state in QUEUE_ENDED or state == "missing":
            # The queue will not run it again: the row is decided, and loses its text. Its own
            # reason stays if the worker recorded one; else the worker could not write (the
            # database was away, the process died) and the queue's verdict is all we know.
            attempts = max(job.attempts, newest.attempts if newest else 0)  # ended attempts
            reason = job.reason or f"queue_{state} after {attempts} attempts"
            job.attempts = attempts
            _decide(job, IngestJob.Status.FAILED, reason=reason)
            metrics.ingest_failed.inc()
        elif state == "todo" and job.status == IngestJob.Status.RUNNING:
            job.status = IngestJob.Status.RETRYING
            job.reason = job.reason or "attempt_interrupted"  # worker died or database away
            job.save(update_fields=["status", "reason", "updated_at"])
        else:
            continue
        changed += 1
        logger.info("ingest job %s reconciled with queue state %s", job.id, state)
    oldest = IngestJob.objects.exclude(status__in=IngestJob.FINAL).aggregate(
        oldest=Min("created_at")
    )["oldest"]
    cutoff = timezone.now() - MARK_MIN_AGE
    deletion_marks_prune(before=min(cutoff, oldest) if oldest else cutoff)
    return changed


def _decide(job: IngestJob, status: str, *, reason: str) -> None:
    job.status, job.reason, job.messages = status, reason[:200], []
    job.save(update_fields=["status", "reason", "messages", "attempts", "updated_at"])
    metrics.ingest_outcomes.labels(status).inc()
