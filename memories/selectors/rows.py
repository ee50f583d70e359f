"""A scope's rows and how a row becomes a record: what every other selector builds on.

The scope and liveness rules come from ``memories.recall.live``."""

from __future__ import annotations

from datetime import datetime

from django.db import connection
from django.db.models import QuerySet
from django.utils import timezone

from memories import governance
from memories.instants import read_instant
from memories.models import EntityRow, MemoryRow
from memories.recall import live
from memories.types import MemoryForbidden, MemoryNotFound, MemoryRecord, MemoryScope, StatusFilter

# The tables the hand-written statements read, named by their models.
MEMORY_TABLE = connection.ops.quote_name(MemoryRow._meta.db_table)
ENTITY_TABLE = connection.ops.quote_name(EntityRow._meta.db_table)


def to_record(row: MemoryRow) -> MemoryRecord:
    """A row as readers show it. Its status — the record's and the ``status`` of its metadata,
    which the lists, ``/v1``, MCP and the export carry — is the effective one
    (``governance.payload_status``): past its ``valid_until`` a memory says ``expired`` before
    the periodic sweep has stored that."""
    payload = row.payload or {}
    hidden = {"data", "hash", "text_lemmatized", "user_id", "created_at", "updated_at"}
    status = governance.payload_status(payload)
    metadata = {k: v for k, v in payload.items() if k not in hidden}
    metadata["status"] = status.value
    return MemoryRecord(
        id=str(row.id),
        content=row.content,
        scope_key=row.scope_key,
        category=row.category,
        source=row.source,
        created_at=read_instant(payload.get("created_at")),
        updated_at=read_instant(payload.get("updated_at")),
        metadata=metadata,
        memory_key=str(payload.get("memory_key") or ""),
        status=status,
        valid_until=read_instant(payload.get("valid_until")),
        superseded_by=str(payload.get("superseded_by") or ""),
    )


def scope_rows(scope: MemoryScope) -> QuerySet[MemoryRow]:
    """Every memory of the scope, whatever its status (``memories.recall.live``)."""
    return MemoryRow.objects.filter(live.scope_q(scope.key))


def rows_with_status(
    rows: QuerySet[MemoryRow], status: str, *, now: datetime
) -> QuerySet[MemoryRow]:
    """Rows in ``status`` (a ``StatusFilter``) as readers see it at ``now``: a row past its
    ``valid_until`` is expired even before the periodic sweep marks it; rows written before
    governance (no status, no valid_until) are active (``memories.recall.live``)."""
    return rows.filter(live.status_q(status, now))


def live_rows(scope: MemoryScope) -> QuerySet[MemoryRow]:
    """The scope's memories that may be recalled, related, injected or deduplicated against."""
    return rows_with_status(scope_rows(scope), StatusFilter.ACTIVE, now=timezone.now())


def row_tenant(row: MemoryRow) -> str:
    """The tenant a memory belongs to: the part of its scope key (``tenant:user``) before the
    colon, which neither part may hold (``memories.recall.live``)."""
    return row.scope_key.partition(":")[0]


def memory_owned_row(*, scope: MemoryScope, memory_id: str) -> MemoryRow:
    """The row if it belongs to ``scope``; the one place every door's by-id call learns whose
    an id is. Another user's id in the scope's tenant is ``MemoryForbidden`` (403: the tenant's
    own agents may hold its ids, and "not yours" is what they need to hear). An id of another
    tenant is ``MemoryNotFound``, exactly as an id no memory has: a caller acting for one
    tenant never learns that an id exists in another (docs/mem0-compat.md)."""
    row = MemoryRow.objects.filter(id=memory_id).defer("vector").first()
    if row is None or row_tenant(row) != scope.tenant_id:
        raise MemoryNotFound(memory_id)
    if not live.in_scope(row.payload, scope.key):
        raise MemoryForbidden(memory_id)
    return row
