"""Changes to a memory that leave its text alone: its expiry (``memory_set_validity`` and the
periodic ``memories_expire``), its "always use" pin, its category, and the scope's switches."""

from __future__ import annotations

import contextlib
import logging
from datetime import datetime
from typing import Any

from django.db import DatabaseError
from django.utils import timezone

from memories import governance
from memories.engine import get_engine
from memories.locks import scope_write_lock
from memories.models import AuditEvent, MemorySettings
from memories.recall import live
from memories.scope import scope_from_key
from memories.selectors import memories_due_to_expire, memory_switches, pinned_count
from memories.services.supersede import key_conflict
from memories.services.write import WriteContext, audit, noop, owned_row
from memories.types import (
    Actor,
    ActorKind,
    BackendError,
    Category,
    MemoryScope,
    MemoryStatus,
    Source,
    WriteOutcome,
    WriteStatus,
)

logger = logging.getLogger(__name__)

EXPIRY_ACTOR = Actor(kind=ActorKind.SYSTEM, id="expiry")

# How many memories one user may mark "always use": the context endpoint injects at most three
# facts, so more pins than a handful would only compete with each other.
MAX_PINS = 10
PIN_LIMIT = "pin_limit"


def memory_set_validity(
    *,
    scope: MemoryScope,
    memory_id: str,
    valid_until: datetime | None,
    actor: Actor,
    source: str = Source.CONSOLE,
) -> WriteOutcome:
    """Extend, shorten or clear (``None``) a memory's expiry. An expired memory given a future
    (or no) expiry is current again, unless another active memory holds its key now."""
    ctx = WriteContext(scope=scope, actor=actor, source=source)
    try:
        with scope_write_lock(scope):
            row = owned_row(scope=scope, memory_id=memory_id)
            if isinstance(row, WriteOutcome):
                return row
            stored = live.stored_status(row.payload)
            if stored == MemoryStatus.SUPERSEDED:
                return WriteOutcome(
                    status=WriteStatus.REJECTED, memory_id=memory_id, reason="superseded"
                )
            fields: dict[str, Any] = {"valid_until": governance.iso(valid_until)}
            key = str(row.payload.get("memory_key") or "")
            if stored == MemoryStatus.EXPIRED and not live.is_over(valid_until):
                holder, _ = key_conflict(
                    scope=scope, memory_key=key, confidence=1.0, exclude_id=memory_id
                )
                if holder is not None:
                    return WriteOutcome(
                        status=WriteStatus.REJECTED, memory_id=memory_id, reason="key_in_use"
                    )
                fields["status"] = MemoryStatus.ACTIVE.value
            if fields == {k: row.payload.get(k) for k in fields}:
                return noop(ctx, memory_id=memory_id, reason="unchanged")
            _patch_audited(
                ctx,
                memory_id=memory_id,
                fields=fields,
                before={k: row.payload.get(k) for k in fields},
                status="valid_until",
                # from → to, so the trail can say what the expiry was and became
                changes={"valid_until": [row.payload.get("valid_until"), fields["valid_until"]]},
            )
    except (BackendError, DatabaseError) as exc:
        return WriteOutcome(
            status=WriteStatus.BACKEND_ERROR, memory_id=memory_id, reason=_failure(exc)
        )
    return WriteOutcome(status=WriteStatus.UPDATED, memory_id=memory_id)


def memories_expire(*, now: datetime | None = None) -> int:
    """Mark every active memory past its ``valid_until`` ``expired`` (the periodic sweep),
    scope by scope under its write lock. Readers already treat them as expired; the mark makes
    the list, the admin and exports say so. Returns how many were marked."""
    now = now or timezone.now()
    due: dict[str, list[str]] = {}
    for scope_key, memory_id in memories_due_to_expire(now=now):
        due.setdefault(scope_key, []).append(memory_id)
    marked = sum(
        _expire_in_scope(scope_from_key(scope_key), memory_ids)
        for scope_key, memory_ids in due.items()
    )
    if marked:
        logger.info("expired %s memories", marked)
    return marked


def _expire_in_scope(scope: MemoryScope, memory_ids: list[str]) -> int:
    """Mark the scope's due memories expired, each with its audited UPDATE; how many were."""
    ctx = WriteContext(scope=scope, actor=EXPIRY_ACTOR, source="expiry")
    marked = 0
    with scope_write_lock(scope):
        for memory_id in memory_ids:
            try:
                get_engine().patch_payload(
                    memory_id=memory_id, fields={"status": MemoryStatus.EXPIRED.value}
                )
            except LookupError:
                continue  # deleted meanwhile
            audit(
                ctx, memory_id=memory_id, event=AuditEvent.Event.UPDATE, status=MemoryStatus.EXPIRED
            )
            marked += 1
    return marked


def memory_pin(
    *,
    scope: MemoryScope,
    memory_id: str,
    pinned: bool,
    actor: Actor,
    source: str = Source.CONSOLE,
) -> WriteOutcome:
    """Mark a memory "always use" (``pinned``) or take the mark off. The context endpoint gives
    pinned memories its first places; only a current (active) memory can be pinned, and at
    most ``MAX_PINS`` per scope (``rejected``, reason ``pin_limit``)."""
    ctx = WriteContext(scope=scope, actor=actor, source=source)
    try:
        with scope_write_lock(scope):
            row = owned_row(scope=scope, memory_id=memory_id)
            if isinstance(row, WriteOutcome):
                return row
            if bool(row.payload.get("pinned")) == pinned:
                return WriteOutcome(
                    status=WriteStatus.NO_EFFECT, memory_id=memory_id, reason="unchanged"
                )
            refusal = _pin_refusal(scope=scope, payload=row.payload) if pinned else None
            if refusal:
                return WriteOutcome(
                    status=WriteStatus.REJECTED, memory_id=memory_id, reason=refusal
                )
            fields = {
                "pinned": pinned,
                "pinned_at": timezone.now().isoformat() if pinned else None,
            }
            _patch_audited(
                ctx,
                memory_id=memory_id,
                fields=fields,
                before={key: row.payload.get(key) for key in fields},
                status="pinned" if pinned else "unpinned",
            )
    except (BackendError, DatabaseError) as exc:
        return WriteOutcome(
            status=WriteStatus.BACKEND_ERROR, memory_id=memory_id, reason=_failure(exc)
        )
    return WriteOutcome(status=WriteStatus.UPDATED, memory_id=memory_id)


