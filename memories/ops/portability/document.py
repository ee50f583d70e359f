"""The export document: one scope's memories as the versioned JSON every door exports and
imports (``EXPORT_FORMAT`` / ``EXPORT_VERSION``). Every time in it is ISO 8601 in UTC."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

from django.utils import timezone

from memories.export_document import EXPORT_FORMAT, EXPORT_VERSION
from memories.instants import read_instant
from memories.models import CHANGE_EVENTS, AuditEvent, MemoryRow
from memories.selectors import NEVER_USED, MemoryUseStats, memory_uses, scope_rows, to_record
from memories.types import MemoryRecord, MemoryScope

EXPORT_BATCH = 500


def _iso(value: datetime | str | None) -> str | None:
    """A time as the document writes every time: ISO 8601 in UTC (a stored time may carry the
    offset of the zone it was written in, or none: ``memories.instants.read_instant``)."""
    moment = read_instant(value)
    if moment is None:
        return value if isinstance(value, str) and value else None
    return moment.astimezone(UTC).isoformat()


IMPORTED = "imported"  # the key of an import's mark in a trail row's ``changes``
IMPORT_STATUS = "imported"  # the status of the trail row an import writes for itself


def history_item(event: AuditEvent) -> dict[str, Any]:
    """One row of a memory's change trail as exported: what the detail page shows of it (the
    event, the texts, the status, the door and run, the time), never who by id."""
    changes = {k: v for k, v in (event.changes or {}).items() if k != IMPORTED}
    return {
        "event": event.event,
        "old_text": event.old_text,
        "new_text": event.new_text,
        "status": event.status,
        "source": event.source,
        "run_id": event.run_id,
        "actor_kind": event.actor_kind,
        "changes": changes,
        "at": _iso(event.created_at),
        "imported": IMPORTED in (event.changes or {}),
    }


def _usage_item(stats: MemoryUseStats) -> dict[str, Any]:
    return {
        "recalled_count": stats.recalled_count,
        "last_recalled_at": _iso(stats.last_recalled_at),
        "injected_count": stats.injected_count,
        "last_injected_at": _iso(stats.last_injected_at),
    }


def export_item(
    record: MemoryRecord,
    history: list[AuditEvent] | None = None,
    usage: MemoryUseStats = NEVER_USED,
) -> dict[str, Any]:
    """One memory as exported: governance fields read with ``.get()`` (older rows lack them),
    its trail oldest first and how often agents used it."""
    meta = record.metadata
    return {
        "id": record.id,
        "content": record.content,
        "category": record.category,
        "memory_key": meta.get("memory_key"),
        "status": str(record.status),  # the effective one: expired once past valid_until
        "source": record.source,
        "source_ref": meta.get("source_ref"),
        "confidence": meta.get("confidence"),
        "superseded_by": meta.get("superseded_by"),
        "valid_until": _iso(meta.get("valid_until")),
        "created_at": _iso(record.created_at),
        "updated_at": _iso(record.updated_at),
        "embedding_model": meta.get("embedding_model"),
        "schema_version": meta.get("schema_version"),
        "pinned": bool(meta.get("pinned")),
        "pinned_at": _iso(meta.get("pinned_at")),
        "history": [history_item(event) for event in history or ()],
        "usage": _usage_item(usage),
        "imported_at": _iso(meta.get("imported_at")),
        "import_id": meta.get("import_id"),
    }


def _scope_batches(scope: MemoryScope) -> Iterator[list[MemoryRecord]]:
    """Every memory of the scope in id order, in batches (no vectors loaded)."""
    rows = scope_rows(scope).defer("vector").order_by("id")
    last: Any = None
    while True:
        batch: list[MemoryRow] = list(
            (rows.filter(id__gt=last) if last is not None else rows)[:EXPORT_BATCH]
        )
        if not batch:
            return
        yield [to_record(row) for row in batch]
        last = batch[-1].id


def _trails(scope: MemoryScope, memory_ids: list[str]) -> dict[str, list[AuditEvent]]:
    """The change trail of each memory, oldest first (a staff view is no change)."""
    events = AuditEvent.objects.filter(
        tenant_id=scope.tenant_id,
        user_id=scope.user_id,
        memory_id__in=memory_ids,
        event__in=CHANGE_EVENTS,
    ).order_by("created_at", "id")
    trails: dict[str, list[AuditEvent]] = {}
    for event in events:
        trails.setdefault(str(event.memory_id), []).append(event)
    return trails


def memory_export(*, scope: MemoryScope, now: datetime | None = None) -> dict[str, Any]:
    """The scope's memories as the versioned export document, oldest first."""
    items = []
    for batch in _scope_batches(scope):
        ids = [record.id for record in batch]
        trails = _trails(scope, ids)
        uses = memory_uses(scope=scope, memory_ids=ids)
        items += [export_item(r, trails.get(r.id, []), uses.get(r.id, NEVER_USED)) for r in batch]
    items.sort(key=lambda item: (item["created_at"] or "", item["id"]))
    return {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "scope": {"tenant_id": scope.tenant_id, "user_id": scope.user_id},
        "exported_at": (now or timezone.now()).isoformat(),
        "memories": items,
    }
