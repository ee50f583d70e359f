"""Re-run admission over what is already stored (after any admission rule change).

Admission guards every write from now on; what was stored under older rules is found here: the
memories (``poco_memories``) and the audit trail's text (Mem0 keeps no history of its own:
``memories.engine.adapter.NoSessionStore``). A dry run only counts, by reason. ``apply``
deletes every refused memory completely through ``services.memory_delete`` (rows, entity
links, audit text → tombstone), then blanks the audit text that still holds a secret or an
identifier (a memory corrected away from a secret keeps its clean text but loses the old one).
Nothing here ever returns the text it judged. Everything lives in PostgreSQL, so one run on
any node covers the whole cluster.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TypeVar

from django.db.models import Q, QuerySet

from memories.admission import admit_text, find_secret
from memories.admission.refs import ref_problem
from memories.models import AuditEvent, MemoryRow
from memories.services import memory_delete
from memories.types import Actor, ActorKind, DeleteStatus, MemoryScope, ScopeError, Source

T = TypeVar("T")

RESCAN_ACTOR = Actor(kind=ActorKind.SYSTEM, id="memory_rescan")


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
    if not apply:
        return report
    AuditEvent.objects.filter(id__in=bad_run_ids).update(run_id="")

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
    return report


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
            refused.append((str(row.id), MemoryScope.from_key(row.scope_key)))
        except ScopeError:
            report.not_deleted["bad_scope"] += 1
    return refused