def memory_mark_reviewed(
    *, scope: MemoryScope, memory_id: str, actor: Actor, source: str = Source.CONSOLE
) -> WriteOutcome:
    """The user looked at a memory an agent wrote and keeps it as it is ("确认"): the payload's
    ``reviewed_at``, with its audited UPDATE. It pins nothing and changes no text; a memory
    already reviewed is ``no_effect``."""
    ctx = WriteContext(scope=scope, actor=actor, source=source)
    try:
        with scope_write_lock(scope):
            row = owned_row(scope=scope, memory_id=memory_id)
            if isinstance(row, WriteOutcome):
                return row
            if row.payload.get("reviewed_at"):
                return WriteOutcome(
                    status=WriteStatus.NO_EFFECT, memory_id=memory_id, reason="unchanged"
                )
            _patch_audited(
                ctx,
                memory_id=memory_id,
                fields={"reviewed_at": timezone.now().isoformat()},
                before={"reviewed_at": None},
                status="reviewed",
            )
    except (BackendError, DatabaseError) as exc:
        return WriteOutcome(
            status=WriteStatus.BACKEND_ERROR, memory_id=memory_id, reason=_failure(exc)
        )
    return WriteOutcome(status=WriteStatus.UPDATED, memory_id=memory_id)


def _pin_refusal(*, scope: MemoryScope, payload: dict[str, Any]) -> str | None:
    """Why a memory may not be pinned: it is not current, or the scope has ``MAX_PINS``."""
    if governance.payload_status(payload) != MemoryStatus.ACTIVE:
        return "not_active"
    if pinned_count(scope=scope) >= MAX_PINS:
        return PIN_LIMIT
    return None


def memories_set_category(
    *,
    scope: MemoryScope,
    memory_ids: list[str],
    category: str,
    actor: Actor,
    source: str = Source.CONSOLE,
) -> list[WriteOutcome]:
    """Give several memories of the scope one category, under one hold of the scope's lock:
    the text, vector and everything else stay; each change is an audited UPDATE naming the old
    and new category. One outcome per id, in order (``not_found`` / ``forbidden`` for ids that
    are not the scope's, ``no_effect`` where the category was already that one)."""
    ctx = WriteContext(scope=scope, actor=actor, source=source)
    new = Category(category).value
    outcomes: list[WriteOutcome] = []
    try:
        with scope_write_lock(scope):
            for memory_id in memory_ids:
                outcomes.append(_set_category(ctx, memory_id=memory_id, category=new))
    except (BackendError, DatabaseError) as exc:
        done = {o.memory_id for o in outcomes}
        outcomes += [
            WriteOutcome(status=WriteStatus.BACKEND_ERROR, memory_id=m, reason=_failure(exc))
            for m in memory_ids
            if m not in done
        ]
    return outcomes


def _set_category(ctx: WriteContext, *, memory_id: str, category: str) -> WriteOutcome:
    row = owned_row(scope=ctx.scope, memory_id=memory_id)
    if isinstance(row, WriteOutcome):
        return row
    if row.category == category:
        return WriteOutcome(status=WriteStatus.NO_EFFECT, memory_id=memory_id, reason="unchanged")
    _patch_audited(
        ctx,
        memory_id=memory_id,
        fields={"category": category},
        before={"category": row.payload.get("category")},
        changes={"category": [row.category, category]},
    )
    return WriteOutcome(status=WriteStatus.UPDATED, memory_id=memory_id)


def _patch_audited(
    ctx: WriteContext,
    *,
    memory_id: str,
    fields: dict[str, Any],
    before: dict[str, Any],
    status: str = "",
    changes: dict[str, list[Any]] | None = None,
) -> None:
    """Merge ``fields`` into a memory's payload with its audited UPDATE row: both or neither
    (the payload is put back as ``before`` when the audit row cannot be written)."""
    get_engine().patch_payload(memory_id=memory_id, fields=fields)
    try:
        audit(
            ctx, memory_id=memory_id, event=AuditEvent.Event.UPDATE, status=status, changes=changes
        )
    except Exception:
        with contextlib.suppress(Exception):
            get_engine().patch_payload(memory_id=memory_id, fields=before)
        raise


def _failure(exc: BackendError | DatabaseError) -> str:
    """The reason a ``backend_error`` outcome gives: the backend's own, or a database outage."""
    return str(exc) if isinstance(exc, BackendError) else "database unavailable"


def memory_switches_update(
    *,
    scope: MemoryScope,
    memory_save_enabled: bool | None = None,
    memory_reference_enabled: bool | None = None,
) -> None:
    """Turn the scope's save and reference switches on or off; ``None`` leaves one as it is."""
    current = memory_switches(scope=scope)
    MemorySettings.objects.update_or_create(
        tenant_id=scope.tenant_id,
        user_id=scope.user_id,
        defaults={
            "memory_save_enabled": current.memory_save_enabled
            if memory_save_enabled is None
            else memory_save_enabled,
            "memory_reference_enabled": current.memory_reference_enabled
            if memory_reference_enabled is None
            else memory_reference_enabled,
        },
    )
