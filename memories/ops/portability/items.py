"""What one exported memory asks of an import: the add it becomes, or why it is not written
(history, expired), and what it brings back beside the text (source, pin, times)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from django.db import DatabaseError
from django.utils import timezone

from memories.governance import UNSET
from memories.instants import read_instant
from memories.recall import live
from memories.selectors import pinned_count
from memories.services import MAX_PINS, NewMemory
from memories.types import Category, MemoryScope, Source, WriteStatus

EARLIEST_CREATED = datetime(1970, 1, 1, tzinfo=UTC)


@dataclass(frozen=True)
class ImportItemResult:
    """One item's own outcome, as the explicit add answers it: ``status`` is what happened to
    this item (``added`` | ``no_effect`` | ``rejected`` | ``backend_error`` |
    ``not_attempted``); an item that took over a key names the memory it replaced in
    ``superseded_id`` — the item itself is the new current value, never "superseded"."""

    index: int
    status: str
    memory_id: str | None = None
    reason: str | None = None
    superseded_id: str | None = None


SCOPE_DELETED = "scope_deleted"


@dataclass(frozen=True)
class ImportReport:
    items: tuple[ImportItemResult, ...] = field(default_factory=tuple)
    backend_error: str | None = None
    # What the memories it wrote carry as ``import_id`` (the list filters by it).
    import_id: str = ""
    # A delete-user of the scope ran during the import: it stopped, and what it wrote is gone.
    scope_deleted: bool = False

    def count(self, status: str) -> int:
        return sum(1 for item in self.items if item.status == status)

    @property
    def superseded(self) -> int:
        """How many memories the written items superseded (each of those items is ``added``)."""
        return sum(1 for item in self.items if item.superseded_id)

    @property
    def success(self) -> bool:
        return self.backend_error is None and not self.scope_deleted

    @property
    def status(self) -> str:
        if self.scope_deleted:
            return SCOPE_DELETED
        return "done" if self.success else WriteStatus.BACKEND_ERROR.value

    @property
    def reason(self) -> str | None:
        if self.scope_deleted:
            return "the scope was deleted during the import; the rest was not imported"
        return self.backend_error


@dataclass(frozen=True)
class ImportRun:
    """One import: its id (the list filters by it), its time, and which items may keep their
    pin (at most ``MAX_PINS`` pinned memories per scope, in document order)."""

    import_id: str
    now: datetime
    pins: frozenset[int] = frozenset()


def new_import(scope: MemoryScope, items: list[dict[str, Any]]) -> ImportRun:
    now = timezone.now()
    try:
        room = max(0, MAX_PINS - pinned_count(scope=scope))
    except DatabaseError:  # the import itself reports the outage; no pin is promised
        room = 0
    wanted = [i for i, item in enumerate(items) if item.get("pinned")]
    return ImportRun(
        import_id=f"import-{now:%Y%m%d%H%M%S}-{uuid.uuid4().hex[:6]}",
        now=now,
        pins=frozenset(wanted[:room]),
    )


def _restored(
    *, index: int, item: dict[str, Any], run: ImportRun | None, created_at: datetime | None
) -> dict[str, Any]:
    """What an exported memory brings back beyond what an add stores: its source, the time of
    its last change, its pin — and the marks of this import."""
    if run is None:
        return {}
    restored: dict[str, Any] = {"imported_at": run.now.isoformat(), "import_id": run.import_id}
    if item.get("source"):
        restored["source"] = Source(item["source"]).value
    updated_at = read_instant(item.get("updated_at"))
    if created_at is not None and updated_at is not None and created_at <= updated_at <= run.now:
        restored["updated_at"] = updated_at.isoformat()
    if index in run.pins:
        pinned_at = read_instant(item.get("pinned_at"))
        restored["pinned"] = True
        restored["pinned_at"] = (pinned_at or run.now).isoformat()
    return restored


def import_item(
    *, index: int, item: dict[str, Any], now: datetime, run: ImportRun | None = None
) -> ImportItemResult | tuple[NewMemory, str | None]:
    """What one exported memory asks of ``memory_add_many`` (with the note its answer carries),
    or its result when it is not to be written at all."""
    status = live.stored_status(item)
    if status != live.ACTIVE:
        # History is not replayed: a superseded or expired value must not come back as current.
        return ImportItemResult(index=index, status="no_effect", reason=f"not_active:{status}")
    if live.is_due(item, now=now):
        return ImportItemResult(index=index, status="no_effect", reason="expired")
    valid_until = read_instant(item.get("valid_until"))
    created_at = read_instant(item.get("created_at"))
    note = None
    if created_at is not None and not EARLIEST_CREATED <= created_at <= now + timedelta(days=1):
        # A memory from the future or from before the service's era is a broken clock, not a
        # fact about the memory: it is stored as imported now, and the answer says so.
        created_at, note = None, "created_at_ignored"
    if item.get("pinned") and run is not None and index not in run.pins:
        note = note or "pin_not_restored"
    new = NewMemory(
        text=item["content"],
        category=item.get("category") or Category.FACT,
        confidence=item.get("confidence"),
        memory_key=item.get("memory_key") or "",
        # Exported null means "never expires"; a document without the field takes the default.
        valid_until=valid_until if "valid_until" in item else UNSET,
        source_ref=item.get("source_ref") or "",
        created_at=created_at,
        restored=_restored(index=index, item=item, run=run, created_at=created_at),
    )
    return new, note
