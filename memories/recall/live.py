"""Which memories a reader sees: the ones of its scope that are live.

Each rule comes in the three forms readers need: SQL for a hand-written statement (given the
alias of the memory table), a ``Q`` for a ``MemoryRow`` queryset, and Python for a payload
already read. Every reader — recall's channels, the selectors, governance — filters through
them, and ``tests/memories/recall/test_liveness.py`` checks that the forms agree on real rows.

**Scope.** A memory belongs to the scope whose ``key`` (``tenant:user``) is its payload's
``user_id``. Neither part may hold a ``:`` (``memories.types.SCOPE_PART``), so equality on the
whole key is equality on tenant and user. Migration 0006 stores the same value as the
generated, indexed ``scope_key`` column: SQL compares that column. The ORM has no field for
it (Mem0 owns the table) and compares ``payload->>'user_id'``, the expression the column is
generated from, which Mem0's expression index (migration 0001) answers.

**Liveness.** A memory is live when its status is ``active`` — a row written before governance
has no status, or a JSON null, and counts as active — and it is not past its ``valid_until``
(none: it never expires). Past that instant it reads as expired at once, before the periodic
sweep (``selectors.memories_due_to_expire``) marks it so. Any other stored status is not live.
``valid_until`` is an ISO 8601 instant with its offset, as ``governance.iso`` writes it; SQL
compares it with the statement's ``now()``, the ORM and Python forms with the ``now`` given.

**Validity at an instant** (``as_of``: what was true then). A memory was valid at ``t`` when it
had been written by then (its ``created_at``, the instant its fact holds from: an import keeps
the original one) and its fact had not stopped holding: not past its ``valid_until`` and, once
superseded, not past its ``superseded_at`` (when the memory that replaced it began to hold).
Its status may be ``active``, ``expired`` or ``superseded``; a superseded memory without
``superseded_at`` (superseded before it was recorded, and not yet migrated) says nothing about
when it stopped, so it is valid at no instant rather than at a guessed one. A deleted memory is
no row at all: nothing here can bring it back. Instants compare as ``timestamptz``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db.models import DateTimeField, Q, TextField, Value
from django.db.models.fields.json import KT
from django.db.models.functions import Cast, Coalesce
from django.db.models.lookups import Exact, GreaterThan, In, IsNull, LessThanOrEqual
from django.utils import timezone

from memories.instants import read_instant
from memories.types import MemoryStatus, StatusFilter

# The generated column holding a memory's scope key (migration 0006).
SCOPE_COLUMN = "scope_key"
# Payload fields the rules read.
SCOPE_FIELD = "user_id"
STATUS_FIELD = "status"
UNTIL_FIELD = "valid_until"
FROM_FIELD = "created_at"
SUPERSEDED_AT_FIELD = "superseded_at"

ACTIVE = MemoryStatus.ACTIVE.value
EXPIRED = MemoryStatus.EXPIRED.value
SUPERSEDED = MemoryStatus.SUPERSEDED.value
# The statuses a memory can have been valid in: any other stored value is valid at no instant.
VALID_STATUSES = (ACTIVE, EXPIRED, SUPERSEDED)


# --- SQL -------------------------------------------------------------------------------------
def scope_condition(alias: str, placeholder: str = "%s") -> str:
    """SQL: the memory ``alias`` belongs to the scope whose key is bound to ``placeholder``."""
    return f"{alias}.{SCOPE_COLUMN} = {placeholder}"


def live_condition(alias: str) -> str:
    """SQL: the memory ``alias`` is live (active and not past its ``valid_until``)."""
    until = f"({alias}.payload->>'{UNTIL_FIELD}')"
    return (
        f"coalesce({alias}.payload->>'{STATUS_FIELD}', '{ACTIVE}') = '{ACTIVE}' "
        f"AND ({until} IS NULL OR {until}::timestamptz > now())"
    )


def valid_at_condition(alias: str, placeholder: str = "%s") -> str:
    """SQL: the memory ``alias`` was valid at the instant bound to ``placeholder`` (bound
    twice as often as it appears: use a named placeholder, ``%(as_of)s``)."""
    status = f"coalesce({alias}.payload->>'{STATUS_FIELD}', '{ACTIVE}')"
    since = f"({alias}.payload->>'{FROM_FIELD}')"
    until = f"({alias}.payload->>'{UNTIL_FIELD}')"
    replaced = f"({alias}.payload->>'{SUPERSEDED_AT_FIELD}')"
    statuses = ", ".join(f"'{s}'" for s in VALID_STATUSES)
    return (
        f"{status} IN ({statuses}) "
        f"AND ({since} IS NULL OR {since}::timestamptz <= {placeholder}) "
        f"AND ({until} IS NULL OR {until}::timestamptz > {placeholder}) "
        f"AND ({status} <> '{SUPERSEDED}' "
        f"OR ({replaced} IS NOT NULL AND {replaced}::timestamptz > {placeholder}))"
    )


# --- ORM (MemoryRow querysets) ---------------------------------------------------------------
# The same expressions as the SQL form: the statistics objects of migration 0005 are built on
# ``coalesce(payload->>'status', 'active')`` and ``payload->>'valid_until'``.
def _status() -> Coalesce:
    return Coalesce(KT(f"payload__{STATUS_FIELD}"), Value(ACTIVE), output_field=TextField())


def _until() -> Cast:
    return Cast(KT(f"payload__{UNTIL_FIELD}"), DateTimeField())


def stored_status_q(status: str) -> Q:
    """The memories whose stored status is ``status`` (none counts as ``active``), whatever
    their ``valid_until``."""
    return Q(Exact(_status(), status))


def scope_q(scope_key: str) -> Q:
    """The memories of the scope whose key is ``scope_key``."""
    return Q(Exact(KT(f"payload__{SCOPE_FIELD}"), scope_key))


def due_q(now: datetime) -> Q:
    """Memories with a ``valid_until`` at or before ``now``, whatever their status."""
    return Q(IsNull(_until(), False)) & Q(LessThanOrEqual(_until(), now))


def live_q(now: datetime) -> Q:
    """The live memories at ``now``."""
    return stored_status_q(ACTIVE) & (Q(IsNull(_until(), True)) | Q(GreaterThan(_until(), now)))


def _instant_field(name: str) -> Cast:
    return Cast(KT(f"payload__{name}"), DateTimeField())


def valid_at_q(at: datetime) -> Q:
    """The memories valid at ``at``."""
    since, replaced = _instant_field(FROM_FIELD), _instant_field(SUPERSEDED_AT_FIELD)
    superseded = stored_status_q(SUPERSEDED)
    return (
        Q(In(_status(), VALID_STATUSES))
        & (Q(IsNull(since, True)) | Q(LessThanOrEqual(since, at)))
        & (Q(IsNull(_until(), True)) | Q(GreaterThan(_until(), at)))
        & (~superseded | (Q(IsNull(replaced, False)) & Q(GreaterThan(replaced, at))))
    )


def status_q(status: str, now: datetime) -> Q:
    """The memories a reader sees in ``status`` at ``now`` (``StatusFilter``; ``all`` is every
    memory): ``expired`` includes an active memory past its ``valid_until``, ``active`` is
    ``live_q``."""
    if status == StatusFilter.ALL:
        return Q()
    if status == StatusFilter.ACTIVE:
        return live_q(now)
    if status == StatusFilter.EXPIRED:
        return stored_status_q(EXPIRED) | (stored_status_q(ACTIVE) & due_q(now))
    return stored_status_q(status)


# --- Python (a payload dict) -----------------------------------------------------------------
def in_scope(payload: dict[str, Any], scope_key: str) -> bool:
    """Whether the memory with ``payload`` belongs to the scope whose key is ``scope_key``."""
    return payload.get(SCOPE_FIELD) == scope_key


def stored_status(payload: dict[str, Any]) -> str:
    """The status as stored; none (or JSON null) is ``active``, like SQL's ``coalesce``."""
    status = payload.get(STATUS_FIELD)
    return ACTIVE if status is None else str(status)


