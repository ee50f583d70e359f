"""Export and import of one scope's memories.

The export is a versioned JSON document (``EXPORT_FORMAT`` / ``EXPORT_VERSION``): the text and
what a memory knows about itself (category, key, status, source, timestamps, validity), never
vectors, and no id of another scope. The same document, for any scope, is what import takes.

Import writes every item through ``memories.services.memory_add_many`` (admission, the
duplicate NOOP, supersede-by-key, exactly as ``memory_add`` for each item) in chunks, each under
one hold of the scope's write lock, so an import is one request, not one round trip per memory.
Between chunks the lock is let go: a writer waiting for it (a delete-user above all) goes
first, and an import whose scope was deleted meanwhile stops there. Importing the same document
twice changes nothing: the second time every item is the identical text already stored
(``no_effect``, reason ``duplicate``).
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import unicodedata
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from typing import Any

from django.db import DatabaseError, transaction
from django.db.models import Max
from django.http import HttpResponse
from django.utils import timezone

from memories.admission import admit_text
from memories.admission.preview import removed_parts
from memories.contract.export_document import (
    EXPORT_FORMAT,
    EXPORT_VERSION,
)
from memories.engine import get_engine
from memories.governance import UNSET
from memories.locks import scope_write_lock
from memories.models import CHANGE_EVENTS, AuditEvent, DeletionMark, MemoryRow
from memories.ops.csv_columns import csv_columns
from memories.selectors import (
    NEVER_USED,
    MemoryUseStats,
    first_duplicate,
    memories_active_by_keys,
    memories_live_by_text,
    memory_nearest_many,
    memory_uses,
    pinned_count,
    scope_rows,
    to_record,
)
from memories.services import (
    MAX_PINS,
    ImportChunkReady,
    NewMemory,
    add_refusal,
    memory_add_many,
    prepare_import,
)
from memories.text import normalize_quotes
from memories.types import (
    Actor,
    ActorKind,
    BackendError,
    Category,
    MemoryRecord,
    MemoryScope,
    Source,
    WriteOutcome,
    WriteStatus,
)
from memories.usage import restore_use

EXPORT_BATCH = 500
# Items per memory_add_many call: one embedding batch and one INSERT each, small enough that
# a backend failure loses little work.
IMPORT_CHUNK = 200
EARLIEST_CREATED = datetime(1970, 1, 1, tzinfo=UTC)
# The columns of an exported memory, in this order (JSON keys and CSV header alike).
FIELDS = (
    "id",
    "content",
    "category",
    "memory_key",
    "status",
    "source",
    "source_ref",
    "confidence",
    "superseded_by",
    "valid_until",
    "created_at",
    "updated_at",
    "embedding_model",
    "schema_version",
)
# Spreadsheets run a cell that starts with one of these as a formula (CSV injection), also
# after leading blanks or list separators (Excel set to ";" reads ";=..." as a formula).
FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")
FORMULA_LEAD = " \t\r\n,;|"
# Characters that render as nothing yet are not format characters (Cf) by Unicode's data.
INVISIBLE_LEAD = frozenset("\u00ad\u180e\u2800\u115f\u1160\u3164\uffa0")


def _iso(value: datetime | str | None) -> str | None:
    """A time as the document writes every time: ISO 8601 in UTC (a stored time may carry the
    offset of the zone it was written in; an instant reads the same either way)."""
    if not value:
        return None
    if isinstance(value, str):
        try:
            moment = datetime.fromisoformat(value)
        except ValueError:
            return value
    else:
        moment = value
    if timezone.is_naive(moment):
        return moment.isoformat()
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
        "status": meta.get("status") or "active",
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


# --- files for people (the console and the user API) ------------------------------------------
@dataclass(frozen=True)
class ExportFile:
    content: bytes
    content_type: str
    filename: str


def _csv_lead(char: str) -> bool:
    """A character a spreadsheet may skip before a formula: a blank or separator, anything that
    draws nothing (soft hyphen U+00AD, Mongolian vowel separator U+180E, blank Braille U+2800,
    zero-width and format characters) and any other space."""
    return (
        char in FORMULA_LEAD
        or char in INVISIBLE_LEAD
        or char.isspace()
        or unicodedata.category(char) in ("Cf", "Zs", "Zl", "Zp", "Cc", "Mn")
    )


def _csv_cell(value: Any) -> str:
    if value is None:
        return ""
    text = str(value)
    start = 0
    while start < len(text) and _csv_lead(text[start]):
        start += 1
    # A leading quote makes Excel/LibreOffice show the text instead of evaluating it.
    runs = text.startswith(FORMULA_PREFIXES) or text[start:].startswith(FORMULA_PREFIXES[:4])
    return "'" + text if runs else text


def export_csv(document: dict[str, Any]) -> str:
    """The export for a person with a spreadsheet: the columns ``memories.ops.csv_columns``
    names in the active language, codes in words, times in the current time zone."""
    columns = csv_columns()
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([column.header for column in columns])
    for item in document["memories"]:
        writer.writerow([_csv_cell(column.value(item)) for column in columns])
    return out.getvalue()


def export_file(*, scope: MemoryScope, kind: str) -> ExportFile:
    """The user's own export as a download: ``json`` or ``csv`` (UTF-8 with a BOM, so Excel
    reads Chinese)."""
    document = memory_export(scope=scope)
    stamp = timezone.now().strftime("%Y%m%d")
    name = f"poco-memories-{scope.user_id}-{stamp}.{kind}"
    if kind == "csv":
        body = "\ufeff" + export_csv(document)
        return ExportFile(body.encode("utf-8"), "text/csv; charset=utf-8", name)
    if kind == "json":
        body = json.dumps(document, ensure_ascii=False, indent=2)
        return ExportFile(body.encode("utf-8"), "application/json; charset=utf-8", name)
    raise ValueError(f"unknown export kind {kind!r}")


def export_download(*, scope: MemoryScope, kind: str) -> HttpResponse:
    """``export_file`` as an attachment (the console and the user API answer the same)."""
    file = export_file(scope=scope, kind=kind)
    response = HttpResponse(file.content, content_type=file.content_type)
    response["Content-Disposition"] = f'attachment; filename="{file.filename}"'
    response["Cache-Control"] = "no-store"  # personal data: no shared cache may keep it
    return response


# --- import ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class ImportItemResult:
    index: int
    status: str  # added | superseded | no_effect | rejected | backend_error | not_attempted
    memory_id: str | None = None
    reason: str | None = None


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


def _parse_time(value: Any) -> datetime | None:
    if isinstance(value, datetime):
        return value
    if isinstance(value, str) and value:
        parsed = datetime.fromisoformat(value)
        return parsed if timezone.is_aware(parsed) else timezone.make_aware(parsed)
    return None


@dataclass(frozen=True)
class ImportRun:
    """One import: its id (the list filters by it), its time, and which items may keep their
    pin (at most ``MAX_PINS`` pinned memories per scope, in document order)."""

    import_id: str
    now: datetime
    pins: frozenset[int] = frozenset()


def _new_import(scope: MemoryScope, items: list[dict[str, Any]]) -> ImportRun:
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
    updated_at = _parse_time(item.get("updated_at"))
    if created_at is not None and updated_at is not None and created_at <= updated_at <= run.now:
        restored["updated_at"] = updated_at.isoformat()
    if index in run.pins:
        pinned_at = _parse_time(item.get("pinned_at"))
        restored["pinned"] = True
        restored["pinned_at"] = (pinned_at or run.now).isoformat()
    return restored


def _import_item(
    *, index: int, item: dict[str, Any], now: datetime, run: ImportRun | None = None
) -> ImportItemResult | tuple[NewMemory, str | None]:
    """What one exported memory asks of ``memory_add_many`` (with the note its answer carries),
    or its result when it is not to be written at all."""
    status = item.get("status") or "active"
    if status != "active":
        # History is not replayed: a superseded or expired value must not come back as current.
        return ImportItemResult(index=index, status="no_effect", reason=f"not_active:{status}")
    valid_until = _parse_time(item.get("valid_until"))
    if valid_until is not None and valid_until <= now:
        return ImportItemResult(index=index, status="no_effect", reason="expired")
    created_at = _parse_time(item.get("created_at"))
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


def _trail_text(text: str) -> str:
    """A past text of the trail as admission stores text (a document may be written by hand:
    a secret, a link or a log does not enter the audit trail through an import either); empty
    when admission refuses it."""
    if not text:
        return ""
    admission = admit_text(source=Source.IMPORT, text=text)
    return admission.text if admission.admitted else ""


def _restore_trails(
    scope: MemoryScope, run: ImportRun, written: list[tuple[str, dict[str, Any]]]
) -> None:
    """The exported trail and usage of each memory the import wrote (its new id, its item):
    the trail rows come back with their original times, each marked as imported; the import's
    own row says when the import was. One transaction: all of it or none."""
    mark = {IMPORTED: [run.import_id, run.now.isoformat()]}
    with_trail = [memory_id for memory_id, item in written if item.get("history")]
    rows = [
        AuditEvent(
            memory_id=memory_id,
            tenant_id=scope.tenant_id,
            user_id=scope.user_id,
            event=entry["event"],
            actor_kind=entry.get("actor_kind") or ActorKind.SYSTEM.value,
            actor_id="",
            source=entry.get("source") or "",
            run_id=entry.get("run_id") or "",
            old_text=_trail_text(entry.get("old_text") or ""),
            new_text=_trail_text(entry.get("new_text") or ""),
            status=entry.get("status") or "",
            changes={**(entry.get("changes") or {}), **mark},
            created_at=_parse_time(entry["at"]) or run.now,
        )
        for memory_id, item in written
        for entry in item.get("history") or ()
        if entry.get("status") != IMPORT_STATUS  # an earlier import's own row stays its own
    ]
    uses = {memory_id: item["usage"] for memory_id, item in written if item.get("usage")}
    ids = [memory_id for memory_id, _ in written]
    own = AuditEvent.objects.filter(
        tenant_id=scope.tenant_id,
        user_id=scope.user_id,
        memory_id__in=ids,
        event=AuditEvent.Event.ADD,
        source=Source.IMPORT,
    )
    with transaction.atomic():
        own.update(status=IMPORT_STATUS, changes=mark)
        # Beside a restored trail, the import's own row is dated now, after the trail it joins.
        own.filter(memory_id__in=with_trail).update(created_at=run.now)
        AuditEvent.objects.bulk_create(rows)
        restore_use(scope=scope, uses=uses)


def _item_result(index: int, outcome: WriteOutcome, note: str | None) -> ImportItemResult:
    if outcome.status == WriteStatus.ADDED:
        superseded = outcome.superseded_id
        status = "superseded" if superseded else "added"
        return ImportItemResult(
            index=index, status=status, memory_id=outcome.memory_id, reason=superseded or note
        )
    return ImportItemResult(
        index=index, status=outcome.status.value, memory_id=outcome.memory_id, reason=outcome.reason
    )


def _scope_marks(scope: MemoryScope) -> Any:
    return DeletionMark.objects.filter(
        tenant_id=scope.tenant_id, user_id=scope.user_id, memory_id__isnull=True
    )


def memory_import(
    *,
    scope: MemoryScope,
    items: list[dict[str, Any]],
    actor: Actor,
    on_item: Callable[[ImportItemResult], None] | None = None,
) -> ImportReport:
    """Import validated export items into ``scope`` through ``memory_add_many`` in chunks of
    ``IMPORT_CHUNK``, each under one hold of the scope's write lock (admission, duplicates and
    supersede-by-key apply as for any add, in document order).

    A backend failure stops the import: earlier chunks stay written (each is whole), the
    failed chunk wrote nothing — its first item to write is ``backend_error`` and every item
    after it ``not_attempted`` — so a re-run finishes it. A delete-user of the scope started
    meanwhile runs between two chunks and stops the import (``scope_deleted``, the rest
    ``not_attempted``): nothing of the document outlives the deletion."""
    results: list[ImportItemResult] = []
    run = _new_import(scope, items)
    now = run.now

    def report(result: ImportItemResult) -> None:
        results.append(result)
        if on_item is not None:
            on_item(result)

    def rest(start: int) -> tuple[ImportItemResult, ...]:
        return tuple(
            ImportItemResult(index=i, status="not_attempted") for i in range(start, len(items))
        )

    def chunk_at(start: int) -> _Chunk:
        chunk = items[start : start + IMPORT_CHUNK]
        parsed = [
            _import_item(index=start + offset, item=item, now=now, run=run)
            for offset, item in enumerate(chunk)
        ]
        asked = [new for new, _ in (p for p in parsed if not isinstance(p, ImportItemResult))]
        try:
            ready = prepare_import(asked)
        except BackendError:  # the write reports it, as it would without the look-ahead
            ready = None
        return _Chunk(parsed=parsed, asked=asked, ready=ready, items=chunk)

    starts = range(0, len(items), IMPORT_CHUNK)
    # The next chunk is admitted and analysed on a thread of its own while this one is written
    # (no database there): the analysis is Python and TensorFlow, the write mostly PostgreSQL.
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="import-ahead") as ahead:
        upcoming = ahead.submit(chunk_at, 0) if starts else None
        try:
            # delete-user leaves its mark before it waits for the lock (memory_delete_user).
            last_mark = _scope_marks(scope).aggregate(last=Max("id"))["last"] or 0
            for start in starts:
                assert upcoming is not None
                current = upcoming.result()
                following = start + IMPORT_CHUNK
                upcoming = ahead.submit(chunk_at, following) if following < len(items) else None
                stopped = _import_chunk(
                    scope,
                    actor,
                    run,
                    start=start,
                    chunk=current,
                    last_mark=last_mark,
                    report=report,
                )
                if stopped is not None:
                    if upcoming is not None:
                        upcoming.cancel()
                    return ImportReport(
                        items=(*results, *rest(stopped.resume)),
                        scope_deleted=stopped.scope_deleted,
                        backend_error=stopped.backend_error,
                        import_id=run.import_id,
                    )
        except (BackendError, DatabaseError) as exc:  # the lock or a mark: chunk not attempted
            reason = str(exc) if isinstance(exc, BackendError) else "database unavailable"
            return ImportReport(
                items=(*results, *rest(len(results))), backend_error=reason, import_id=run.import_id
            )
    return ImportReport(items=tuple(results), import_id=run.import_id)


@dataclass(frozen=True)
class _Chunk:
    parsed: list[ImportItemResult | tuple[NewMemory, str | None]]
    asked: list[NewMemory]
    ready: ImportChunkReady | None
    items: list[dict[str, Any]]  # the document's items of this chunk


@dataclass(frozen=True)
class _Stop:
    resume: int  # the first index not attempted
    scope_deleted: bool = False
    backend_error: str | None = None


def _import_chunk(
    scope: MemoryScope,
    actor: Actor,
    run: ImportRun,
    *,
    start: int,
    chunk: _Chunk,
    last_mark: int,
    report: Callable[[ImportItemResult], None],
) -> _Stop | None:
    """Write one chunk under one hold of the scope's write lock (PostgreSQL grants a released
    lock to the writers already queued for it before the import can take it again); a _Stop
    when a delete-user started meanwhile or the write failed."""
    with scope_write_lock(scope):
        if _scope_marks(scope).filter(id__gt=last_mark).exists():
            return _Stop(resume=start, scope_deleted=True)
        outcomes = iter(
            memory_add_many(
                scope=scope, items=chunk.asked, actor=actor, source=Source.IMPORT, ready=chunk.ready
            )
        )
        decided: list[ImportItemResult] = []
        written: list[tuple[str, dict[str, Any]]] = []
        for offset, parsed in enumerate(chunk.parsed):
            index = start + offset
            if isinstance(parsed, ImportItemResult):
                decided.append(parsed)
                continue
            outcome = next(outcomes)
            if outcome.status == WriteStatus.BACKEND_ERROR:
                reason = outcome.reason or "backend error"
                for result in decided:
                    report(result)
                report(ImportItemResult(index=index, status="backend_error", reason=reason))
                return _Stop(resume=index + 1, backend_error=reason)
            if outcome.status == WriteStatus.ADDED and outcome.memory_id:
                written.append((outcome.memory_id, chunk.items[offset]))
            decided.append(_item_result(index, outcome, parsed[1]))
        if written:
            try:
                _restore_trails(scope, run, written)
            except DatabaseError:
                # The memories stand (they were written whole); their past could not be added.
                decided = [
                    dataclasses.replace(r, reason=r.reason or "history_not_restored")
                    if r.memory_id in {memory_id for memory_id, _ in written}
                    else r
                    for r in decided
                ]
        for result in decided:
            report(result)
    return None


# --- what an import would do, before it is done ------------------------------------------------
class PreviewDecision(StrEnum):
    ADD = "add"  # would be stored (possibly replacing the current memory of its key)
    REFUSE = "refuse"  # admission or a rule of an add refuses it
    SKIP = "skip"  # a duplicate of a stored memory or of an earlier item; or history


@dataclass(frozen=True)
class PreviewItem:
    index: int
    content: str  # as it would be stored when added; as sent otherwise
    category: str
    decision: PreviewDecision
    reason: str | None = None  # duplicate | not_active | expired | an admission reason | …
    # The stored memory it repeats (skip) or would replace (add with a key).
    memory_id: str | None = None
    # What admission's cleaning cuts out of the text (links, paths, logs) when it is added.
    removed: tuple[str, ...] = ()


@dataclass(frozen=True)
class ImportPreview:
    items: tuple[PreviewItem, ...]

    def of(self, decision: PreviewDecision) -> tuple[PreviewItem, ...]:
        return tuple(item for item in self.items if item.decision == decision)

    @property
    def added(self) -> tuple[PreviewItem, ...]:
        return self.of(PreviewDecision.ADD)

    @property
    def refused(self) -> tuple[PreviewItem, ...]:
        return self.of(PreviewDecision.REFUSE)

    @property
    def skipped(self) -> tuple[PreviewItem, ...]:
        return self.of(PreviewDecision.SKIP)


def import_preview(*, scope: MemoryScope, items: list[dict[str, Any]]) -> ImportPreview:
    """What ``memory_import`` of ``items`` into ``scope`` would do, item by item, without
    writing anything: history and expired items are skipped, admission and the add rules refuse
    what they refuse, and an item repeating a current memory of the scope (the same text, or a
    near-duplicate as an add judges it) or an earlier item of the document is skipped.

    A preview, not a promise: the import decides again under the scope's lock (someone may
    write in between). Raises ``BackendError`` when the embedder or the database fails."""
    now = timezone.now()
    decided: dict[int, PreviewItem] = {}
    admitted: list[tuple[int, str, NewMemory]] = []
    for index, item in enumerate(items):
        category = str(item.get("category") or Category.FACT)
        prepared = _import_item(index=index, item=item, now=now)
        if isinstance(prepared, ImportItemResult):
            decided[index] = PreviewItem(
                index, item["content"], category, PreviewDecision.SKIP, prepared.reason
            )
            continue
        new = prepared[0]
        refusal = add_refusal(
            text=new.text,
            source=Source.IMPORT,
            confidence=new.confidence,
            memory_key=new.memory_key,
            valid_until=new.valid_until,
        )
        if isinstance(refusal, str):
            decided[index] = PreviewItem(
                index, item["content"], category, PreviewDecision.REFUSE, refusal
            )
            continue
        admitted.append((index, refusal[0], new))
    try:
        texts = [text for _, text, _ in admitted]
        same_text = memories_live_by_text(scope=scope, texts=texts)
        engine = get_engine()
        vectors = [engine.embed_query(text) for text in texts]
        nearest = memory_nearest_many(scope=scope, vectors=vectors)
        holders = memories_active_by_keys(
            scope=scope, memory_keys=[new.memory_key for _, _, new in admitted if new.memory_key]
        )
    except DatabaseError as exc:
        raise BackendError(f"database unavailable: {type(exc).__name__}") from exc
    earlier: dict[str, int] = {}
    for (index, text, new), near in zip(admitted, nearest, strict=True):
        stored = same_text.get(normalize_quotes(text)) or []
        repeats = stored[0] if stored else first_duplicate(text=text, candidates=near)
        folded = normalize_quotes(text)
        if repeats is None and folded in earlier:
            repeats = f"#{earlier[folded] + 1}"  # the item of the document it repeats
        if repeats is not None:
            decided[index] = PreviewItem(
                index,
                text,
                new.category,
                PreviewDecision.SKIP,
                "duplicate",
                repeats if not repeats.startswith("#") else None,
            )
            continue
        earlier[folded] = index
        holder = holders.get(new.memory_key) if new.memory_key else None
        decided[index] = PreviewItem(
            index,
            text,
            new.category,
            PreviewDecision.ADD,
            "replaces" if holder is not None else None,
            str(holder.id) if holder is not None else None,
            removed_parts(new.text.strip(), text),
        )
    return ImportPreview(items=tuple(decided[i] for i in range(len(items))))
