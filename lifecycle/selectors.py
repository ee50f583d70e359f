"""Reads of the pipeline's tables, and of what deletions an in-flight ingest job must obey."""

from __future__ import annotations

from lifecycle.models import IngestJob
from memories.selectors import scope_rows
from memories.types import MemoryForbidden, MemoryNotFound, MemoryScope


def ingest_job_get(*, scope: MemoryScope, job_id: str) -> IngestJob:
    """The job if it belongs to ``scope``; ``MemoryNotFound`` for an unknown id or another
    tenant's (never confirmed, as a memory id is not), ``MemoryForbidden`` for another user's of
    the same tenant."""
    job = IngestJob.objects.filter(id=job_id).defer("messages").first()
    if job is None or job.tenant_id != scope.tenant_id:
        raise MemoryNotFound(job_id)
    if job.user_id != scope.user_id:
        raise MemoryForbidden(job_id)
    return job


def ingest_job_owner(*, tenant_id: str, job_id: str) -> str | None:
    """The user of ``tenant_id`` whose ingest job ``job_id`` is; None for another tenant's or an
    unknown id (``/mem0``'s event reads name no user)."""
    owner = IngestJob.objects.filter(id=job_id, tenant_id=tenant_id).values_list(
        "user_id", flat=True
    )
    return owner.first()


def ingest_leftover_ids(*, scope: MemoryScope, job_id: str) -> list[str]:
    """Rows a previous attempt of the job stored but never adopted (its worker died)."""
    rows = scope_rows(scope).filter(payload__ingest_job_id=job_id)
    return [str(i) for i in rows.values_list("id", flat=True)]


def memory_ids_present(*, scope: MemoryScope, memory_ids: list[str]) -> set[str]:
    """Which of ``memory_ids`` still exist in the scope."""
    rows = scope_rows(scope).filter(id__in=memory_ids)
    return {str(i) for i in rows.values_list("id", flat=True)}
