"""The periodic upkeep: job rows follow their queue jobs; deletion marks live only as long as a
job that could need them (lifecycle.upkeep, run by lifecycle.tasks.ingest_upkeep)."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.utils import timezone

from lifecycle import tasks
from lifecycle.models import IngestJob
from lifecycle.upkeep import MARK_MIN_AGE, reconcile_ingest_jobs
from memories.models import DeletionMark
from tests.lifecycle.test_retry_and_durability import accept, queue_jobs

pytestmark = pytest.mark.django_db


def queue_state(job_id: str, status: str, attempts: int) -> None:
    """What a worker that could not reach our row left in the queue."""
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE procrastinate_jobs SET status = %s, attempts = %s WHERE args->>'job_id' = %s",
            [status, attempts, job_id],
        )


def test_a_row_left_running_follows_a_failed_queue_job(v1, scope):
    job_id = accept(v1, scope, "run-u1")
    IngestJob.objects.filter(id=job_id).update(status=IngestJob.Status.RUNNING, attempts=4)
    queue_state(job_id, "failed", 4)
    assert reconcile_ingest_jobs() == 1
    job = IngestJob.objects.get(id=job_id)
    assert (job.status, job.reason, job.attempts) == ("failed", "queue_failed after 4 attempts", 4)
    assert job.messages == []
    assert reconcile_ingest_jobs() == 0  # decided rows are left alone


def test_a_recorded_reason_is_kept(v1, scope):
    job_id = accept(v1, scope, "run-u2")
    IngestJob.objects.filter(id=job_id).update(
        status=IngestJob.Status.RETRYING, reason="backend_error: extract failed", attempts=4
    )
    queue_state(job_id, "failed", 4)
    reconcile_ingest_jobs()
    job = IngestJob.objects.get(id=job_id)
    assert (job.status, job.reason) == ("failed", "backend_error: extract failed")


def test_a_running_row_whose_queue_job_waits_again_is_retrying(v1, scope):
    job_id = accept(v1, scope, "run-u3")
    IngestJob.objects.filter(id=job_id).update(status=IngestJob.Status.RUNNING, attempts=1)
    queue_state(job_id, "todo", 1)
    reconcile_ingest_jobs()
    job = IngestJob.objects.get(id=job_id)
    assert job.status == IngestJob.Status.RETRYING and job.messages  # still to be done
    assert [j.status for j in queue_jobs(job_id)] == ["todo"]


def test_rows_that_agree_with_the_queue_are_untouched(v1, scope):
    job_id = accept(v1, scope, "run-u4")
    assert reconcile_ingest_jobs() == 0
    assert IngestJob.objects.get(id=job_id).status == IngestJob.Status.QUEUED


def test_marks_are_pruned_only_when_no_older_job_is_pending(v1, scope):
    old = timezone.now() - MARK_MIN_AGE - datetime.timedelta(minutes=5)
    mark = DeletionMark.objects.create(tenant_id=scope.tenant_id, user_id=scope.user_id)
    DeletionMark.objects.filter(id=mark.id).update(created_at=old)
    job_id = accept(v1, scope, "run-u5")
    IngestJob.objects.filter(id=job_id).update(created_at=old - datetime.timedelta(minutes=1))
    reconcile_ingest_jobs()
    assert DeletionMark.objects.filter(id=mark.id).exists()  # that job may still need it

    IngestJob.objects.filter(id=job_id).update(status=IngestJob.Status.SKIPPED)
    fresh = DeletionMark.objects.create(tenant_id=scope.tenant_id, user_id=scope.user_id)
    reconcile_ingest_jobs()
    assert not DeletionMark.objects.filter(id=mark.id).exists()
    assert DeletionMark.objects.filter(id=fresh.id).exists()  # too young to prune


def test_the_upkeep_runs_on_the_ingest_queue_every_15_seconds():
    from procrastinate.contrib.django import app

    [periodic] = [
        p for p in app.periodic_registry.periodic_tasks.values() if p.task is tasks.ingest_upkeep
    ]
    assert periodic.cron == "* * * * * */15"
    assert tasks.ingest_upkeep.queue == tasks.run_ingest.queue == "ingest"
