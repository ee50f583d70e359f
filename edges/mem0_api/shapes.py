"""The answers in Mem0's shapes: what ``mem0ai``'s clients and the programs written for them
read (``id``, ``memory``, ``event``, ``results``, ``count``/``next``/``previous``, ``detail``)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any, Protocol

from edges.contract.shapes import hit_metadata
from memories.instants import service_day
from memories.selectors import HistoryEntry, TenantUser
from memories.types import MemoryRecord, SearchHit

# Mem0's event names for the service's write outcomes.
EVENTS = {"added": "ADD", "updated": "UPDATE", "no_effect": "NONE", "deleted": "DELETE"}
# Mem0's history events for the service's audit events. Mem0 records a history entry for a
# write that changed something only (ADD, UPDATE, DELETE: mem0ai 2.2.1, ``Memory.history``);
# the audit trail's ``NOOP`` (a duplicate add, an unchanged update) has no Mem0 name and no
# place in a Mem0 history, so the door leaves it out (``/v1``'s history keeps it).
HISTORY_EVENTS = {"ADD": "ADD", "UPDATE": "UPDATE", "DELETE": "DELETE"}
# An ingest job's status (``lifecycle``'s ``IngestJob.Status``) as a Mem0 event's: PENDING,
# RUNNING, SUCCEEDED or FAILED. tests/edges/mem0_api/test_schema.py checks every status has a row.
EVENT_STATUS = {
    "queued": "PENDING",
    "retrying": "PENDING",
    "running": "RUNNING",
    "succeeded": "SUCCEEDED",
    "no_effect": "SUCCEEDED",
    "skipped": "SUCCEEDED",
    "failed": "FAILED",
}
QUEUED_MESSAGE = "Memory processing has been queued for background execution"


def _when(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def _last_day(valid_until: datetime | None) -> str | None:
    """Mem0's ``expiration_date``: the last day (in the service's time zone) the memory is
    valid. An expiration date written through any door is valid through its whole day, to its
    last instant (``instants.day_end``) or the next midnight (written so before)."""
    if valid_until is None:
        return None
    return service_day(valid_until - timedelta(microseconds=1)).isoformat()


def memory(record: MemoryRecord, *, user_id: str) -> dict[str, Any]:
    """One memory as Mem0's ``get``/``get_all`` answer it. ``metadata`` carries the service's
    own fields a Mem0 memory has no place for (key, source, status)."""
    extra = {
        name: value
        for name, value in (
            ("memory_key", record.memory_key),
            ("source", record.source),
            ("status", record.status),
        )
        if value
    }
    # The run an ingest extracted it from; an explicit add's run is in its history.
    run_id = record.metadata.get("origin_run_id") or None
    return {
        "id": record.id,
        "memory": record.content,
        "user_id": user_id,
        "agent_id": None,
        "run_id": run_id,
        "app_id": None,
        "metadata": extra,
        "categories": [record.category] if record.category else [],
        "created_at": _when(record.created_at),
        "updated_at": _when(record.updated_at or record.created_at),
        "expiration_date": _last_day(record.valid_until),
        "immutable": False,
    }


def search_hit(hit: SearchHit, *, user_id: str, record: MemoryRecord | None) -> dict[str, Any]:
    """One result of a search, with Mem0's ``created_at`` and ``updated_at`` (as ``memory``
    answers them) from ``record``, the hit's stored memory (None if it is gone since)."""
    return {
        "id": hit.id,
        "memory": hit.content,
        "score": hit.score,
        "user_id": user_id,
        "categories": [hit.category] if hit.category else [],
        # How it matched (evidence or related) and, ``as_of`` an instant, when the fact held.
        "metadata": hit_metadata(hit),
        "created_at": _when(record.created_at) if record else None,
        "updated_at": _when(record.updated_at or record.created_at) if record else None,
    }


def history(entries: Iterable[HistoryEntry], *, memory_id: str, user_id: str) -> list[Any]:
    """A memory's audit trail as Mem0's history: the entries Mem0 would have (``HISTORY_EVENTS``),
    oldest first."""
    return [
        history_entry(entry, memory_id=memory_id, user_id=user_id)
        for entry in entries
        if entry.event in HISTORY_EVENTS
    ]


def history_entry(entry: HistoryEntry, *, memory_id: str, user_id: str) -> dict[str, Any]:
    return {
        "memory_id": memory_id,
        "event": HISTORY_EVENTS[entry.event],
        "old_memory": entry.old_text or None,
        "new_memory": entry.new_text or None,
        "user_id": user_id,
        "input": None,
        "metadata": {"source": entry.source, "actor": entry.actor_kind, "run_id": entry.run_id},
        "created_at": _when(entry.created_at),
        "updated_at": _when(entry.created_at),
    }


class IngestEvent(Protocol):
    """What an event is read from: the ingest job ``lifecycle.selectors.ingest_job_get`` gives."""

    @property
    def id(self) -> Any: ...
    @property
    def status(self) -> str: ...
    @property
    def user_id(self) -> str: ...
    @property
    def memory_ids(self) -> Any: ...
    @property
    def reason(self) -> str: ...
    @property
    def created_at(self) -> datetime | None: ...
    @property
    def updated_at(self) -> datetime | None: ...


def event(job: IngestEvent) -> dict[str, Any]:
    """An ingest job as the event an asynchronous Mem0 add answers the id of."""
    return {
        "id": str(job.id),
        "event_type": "ADD",
        "status": EVENT_STATUS.get(str(job.status), "PENDING"),
        "results": [
            {"id": memory_id, "event": "ADD", "user_id": job.user_id}
            for memory_id in job.memory_ids
        ],
        "reason": job.reason or None,
        "created_at": _when(job.created_at),
        "updated_at": _when(job.updated_at),
    }


def entity(user: TenantUser) -> dict[str, Any]:
    return {
        "id": user.user_id,
        "name": user.user_id,
        "type": "user",
        "total_memories": user.total,
        "owner": None,
        "metadata": None,
        "created_at": _when(user.first_created_at),
        "updated_at": _when(user.last_created_at),
    }
