"""Reads of the pipeline's tables."""

from __future__ import annotations

from lifecycle.models import IngestJob
from memories.selectors import MemoryForbidden, MemoryNotFound
from memories.types import MemoryScope


def ingest_job_get(*, scope: MemoryScope, job_id: str) -> IngestJob:
    """The job if it belongs to ``scope``; ``MemoryNotFound`` / ``MemoryForbidden`` otherwise."""
    job = IngestJob.objects.filter(id=job_id).defer("messages").first()
    if job is None:
        raise MemoryNotFound(job_id)
    if (job.tenant_id, job.user_id) != (scope.tenant_id, scope.user_id):
        raise MemoryForbidden(job_id)
    return job
