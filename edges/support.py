"""Read-only selectors for the staff admin: one user's support page and one memory's trail.

They join the memory tables with the write pipeline's (ingest jobs, rejections, explicit
runs) and return frozen dataclasses holding what the page shows, so the admin views only
record the staff view and hand the result to a template.  Nothing here writes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Count, Model
from django.db.models.fields.json import KT
from django.utils.translation import gettext_lazy as _

from lifecycle.models import IngestJob, IngestRejection, RunLedger
from memories.instants import read_instant
from memories.labels import (
    actor_label,
    category_label,
    event_label,
    rejection_label,
    source_label,
)
from memories.models import CHANGE_EVENTS, AuditEvent, MemoryRow
from memories.selectors import Switches, memory_switches
from memories.types import MemoryScope

# How many rows of each list the support page shows, newest first.
LATEST_MEMORIES = 50
LATEST_JOBS = 30
LATEST_RUNS = 30
LATEST_CHANGES = 50
LATEST_STAFF_VIEWS = 50
# The memory list shows the start of each memory, not all of it.
PREVIEW_CHARS = 120


@dataclass(frozen=True)
class MemoryRef:
    """A memory id as staff pages show it: a link while the memory exists, marked gone after."""

    id: str
    exists: bool

    @property
    def short_id(self) -> str:
        return self.id[:8]


def memory_refs(ids: Iterable[Any]) -> tuple[MemoryRef, ...]:
    """``ids`` in order, each told whether its memory still exists (one query for all)."""
    wanted = [str(i) for i in ids]
    if not wanted:
        return ()
    existing = {
        str(pk) for pk in MemoryRow.objects.filter(pk__in=wanted).values_list("pk", flat=True)
    }
    return tuple(MemoryRef(id=i, exists=i in existing) for i in wanted)


def _optional_refs(ids: list[Any]) -> list[MemoryRef | None]:
    """Like ``memory_refs`` where an id may be missing (an event about no single memory)."""
    refs = iter(memory_refs(i for i in ids if i is not None))
    return [None if i is None else next(refs) for i in ids]


# What an audit row's status or a no-op's reason records, in words (the codes stay in the
# filter and the database).
AUDIT_STATUS_LABELS = {
    "superseded": _("被新记忆替代"),
    "expired": _("到期"),
    "valid_until": _("有效期修改"),
    "pinned": _("设为始终使用"),
    "unpinned": _("取消始终使用"),
    "reviewed": _("用户已确认"),
    "restored": _("恢复旧版本"),
    "unchanged": _("内容没有变化"),
    "duplicate": _("与已有记忆重复"),
    "explicit_statement_kept": _("保留用户明确说过的"),
    "low_confidence": _("把握不足，未保存"),
    "key_in_use": _("记忆键已被占用"),
}


def audit_status_label(code: str) -> str:
    """An audit row's status in words; "—" when it has none; an unknown code as it is."""
    if not code:
        return "—"
    return str(AUDIT_STATUS_LABELS.get(code, code))


@dataclass(frozen=True)
class Change:
    """One row of a change trail (ADD, UPDATE, DELETE, NOOP), codes with their labels."""

    when: datetime
    event: str
    event_label: str
    actor: str
    source: str  # the source's label, "" when none was recorded
    memory: MemoryRef | None
    run_id: str
    status: str
    old_text: str
    new_text: str

    @property
    def event_name(self) -> str:
        return self.event_label  # the page's language; the code stays in the filter

    @property
    def status_label(self) -> str:
        return audit_status_label(self.status)


def _changes(events: list[AuditEvent]) -> tuple[Change, ...]:
    refs = _optional_refs([e.memory_id for e in events])
    return tuple(
        Change(
            when=e.created_at,
            event=e.event,
            event_label=event_label(e.event),
            actor=actor_label(e.actor_kind, e.actor_id),
            source=source_label(e.source) if e.source else "",
            memory=ref,
            run_id=e.run_id,
            status=e.status,
            old_text=e.old_text,
            new_text=e.new_text,
        )
        for e, ref in zip(events, refs, strict=True)
    )


def memory_changes(*, memory_id: Any) -> tuple[Change, ...]:
    """One memory's changes, oldest first (staff views are not changes)."""
    events = AuditEvent.objects.filter(memory_id=memory_id, event__in=CHANGE_EVENTS)
    return _changes(list(events.order_by("created_at", "id")))


# --- one user, everything support needs ---------------------------------------------------


def _owned(scope: MemoryScope) -> dict[str, str]:
    """The filter of the Django tables that store a scope as two columns."""
    return {"tenant_id": scope.tenant_id, "user_id": scope.user_id}


@dataclass(frozen=True)
class MemoryLine:
    ref: MemoryRef
    preview: str
    category: str
    source: str
    created: datetime | None


@dataclass(frozen=True)
class UserMemories:
    total: int
    latest: tuple[MemoryLine, ...]


