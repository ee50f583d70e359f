"""The read selectors behind the staff support page and a memory's change trail
(``edges.support``), called directly: what each returns, in which order, for whom."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

import pytest
from django.utils import timezone as dj_timezone

from edges.support import (
    PREVIEW_CHARS,
    MemoryRef,
    explicit_runs,
    ingest_job_counts,
    ingest_jobs,
    memory_changes,
    memory_refs,
    rejection_counts,
    scope_changes,
    staff_views,
    support_page,
    user_memories,
)
from lifecycle.models import IngestJob, IngestRejection, RunLedger
from memories.instants import read_instant
from memories.labels import rejection_label, source_label
from memories.models import AuditEvent, MemoryRow
from memories.services import memory_switches_update

pytestmark = pytest.mark.django_db

LIN = "“林清”负责“Poco”项目的前端文档评审。"
WANG = "“王磊”每周一更新设计文档。"
NOON = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def owned(scope):
    return {"tenant_id": scope.tenant_id, "user_id": scope.user_id}


def gone() -> str:
    return str(uuid.uuid4())  # a well-formed id no memory has


def test_memory_refs_keep_the_order_and_tell_which_memories_still_exist(alice_scope, remember):
    kept = remember(alice_scope, LIN)
    missing = gone()
    assert memory_refs([missing, uuid.UUID(kept)]) == (
        MemoryRef(id=missing, exists=False),
        MemoryRef(id=kept, exists=True),
    )
    assert memory_refs([]) == ()
    assert MemoryRef(id=kept, exists=True).short_id == kept[:8]


def test_user_memories_counts_all_and_lists_the_newest_of_one_user(
    alice_scope, bob_scope, remember
):
    first = remember(alice_scope, LIN)
    second = remember(alice_scope, "x" * (PREVIEW_CHARS + 30))
    remember(bob_scope, WANG)
    everything = user_memories(scope=alice_scope)
    assert everything.total == 2
    assert [m.ref.id for m in everything.latest] == [second, first]  # newest first
    assert everything.latest[0].preview == "x" * PREVIEW_CHARS
    assert everything.latest[1].source == source_label("manage")
    stored = MemoryRow.objects.get(pk=first).payload["created_at"]
    assert everything.latest[1].created == read_instant(stored)
    newest = user_memories(scope=alice_scope, limit=1)
    assert newest.total == 2 and [m.ref.id for m in newest.latest] == [second]


def test_ingest_jobs_list_the_memories_each_wrote_and_are_counted_by_status(
    alice_scope, bob_scope, remember
):
    kept = remember(alice_scope, LIN)
    missing = gone()
    older = IngestJob.objects.create(
        **owned(alice_scope), run_id="run-1", source="task_completed", status="failed"
    )
    newer = IngestJob.objects.create(
        **owned(alice_scope),
        run_id="run-2",
        source="task_completed",
        status="succeeded",
        memory_ids=[kept, missing],
    )
    IngestJob.objects.create(**owned(alice_scope), source="task_completed", status="succeeded")
    IngestJob.objects.create(**owned(bob_scope), source="task_completed", status="queued")
    IngestJob.objects.filter(pk=older.pk).update(created_at=NOON - timedelta(days=1))
    IngestJob.objects.filter(pk=newer.pk).update(created_at=NOON)

    jobs = ingest_jobs(scope=alice_scope, limit=2)
    assert [j.run_id for j in jobs] == ["", "run-2"]  # the third job is dated now, after NOON
    assert jobs[1].id == str(newer.pk)
    assert jobs[1].status_label == str(IngestJob.Status.SUCCEEDED.label)
    assert jobs[1].memories == (
        MemoryRef(id=kept, exists=True),
        MemoryRef(id=missing, exists=False),
    )
    counts = ingest_job_counts(scope=alice_scope)
    assert [(t.code, t.count) for t in counts] == [("succeeded", 2), ("failed", 1)]
    assert counts[1].label == str(IngestJob.Status.FAILED.label)


def test_rejections_are_counted_by_reason_for_one_user_only(alice_scope, bob_scope):
    for reason in ["credential", "credential", "technical_noise"]:
        IngestRejection.objects.create(**owned(alice_scope), source="task_completed", reason=reason)
    IngestRejection.objects.create(**owned(bob_scope), source="task_completed", reason="credential")
    counts = rejection_counts(scope=alice_scope)
    assert [(t.code, t.count) for t in counts] == [("credential", 2), ("technical_noise", 1)]
    assert [t.label for t in counts] == [
        rejection_label("credential"),
        rejection_label("technical_noise"),
    ]
    assert counts[0].label != "credential"  # a word for staff, not the code


def test_explicit_runs_newest_first_and_limited(alice_scope, bob_scope):
    for n in range(3):
        run = RunLedger.objects.create(
            **owned(alice_scope), run_id=f"run-{n}", explicit_action="add"
        )
        RunLedger.objects.filter(pk=run.pk).update(created_at=NOON + timedelta(minutes=n))
    RunLedger.objects.create(**owned(bob_scope), run_id="run-bob", explicit_action="add")
    runs = explicit_runs(scope=alice_scope, limit=2)
    assert [(r.run_id, r.action, r.created) for r in runs] == [
        ("run-2", "add", NOON + timedelta(minutes=2)),
        ("run-1", "add", NOON + timedelta(minutes=1)),
    ]


def test_changes_leave_out_staff_views_and_come_in_each_pages_order(alice_scope, remember):
    memory_id = remember(alice_scope, LIN)
    added = AuditEvent.objects.get(memory_id=memory_id, event="ADD")
    AuditEvent.objects.create(
        **owned(alice_scope),
        memory_id=memory_id,
        event="UPDATE",
        actor_kind="staff",
        actor_id="admin",
        source="admin",
        old_text="旧",
        new_text="新",
        created_at=added.created_at + timedelta(minutes=5),
    )
    AuditEvent.objects.create(
        **owned(alice_scope),
        memory_id=memory_id,
        event="VIEW",
        actor_kind="staff",
        actor_id="admin",
        page="memory",
        created_at=added.created_at + timedelta(minutes=10),
    )
    trail = memory_changes(memory_id=memory_id)
    assert [c.event for c in trail] == ["ADD", "UPDATE"]  # oldest first, no VIEW
    update = trail[1]
    assert update.event_name == "更新"
    assert (update.actor, update.source, update.old_text, update.new_text) == (
        "管理员 admin",
        source_label("admin"),
        "旧",
        "新",
    )
    assert update.memory == MemoryRef(id=memory_id, exists=True)
    newest_first = scope_changes(scope=alice_scope)
    assert [c.event for c in newest_first] == ["UPDATE", "ADD"]
    assert [c.event for c in scope_changes(scope=alice_scope, limit=1)] == ["UPDATE"]


def test_staff_views_name_the_page_and_the_memory_when_there_is_one(alice_scope):
    missing = gone()
    for minutes, page, memory_id in [(0, "memory", missing), (1, "memory_list", None)]:
        AuditEvent.objects.create(
            **owned(alice_scope),
            memory_id=memory_id,
            event="VIEW",
            actor_kind="staff",
            actor_id="admin",
            page=page,
            created_at=NOON + timedelta(minutes=minutes),
        )
    views = staff_views(scope=alice_scope)
    assert [(v.page, v.memory) for v in views] == [
        ("记忆列表", None),
        ("记忆详情", MemoryRef(id=missing, exists=False)),
    ]
    assert views[0].actor == "管理员 admin"
    assert dj_timezone.localtime(views[1].when) == dj_timezone.localtime(NOON)


def test_support_page_gathers_every_section_for_the_user(alice_scope, bob_scope, remember):
    remember(alice_scope, LIN)
    memory_switches_update(scope=alice_scope, memory_save_enabled=False)
    IngestRejection.objects.create(**owned(bob_scope), source="task_completed", reason="credential")
    page = support_page(scope=alice_scope)
    assert page.scope == alice_scope
    assert (page.switches.memory_save_enabled, page.switches.memory_reference_enabled) == (
        False,
        True,
    )
    assert page.memories.total == 1 and [c.event for c in page.changes] == ["ADD"]
    assert (page.rejections, page.jobs, page.job_counts, page.runs, page.staff_views) == (
        (),
        (),
        (),
        (),
        (),
    )
    untouched = support_page(scope=bob_scope)  # no settings row: both switches on
    assert untouched.switches.memory_save_enabled and untouched.switches.memory_reference_enabled
