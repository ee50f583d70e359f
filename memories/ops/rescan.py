"""Re-run admission over what is already stored (after any admission rule change).

Admission guards every write from now on; what was stored under older rules is found here: the
memories (``poco_memories``) and the audit trail's text (Mem0 keeps no history of its own:
``memories.engine.adapter.NoSessionStore``). A dry run only counts, by reason. ``apply``
deletes every refused memory completely through ``services.memory_delete`` (rows, entity
links, audit text → tombstone), then blanks the audit text that still holds a secret or an
identifier (a memory corrected away from a secret keeps its clean text but loses the old one).
The id rule (``admission.refs``) is re-run too, over the audit rows' run ids and the references a
memory's payload keeps (``PAYLOAD_REFS``); ``apply`` blanks those values. Nothing here ever
returns the text it judged. Everything lives in PostgreSQL, so one run on any node covers the
whole cluster.
"""

from __future__ import annotations

import contextlib
from collections import Counter
from dataclasses import dataclass, field
from typing import TypeVar

from django.db.models import Q, QuerySet
from django.db.models.fields.json import KT

from memories.admission import admit_text, find_secret
from memories.admission.refs import ref_problem
from memories.engine import get_engine
from memories.models import AuditEvent, MemoryRow
from memories.scope import scope_from_key
from memories.services import memory_delete, scope_write_exclusive
from memories.types import Actor, ActorKind, DeleteStatus, MemoryScope, ScopeError, Source

T = TypeVar("T")

RESCAN_ACTOR = Actor(kind=ActorKind.SYSTEM, id="memory_rescan")

# The payload fields that hold an id a client or a run sent: the run (or page) that wrote the
# memory, and the ingest run it was extracted from. Shown by list-user, exports and /v1 history.
PAYLOAD_REFS = ("source_ref", "origin_run_id")


@dataclass
class RescanReport:
    """Counts only: by reason, never by content."""

    memories: Counter[str] = field(default_factory=Counter)
    audit: Counter[str] = field(default_factory=Counter)
    deleted: int = 0
    not_deleted: Counter[str] = field(default_factory=Counter)  # delete status → count
    scrubbed_audit: int = 0
    # Ids and references holding free text or a secret (the id rule, ``admission.refs``).
    refs: Counter[str] = field(default_factory=Counter)
    # What ``apply`` blanked of those, by the same names: what it changed, not what it found.
    blanked_refs: Counter[str] = field(default_factory=Counter)


def memory_rescan(*, apply: bool = False) -> RescanReport:
    """Count (and with ``apply`` remove) what admission refuses in every store.

    The counts are taken before anything changes, so a dry run and ``apply`` report the same
    findings. Only the offending side of an audit row is blanked: "KEPT → secret" keeps
    "KEPT"."""
    report = RescanReport()
    refused = _refused_memories(report)
    audit_old: list[int] = []
    audit_new: list[int] = []
    for event_id, old_text, new_text in _audit_with_text().values_list(
        "id", "old_text", "new_text"
    ):
        _judge(report.audit, event_id, old_text, new_text, audit_old, audit_new)
    bad_run_ids = [
        event_id
        for event_id, run_id in AuditEvent.objects.exclude(run_id="").values_list("id", "run_id")
        if ref_problem(run_id)
    ]
    if bad_run_ids:
        report.refs["audit run_id"] = len(bad_run_ids)
    bad_payload_refs = _bad_payload_refs()
    for key, rows in bad_payload_refs.items():
        report.refs[f"memory {key}"] = len(rows)
    if not apply:
        return report
    report.blanked_refs["audit run_id"] = AuditEvent.objects.filter(id__in=bad_run_ids).update(
        run_id=""
    )

    for memory_id, scope in refused:
        outcome = memory_delete(
            scope=scope, memory_id=memory_id, actor=RESCAN_ACTOR, source=Source.ADMIN
        )
        if outcome.status == DeleteStatus.DELETED:
            report.deleted += 1
        else:
            report.not_deleted[outcome.status.value] += 1
    # Rows the deletes above already blanked are not found again here.
    offending = _audit_with_text().filter(id__in=[*audit_old, *audit_new])
    report.scrubbed_audit = offending.count()
    _audit_with_text().filter(id__in=audit_old).update(old_text="")
    _audit_with_text().filter(id__in=audit_new).update(new_text="")
    for key, rows in bad_payload_refs.items():
        report.blanked_refs[f"memory {key}"] = _blank_payload_ref(key, rows)
    report.blanked_refs = +report.blanked_refs
    return report


def _bad_payload_refs() -> dict[str, list[tuple[str, str]]]:
    """Per field of ``PAYLOAD_REFS`` that holds one: the memories (id, scope key) whose value
    breaks the id rule."""
    found: dict[str, list[tuple[str, str]]] = {}
    for key in PAYLOAD_REFS:
        rows = (
            MemoryRow.objects.annotate(value=KT(f"payload__{key}"), owner=KT("payload__user_id"))
            .exclude(value__isnull=True)
            .exclude(value="")
            .values_list("id", "value", "owner")
        )
        bad = [(str(memory_id), owner) for memory_id, value, owner in rows if ref_problem(value)]
        if bad:
            found[key] = bad
    return found


def _blank_payload_ref(key: str, rows: list[tuple[str, str]]) -> int:
    """Blank ``key`` in each memory's payload, under its scope's write lock (a writer that read
    the payload meanwhile would put the value back). Returns how many it blanked: a memory
    deleted meanwhile, by this rescan or anyone, is not counted."""
    engine = get_engine()
    blanked = 0
    for memory_id, owner in rows:
        try:
            lock = scope_write_exclusive(scope=scope_from_key(owner))
        except ScopeError:
            lock = contextlib.nullcontext()  # no writer can name such a scope
        try:
            with lock:
                engine.patch_payload(memory_id=memory_id, fields={key: ""})
        except LookupError:
            continue
        blanked += 1
    return blanked


def _judge(
    counts: Counter[str],
    key: T,
    old_text: str,
    new_text: str,
    old_offends: list[T],
    new_offends: list[T],
) -> bool:
    """Count a row by the first reason found; note which of its sides offends."""
    old_found = find_secret(old_text) if old_text else None
    new_found = find_secret(new_text) if new_text else None
    if old_found:
        old_offends.append(key)
    if new_found:
        new_offends.append(key)
    found = old_found or new_found
    if found:
        counts[found[0]] += 1
    return found is not None


def _audit_with_text() -> QuerySet[AuditEvent]:
    return AuditEvent.objects.filter(~Q(old_text="") | ~Q(new_text=""))


def _refused_memories(report: RescanReport) -> list[tuple[str, MemoryScope]]:
    refused = []
    rows = MemoryRow.objects.defer("vector").order_by("id").iterator()
    for row in rows:
        admission = admit_text(source=row.source, text=row.content)
        if admission.admitted:
            continue
        report.memories[admission.reason or "unknown"] += 1
        try:
            refused.append((str(row.id), scope_from_key(row.scope_key)))
        except ScopeError:
            report.not_deleted["bad_scope"] += 1
    return refused