def user_memories(*, scope: MemoryScope, limit: int = LATEST_MEMORIES) -> UserMemories:
    """How many memories the user has (every status) and the newest ``limit`` of them."""
    rows = (
        MemoryRow.objects.defer("vector")
        .alias(owner=KT("payload__user_id"), created_key=KT("payload__created_at"))
        .filter(owner=scope.key)
        .order_by("-created_key")
    )
    latest = tuple(
        MemoryLine(
            ref=MemoryRef(id=str(m.pk), exists=True),
            preview=m.content[:PREVIEW_CHARS],
            category=category_label(m.category),
            source=source_label(m.source),
            created=read_instant(m.payload.get("created_at")),
        )
        for m in rows[:limit]
    )
    return UserMemories(total=rows.count(), latest=latest)


@dataclass(frozen=True)
class JobLine:
    id: str
    run_id: str
    status_label: str
    reason: str
    created: datetime
    memories: tuple[MemoryRef, ...]


def ingest_jobs(*, scope: MemoryScope, limit: int = LATEST_JOBS) -> tuple[JobLine, ...]:
    """The user's newest ingest jobs and the memories each wrote (marked when since deleted)."""
    jobs = list(IngestJob.objects.filter(**_owned(scope)).order_by("-created_at")[:limit])
    refs = iter(memory_refs(i for job in jobs for i in job.memory_ids))
    return tuple(
        JobLine(
            id=str(job.pk),
            run_id=job.run_id,
            status_label=str(job.get_status_display()),
            reason=job.reason,
            created=job.created_at,
            memories=tuple(next(refs) for _ in job.memory_ids),
        )
        for job in jobs
    )


@dataclass(frozen=True)
class Tally:
    """How many rows carry one code (a job status, a rejection reason), with its label."""

    code: str
    label: str
    count: int


def ingest_job_counts(*, scope: MemoryScope) -> tuple[Tally, ...]:
    """The user's ingest jobs counted by status, the commonest first."""
    labels = dict(IngestJob.Status.choices)
    return _tallies(
        IngestJob, "status", scope=scope, label=lambda status: str(labels.get(status, status))
    )


def rejection_counts(*, scope: MemoryScope) -> tuple[Tally, ...]:
    """The user's refused ingests counted by reason, the commonest first: never their content,
    which was not kept."""
    return _tallies(IngestRejection, "reason", scope=scope, label=rejection_label)


def _tallies(
    model: type[Model], field: str, *, scope: MemoryScope, label: Callable[[str], str]
) -> tuple[Tally, ...]:
    """The scope's rows of ``model`` counted by ``field``, the commonest first, each labelled."""
    counted = (
        model._default_manager.filter(**_owned(scope))
        .values_list(field)
        .annotate(n=Count("id"))
        .order_by("-n")
    )
    return tuple(Tally(code=code, label=label(code), count=n) for code, n in counted)


@dataclass(frozen=True)
class RunLine:
    run_id: str
    action: str
    created: datetime


def explicit_runs(*, scope: MemoryScope, limit: int = LATEST_RUNS) -> tuple[RunLine, ...]:
    """The user's newest runs whose agent wrote explicitly (/manage)."""
    runs = RunLedger.objects.filter(**_owned(scope)).order_by("-created_at")[:limit]
    return tuple(
        RunLine(run_id=r.run_id, action=r.explicit_action, created=r.created_at) for r in runs
    )


def scope_changes(*, scope: MemoryScope, limit: int = LATEST_CHANGES) -> tuple[Change, ...]:
    """The user's newest changes to any memory, newest first."""
    events = AuditEvent.objects.filter(**_owned(scope), event__in=CHANGE_EVENTS)
    return _changes(list(events.order_by("-created_at", "-id")[:limit]))


@dataclass(frozen=True)
class StaffView:
    """Staff read the user's memories: who, when, on which page, never what they saw."""

    when: datetime
    actor: str
    page: str
    memory: MemoryRef | None
    reason: str = ""


def staff_views(*, scope: MemoryScope, limit: int = LATEST_STAFF_VIEWS) -> tuple[StaffView, ...]:
    """The newest times staff read the user's memories, newest first."""
    views = list(
        AuditEvent.objects.filter(**_owned(scope), event=AuditEvent.Event.VIEW).order_by(
            "-created_at", "-id"
        )[:limit]
    )
    refs = _optional_refs([v.memory_id for v in views])
    return tuple(
        StaffView(
            when=v.created_at,
            actor=actor_label(v.actor_kind, v.actor_id),
            page=str(v.get_page_display()),
            memory=ref,
            reason=v.reason,
        )
        for v, ref in zip(views, refs, strict=True)
    )


@dataclass(frozen=True)
class SupportPage:
    scope: MemoryScope
    switches: Switches
    rejections: tuple[Tally, ...]
    memories: UserMemories
    job_counts: tuple[Tally, ...]
    jobs: tuple[JobLine, ...]
    runs: tuple[RunLine, ...]
    changes: tuple[Change, ...]
    staff_views: tuple[StaffView, ...]


def support_page(*, scope: MemoryScope) -> SupportPage:
    """Everything the support page shows about one user, each section from its selector."""
    return SupportPage(
        scope=scope,
        switches=memory_switches(scope=scope),
        rejections=rejection_counts(scope=scope),
        memories=user_memories(scope=scope),
        job_counts=ingest_job_counts(scope=scope),
        jobs=ingest_jobs(scope=scope),
        runs=explicit_runs(scope=scope),
        changes=scope_changes(scope=scope),
        staff_views=staff_views(scope=scope),
    )
