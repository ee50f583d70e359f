"""The import: items written through ``memory_add_many`` in chunks, each under one hold of
the scope's write lock, their trail and usage restored."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from django.db import DatabaseError, transaction
from django.db.models import Max

from memories.admission import admit_text
from memories.instants import read_instant
from memories.models import AuditEvent, DeletionMark
from memories.ops.portability.document import IMPORT_STATUS, IMPORTED
from memories.ops.portability.items import (
    ImportItemResult,
    ImportReport,
    ImportRun,
    import_item,
    new_import,
)
from memories.services import (
    ImportChunkReady,
    NewMemory,
    memory_add_many,
    prepare_import,
    scope_write_exclusive,
)
from memories.types import (
    Actor,
    ActorKind,
    BackendError,
    MemoryScope,
    Source,
    WriteOutcome,
    WriteStatus,
)
from memories.usage import restore_use

# Items per memory_add_many call: one embedding batch and one INSERT each, small enough that
# a backend failure loses little work.
IMPORT_CHUNK = 200


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
            created_at=read_instant(entry["at"]) or run.now,
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
        # The import's own row is dated when the import ran: after the trail it joins, and
        # never at the memory's original time, where it would look like no import at all.
        own.update(status=IMPORT_STATUS, changes=mark, created_at=run.now)
        AuditEvent.objects.bulk_create(rows)
        restore_use(scope=scope, uses=uses)


def _item_result(index: int, outcome: WriteOutcome, note: str | None) -> ImportItemResult:
    """The item's answer: its own outcome, what it superseded beside it (``superseded_id``), and
    for a written item the import's note (``created_at_ignored``, ``pin_not_restored``)."""
    if outcome.status == WriteStatus.ADDED:
        return ImportItemResult(
            index=index,
            status=outcome.status.value,
            memory_id=outcome.memory_id,
            reason=note,
            superseded_id=outcome.superseded_id,
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
    run = new_import(scope, items)
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
            import_item(index=start + offset, item=item, now=now, run=run)
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
    with scope_write_exclusive(scope=scope):
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
