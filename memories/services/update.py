"""Corrections: ``memory_update`` changes a memory's text (and optionally its category, key or
expiry) in place, as the user's explicit word."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from memories import governance, metrics
from memories.admission import admit_text
from memories.engine import get_engine
from memories.governance import UNSET, Unset
from memories.instants import read_instant
from memories.locks import scope_write_lock
from memories.models import AuditEvent, MemoryRow
from memories.recall import live
from memories.services.supersede import key_conflict, record_write
from memories.services.write import (
    WriteContext,
    admission_refused,
    fact_refusal,
    noop,
    owned_row,
)
from memories.text import normalize_quotes
from memories.types import (
    SCHEMA_VERSION,
    Actor,
    BackendError,
    Category,
    MemoryScope,
    MemoryStatus,
    Source,
    WriteOutcome,
    WriteStatus,
)


def memory_update(
    *,
    scope: MemoryScope,
    memory_id: str,
    text: str,
    actor: Actor,
    category: str | None = None,
    memory_key: str | None = None,
    valid_until: datetime | None | Unset = UNSET,
    source: str = Source.MANAGE,
    run_id: str = "",
    occurred_at: datetime | None = None,
    status: str = "",
) -> WriteOutcome:
    """Correct a fact in place: the id stays, the text is re-embedded, entities relinked.

    A correction is new text: it passes the same admission as a new fact.
    ``memory_key`` (``""`` removes it) and ``valid_until`` (``None``: never expires) change
    only when given. A correction is the user's (or their agent's) explicit word: the memory
    becomes an explicit statement. Where it stands is ``_standing``'s rule: a current memory
    taking a key that another active memory holds supersedes that memory (``superseded_id``);
    a correction of history (a superseded memory, an expired one) corrects the record and
    never displaces the key's current value — an expired memory given a new expiry is current
    again only while no other active memory holds its key (else ``rejected``, ``key_in_use``,
    as the console's expiry change answers). ``status`` names a kind of correction in its
    audit row (``restored``: a past version)."""
    ctx = WriteContext(scope=scope, actor=actor, source=source, run_id=run_id)
    new_text = _admit_correction(
        memory_id=memory_id,
        text=text,
        memory_key=memory_key,
        valid_until=valid_until,
        source=source,
    )
    if isinstance(new_text, WriteOutcome):
        return new_text
    try:
        with scope_write_lock(scope):
            row = owned_row(scope=scope, memory_id=memory_id)
            if isinstance(row, WriteOutcome):
                return row
            changes = _changed_fields(
                row, category=category, memory_key=memory_key, valid_until=valid_until
            )
            # Quote style alone is no change: texts are compared with their quotes folded.
            if normalize_quotes(row.content) == normalize_quotes(new_text) and not changes:
                return noop(ctx, memory_id=memory_id, reason="unchanged")
            standing = _standing(scope, row=row, memory_id=memory_id, changes=changes)
            if isinstance(standing, WriteOutcome):
                return standing
            current = _correct(
                ctx,
                row=row,
                memory_id=memory_id,
                text=new_text,
                changes=changes,
                standing=standing,
                at=occurred_at,
                status=status,
            )
    except BackendError as exc:
        metrics.writes.labels("update", "backend_error").inc()
        return WriteOutcome(status=WriteStatus.BACKEND_ERROR, memory_id=memory_id, reason=str(exc))
    metrics.writes.labels("update", "updated").inc()
    return WriteOutcome(
        status=WriteStatus.UPDATED,
        memory_id=memory_id,
        superseded_id=str(current.id) if current is not None else None,
    )


def _admit_correction(
    *,
    memory_id: str,
    text: str,
    memory_key: str | None,
    valid_until: datetime | None | Unset,
    source: str,
) -> WriteOutcome | str:
    """The checks that need no lock: the ``rejected`` outcome, or the admitted text."""
    text = text.strip()
    refusal = fact_refusal(text=text, memory_key=memory_key, valid_until=valid_until)
    if refusal:
        return WriteOutcome(status=WriteStatus.REJECTED, memory_id=memory_id, reason=refusal)
    admission = admit_text(source=source, text=text)
    if admission_refused(admission):
        return WriteOutcome(
            status=WriteStatus.REJECTED, memory_id=memory_id, reason=admission.reason
        )
    return admission.text


def _changed_fields(
    row: MemoryRow,
    *,
    category: str | None,
    memory_key: str | None,
    valid_until: datetime | None | Unset,
) -> dict[str, Any]:
    """The fields besides the text that the correction gives a new value (payload form)."""
    changes: dict[str, Any] = {}
    if category and category != row.category:
        changes["category"] = Category(category).value
    if memory_key is not None and memory_key != (row.payload.get("memory_key") or ""):
        changes["memory_key"] = memory_key or None
    if valid_until is not UNSET and governance.iso(valid_until) != row.payload.get("valid_until"):
        changes["valid_until"] = governance.iso(valid_until)
    return changes


@dataclass(frozen=True)
class _Standing:
    """Where a corrected memory stands: current after the correction or not (history stays
    history), and the active holder of its key it takes over (superseded with the write)."""

    current: bool
    replaces: MemoryRow | None = None


def _standing(
    scope: MemoryScope, *, row: MemoryRow, memory_id: str, changes: dict[str, Any]
) -> _Standing | WriteOutcome:
    """Where the memory stands once corrected, or the ``rejected`` outcome (``key_in_use``) of
    an expired memory extended while another active memory holds its key.

    An edit to history must never displace the present: "用户住在武汉", superseded by "用户搬到了
    杭州", corrected to "用户以前住在武汉" stays superseded, and 杭州 stays the answer. So only a
    memory that is current (or an expired one whose expiry the correction extends, its key
    free) may be current afterwards, and only a current one takes its key over."""
    status = governance.payload_status(row.payload)
    if status == MemoryStatus.SUPERSEDED:
        return _Standing(current=False)
    until = read_instant(changes.get("valid_until", row.payload.get("valid_until")))
    if live.is_over(until):  # expired, and the correction does not extend it
        return _Standing(current=False)
    holder, _ = key_conflict(
        scope=scope,
        memory_key=changes.get("memory_key", row.payload.get("memory_key")) or "",
        confidence=governance.EXPLICIT_CONFIDENCE,
        exclude_id=memory_id,
    )
    if status == MemoryStatus.ACTIVE:
        return _Standing(current=True, replaces=holder)
    if holder is not None:
        return WriteOutcome(status=WriteStatus.REJECTED, memory_id=memory_id, reason="key_in_use")
    return _Standing(current=True)


def _correct(
    ctx: WriteContext,
    *,
    row: MemoryRow,
    memory_id: str,
    text: str,
    changes: dict[str, Any],
    standing: _Standing,
    at: datetime | None,
    status: str = "",
) -> MemoryRow | None:
    """Store the correction with its audit row and the supersede of the key's other holder
    (returned), or put the old text and metadata back: no change without its audit trail."""
    current = standing.replaces
    metadata = _corrected_metadata(row, changes, current=standing.current)
    get_engine().update_fact(memory_id=memory_id, text=text, metadata=metadata)
    try:
        record_write(
            ctx,
            memory_id=memory_id,
            event=AuditEvent.Event.UPDATE,
            old_text=row.content,
            new_text=text,
            changes=_change_history(row, changes),
            at=at,
            replaces=current,
            status=status,
        )
    except Exception:
        previous = {key: row.payload.get(key) for key in metadata}
        get_engine().update_fact(memory_id=memory_id, text=row.content, metadata=previous)
        raise
    return current


def _corrected_metadata(
    row: MemoryRow, changes: dict[str, Any], *, current: bool
) -> dict[str, Any]:
    """The payload fields a correction writes: the changes, explicit confidence, the current
    model, and, when it stands ``current`` (``_standing``), active; otherwise its status and
    superseding stay as they were."""
    metadata = {
        **changes,
        "confidence": governance.EXPLICIT_CONFIDENCE,
        "embedding_model": get_engine().embedding_model,
        "schema_version": SCHEMA_VERSION,
    }
    if current:
        metadata |= {"status": MemoryStatus.ACTIVE.value, "superseded_by": None}
        if row.payload.get("superseded_at") is not None:
            metadata["superseded_at"] = None  # current again: no end of its validity
    return metadata


def _change_history(row: MemoryRow, changes: dict[str, Any]) -> dict[str, list[Any]] | None:
    """What changed besides the text, old → new, for the history (None when nothing did)."""
    return {
        field: [row.category if field == "category" else row.payload.get(field), value]
        for field, value in changes.items()
    } or None
