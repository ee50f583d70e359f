"""What the user has deleted since an instant: delete-user's and delete-item's marks
(``DeletionMark``), read by ingest so a job accepted before a deletion stores nothing of it."""

from __future__ import annotations

from datetime import datetime

from django.db.models import QuerySet

from memories.models import DeletionMark
from memories.types import MemoryScope


def _marks_since(*, scope: MemoryScope, since: datetime) -> QuerySet[DeletionMark]:
    # ``>=``: a mark in the same instant as the acceptance wins (forgetting is final).
    return DeletionMark.objects.filter(
        tenant_id=scope.tenant_id, user_id=scope.user_id, created_at__gte=since
    )


def scope_deleted_since(*, scope: MemoryScope, since: datetime) -> bool:
    """Whether delete-user ran for the scope at or after ``since``."""
    return _marks_since(scope=scope, since=since).filter(memory_id__isnull=True).exists()


def deleted_fact_digests_since(*, scope: MemoryScope, since: datetime) -> frozenset[str]:
    """Digests (``fact_digest``) of the facts delete-item removed since ``since``."""
    return frozenset(
        _marks_since(scope=scope, since=since)
        .exclude(fact_digest="")
        .values_list("fact_digest", flat=True)
    )


def fact_digest(text: str) -> str:
    """The digest a deleted fact is remembered by (never its text)."""
    return DeletionMark.digest_of(text)