def is_over(until: datetime | None, *, now: datetime | None = None) -> bool:
    """Whether an expiry ``until`` (None: never) is over at ``now`` (default: the current
    time): a memory is not live from its ``valid_until`` on."""
    return until is not None and until <= (now or timezone.now())


def is_due(payload: dict[str, Any], *, now: datetime) -> bool:
    """Whether the memory has a ``valid_until`` at or before ``now``."""
    return is_over(read_instant(payload.get(UNTIL_FIELD)), now=now)


def read_status(payload: dict[str, Any], *, now: datetime | None = None) -> str:
    """The status a reader sees at ``now`` (default: the current time): an active memory past
    its ``valid_until`` is ``expired``."""
    status = stored_status(payload)
    if status == ACTIVE and is_due(payload, now=now or timezone.now()):
        return EXPIRED
    return status


def is_live(payload: dict[str, Any], *, now: datetime | None = None) -> bool:
    """Whether the memory with ``payload`` is live at ``now`` (default: the current time)."""
    return read_status(payload, now=now) == ACTIVE


def is_valid_at(payload: dict[str, Any], *, at: datetime) -> bool:
    """Whether the memory with ``payload`` was valid at ``at`` (above: ``valid_at_q``)."""
    status = stored_status(payload)
    if status not in VALID_STATUSES:
        return False
    since = read_instant(payload.get(FROM_FIELD))
    if since is not None and since > at:
        return False
    if is_due(payload, now=at):
        return False
    if status != SUPERSEDED:
        return True
    replaced = read_instant(payload.get(SUPERSEDED_AT_FIELD))
    return replaced is not None and replaced > at


def validity_end(payload: dict[str, Any]) -> datetime | None:
    """When the memory's fact stopped (or will stop) holding: the earlier of its
    ``valid_until`` and its ``superseded_at``; None when neither is known."""
    ends = [
        instant
        for instant in (
            read_instant(payload.get(UNTIL_FIELD)),
            read_instant(payload.get(SUPERSEDED_AT_FIELD)),
        )
        if instant is not None
    ]
    return min(ends, default=None)
