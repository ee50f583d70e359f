"""The one ingest queue: its name, the task that runs a job, and where a new job goes in it.

Both sides use it: ``lifecycle.ingest`` defers the task by its name, ``lifecycle.tasks`` defines
it; neither needs the other's module for that. It imports no part of the memory core, as
``lifecycle.tasks`` (which procrastinate discovers before the ``memories`` app is ready) reads
it when the process starts.
"""

from __future__ import annotations

from typing import Any

from procrastinate.contrib.django import app
from procrastinate.contrib.django.models import ProcrastinateJob

from memories.types import MemoryScope

INGEST_QUEUE = "ingest"
RUN_INGEST = "lifecycle.run_ingest"
INGEST_LOCK = "ingest:"


def defer_ingest(*, scope: MemoryScope, job_id: str) -> None:
    """Queue ``RUN_INGEST`` for the job, placed fairly (``queue_fairly``). In the caller's
    transaction: the queue job exists exactly when the job row does."""
    app.configure_task(RUN_INGEST, allow_unknown=False, **queue_fairly(scope)).defer(job_id=job_id)


def queue_fairly(scope: MemoryScope) -> dict[str, Any]:
    """Where a new job of ``scope`` goes in the one ingest queue.

    * ``lock``: one job of a scope runs at a time (they would wait on the scope's write lock
      anyway), so a second worker slot never sits waiting behind it;
    * ``priority``: minus the tenant's jobs already waiting or running. The worker takes the
      highest priority first, oldest first within one, so a tenant's n-th outstanding job waits
      behind every other tenant's earlier ones: a tenant with a backlog of big ingests holds
      another tenant's one-line ingest for at most the one job it is running (round robin).
    """
    outstanding = ProcrastinateJob.objects.filter(
        queue_name=INGEST_QUEUE,
        status__in=("todo", "doing"),
        lock__startswith=f"{INGEST_LOCK}{scope.tenant_id}:",
    ).count()
    return {"lock": f"{INGEST_LOCK}{scope.key}", "priority": -outstanding}
