"""Forgetting is final: one per-scope lock for every writer, deletion marks that
in-flight ingest jobs obey, and nothing created before a delete-user reappearing afterwards.

Everything is real: PostgreSQL, Mem0, the embedder, the offline rules extractor and the
procrastinate worker (a thread here, a separate process in the mid-flight test).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import psycopg
import pytest
from django.db import connection, connections
from procrastinate.contrib.django.models import ProcrastinateJob

from lifecycle.models import IngestJob
from memories import services
from memories.engine import get_engine
from memories.engine.adapter import connection_string_for
from memories.locks import scope_lock_key
from memories.models import AuditEvent, EntityRow, MemoryRow
from memories.types import Actor, ActorKind, DeleteStatus, WriteStatus
from tests.lifecycle.conftest import run_queue
from tests.lifecycle.test_retry_and_durability import worker
from tests.memories.conftest import advisory_lock_waiters, body
from tests.support import eventually

TASK = [
    {
        "role": "user",
        "content": "以后所有技术方案都使用简体中文，项目叫“Poco”。这次先生成一份 HTML 报告。",
    },
    {"role": "assistant", "content": "好的，已生成报告。已确认：Poco 的技术方案统一使用简体中文。"},
]
ACTOR = Actor(kind=ActorKind.USER, id="alice")


def task_for(n: int) -> list[dict[str, str]]:
    """A distinct durable preference per job, so every job really stores something."""
    return [
        {"role": "user", "content": f"以后第{n}号项目的技术方案都使用简体中文，结论先行。"},
        {"role": "assistant", "content": f"好的，已确认：第{n}号项目的技术方案统一使用简体中文。"},
    ]


def dsn() -> str:
    return connection_string_for(connection.settings_dict["NAME"])


def accept(v1, scope, messages=TASK, run_id: str = "") -> str:
    fields: dict[str, Any] = {"source": "task_completed", "messages": messages}
    if run_id:
        fields["run_id"] = run_id
    answer = v1.post("ingest", body(scope, **fields))
    assert answer.status_code == 202, answer.content
    return answer.json()["job_id"]


def in_thread(call: Callable[[], Any]) -> Future:
    def run() -> Any:
        try:
            return call()
        finally:
            connections.close_all()  # this thread's own Django connection

    pool = ThreadPoolExecutor(max_workers=1)
    future = pool.submit(run)
    pool.shutdown(wait=False)
    return future


# --- one lock for every writer ----------------------------------------------------------------
@pytest.fixture
def held_scope_lock(scope) -> Iterator[Callable[[Callable[[], Any]], bool]]:
    """``waits_for_it(call)``: hold the scope's write lock from another session, run ``call`` in
    a thread, and tell whether it queued behind the lock (True) or finished without it."""
    holder = psycopg.connect(dsn(), autocommit=True)
    started: list[Future] = []

    def waits_for_it(call: Callable[[], Any]) -> bool:
        holder.execute("SELECT pg_advisory_lock(hashtextextended(%s, 0))", (scope_lock_key(scope),))
        future = in_thread(call)
        started.append(future)

        def state() -> str | None:
            if advisory_lock_waiters():
                return "waiting"
            return "finished" if future.done() else None

        return eventually(state, what="the call waiting for the scope lock or done") == "waiting"

    try:
        yield waits_for_it
    finally:
        holder.close()  # releases the lock: the waiting call goes on and must end cleanly
        for future in started:
            future.result(timeout=60)


WRITERS: dict[str, Callable[[Any, str], Any]] = {
    "manage add": lambda v1, scope, _id: v1.post(
        "manage", body(scope, action="add", text="用户偏好简洁的回答。")
    ),
    "manage update": lambda v1, scope, memory_id: v1.post(
        "manage", body(scope, action="update", memory_id=memory_id, text="用户偏好详细的回答。")
    ),
    "manage delete": lambda v1, scope, memory_id: v1.post(
        "manage", body(scope, action="delete", memory_id=memory_id)
    ),
    "update-item": lambda v1, scope, memory_id: v1.post(
        "update-item", body(scope, memory_id=memory_id, text="用户偏好详细的回答。")
    ),
    "delete-item": lambda v1, scope, memory_id: v1.post(
        "delete-item", body(scope, memory_id=memory_id)
    ),
    "delete-user": lambda v1, scope, _id: v1.post("delete-user", body(scope)),
}


@pytest.mark.parametrize("writer", list(WRITERS))
def test_every_explicit_writer_takes_the_scope_lock(v1_live, scope, held_scope_lock, writer):
    existing = services.memory_add(scope=scope, text="用户偏好中等长度的回答。", actor=ACTOR)
    assert existing.memory_id
    call = WRITERS[writer]
    waited = held_scope_lock(lambda: call(v1_live, scope, existing.memory_id))
    assert waited, f"{writer} wrote without taking the scope lock"


def test_ingest_extraction_and_adoption_take_the_scope_lock(v1_live, scope, held_scope_lock):
    job_id = accept(v1_live, scope)
    waited = held_scope_lock(run_queue)
    assert waited, "the ingest worker wrote without taking the scope lock"
    assert IngestJob.objects.get(id=job_id).status == IngestJob.Status.RUNNING
    assert not MemoryRow.objects.filter(payload__user_id=scope.key).exists()


# --- deletion marks ---------------------------------------------------------------------------
def assert_forgotten(job: IngestJob) -> None:
    assert job.status == IngestJob.Status.SKIPPED, (job.status, job.reason)
    assert job.reason == "scope_deleted"
    assert job.messages == []
    assert job.memory_ids == [] and job.inserted_count == 0


def test_a_job_accepted_before_delete_user_never_writes(v1_live, scope):
    job_id = accept(v1_live, scope)
    deleted = v1_live.post("delete-user", body(scope))
    assert deleted.status_code == 200 and deleted.json()["status"] == "deleted"
    run_queue()
    assert_forgotten(IngestJob.objects.get(id=job_id))
    assert not MemoryRow.objects.filter(payload__user_id=scope.key).exists()
    assert not AuditEvent.objects.filter(source="ingest").exists()


def test_delete_user_finishes_the_scopes_waiting_jobs_at_once(v1_live, scope, other_scope):
    mine = accept(v1_live, scope)
    theirs = accept(v1_live, other_scope)
    assert v1_live.post("delete-user", body(scope)).json()["status"] == "deleted"
    # Decided before any worker ran: no candidate text waits in the queue for a deleted scope.
    assert_forgotten(IngestJob.objects.get(id=mine))
    assert [j.status for j in ProcrastinateJob.objects.filter(args__job_id=mine)] == ["cancelled"]
    other = IngestJob.objects.get(id=theirs)
    assert other.status == IngestJob.Status.QUEUED and other.messages
    run_queue()
    assert IngestJob.objects.get(id=theirs).status == IngestJob.Status.SUCCEEDED
    assert MemoryRow.objects.filter(payload__user_id=other_scope.key).exists()
    assert not MemoryRow.objects.filter(payload__user_id=scope.key).exists()


def test_a_job_accepted_after_delete_user_writes(v1_live, scope):
    assert v1_live.post("delete-user", body(scope)).json()["status"] == "deleted"
    job_id = accept(v1_live, scope)
    run_queue()
    assert IngestJob.objects.get(id=job_id).status == IngestJob.Status.SUCCEEDED
    assert MemoryRow.objects.filter(payload__user_id=scope.key).exists()


def test_a_job_accepted_before_delete_item_does_not_re_add_the_deleted_fact(v1_live, scope):
    # The same candidate twice: the first job stores the fact, the user deletes it, the second
    # job (accepted before that delete) must not bring it back; a job accepted after may.
    first = accept(v1_live, scope, run_id="r1")
    second = accept(v1_live, scope, run_id="r2")
    run_queue()
    stored = IngestJob.objects.get(id=first)
    assert stored.status == IngestJob.Status.SUCCEEDED, stored.reason
    assert IngestJob.objects.get(id=second).status == IngestJob.Status.NO_EFFECT
    facts = {str(r.id): r.content for r in MemoryRow.objects.filter(payload__user_id=scope.key)}
    assert facts
    again = accept(v1_live, scope, run_id="r3")  # queued before the deletes
    for memory_id in facts:
        deleted = v1_live.post("delete-item", body(scope, memory_id=memory_id)).json()
        assert deleted["status"] == "deleted"
    run_queue()
    job = IngestJob.objects.get(id=again)
    assert job.status in {IngestJob.Status.NO_EFFECT, IngestJob.Status.SKIPPED}, job.reason
    assert job.messages == [] and job.memory_ids == []
    remaining = {r.content for r in MemoryRow.objects.filter(payload__user_id=scope.key)}
    assert not remaining & set(facts.values())
    assert not AuditEvent.objects.filter(run_id="r3").exclude(new_text="").exists()

    later = accept(v1_live, scope, run_id="r4")
    run_queue()
    assert IngestJob.objects.get(id=later).status == IngestJob.Status.SUCCEEDED


@pytest.fixture
def vanishing_facts(transactional_db) -> Iterator[None]:
    """Another writer deletes every extracted fact the moment Mem0 inserts it."""
    get_engine()
    with psycopg.connect(dsn(), autocommit=True) as conn:
        conn.execute(
            "CREATE FUNCTION test_vanish_fn() RETURNS trigger LANGUAGE plpgsql AS $$ "
            "BEGIN DELETE FROM poco_memories WHERE id = NEW.id; RETURN NULL; END $$"
        )
        conn.execute(
            "CREATE TRIGGER test_vanish AFTER INSERT ON poco_memories FOR EACH ROW "
            "WHEN (NEW.payload->>'source' = 'ingest') EXECUTE FUNCTION test_vanish_fn()"
        )
    yield
    with psycopg.connect(dsn(), autocommit=True) as conn:
        conn.execute("DROP TRIGGER IF EXISTS test_vanish ON poco_memories")
        conn.execute("DROP FUNCTION IF EXISTS test_vanish_fn()")


def test_a_fact_that_vanished_under_the_job_ends_it_cleanly(v1_live, scope, vanishing_facts):
    job_id = accept(v1_live, scope)
    run_queue()
    job = IngestJob.objects.get(id=job_id)
    assert job.status == IngestJob.Status.NO_EFFECT, (job.status, job.reason)
    assert job.messages == [] and job.memory_ids == []
    assert not AuditEvent.objects.filter(source="ingest").exists()
    assert [j.status for j in ProcrastinateJob.objects.filter(args__job_id=job_id)] == ["succeeded"]


# --- partial_cleanup is a fact --------------------------------------------------------------
def test_delete_user_with_nothing_left_is_deleted_not_partial(v1_live, scope):
    for text in ("用户偏好简洁的回答。", "用户的团队使用“飞书”沟通。"):
        assert services.memory_add(scope=scope, text=text, actor=ACTOR).status == WriteStatus.ADDED
    outcome = services.memory_delete_user(scope=scope, actor=ACTOR)
    assert outcome.status == DeleteStatus.DELETED and outcome.deleted_count == 2
    assert outcome.remaining_count == 0


# --- the mid-flight proof ---------------------------------------------------------------------
def audit_text_for(scope) -> list[AuditEvent]:
    return list(
        AuditEvent.objects.filter(tenant_id=scope.tenant_id, user_id=scope.user_id).exclude(
            old_text="", new_text=""
        )
    )


def test_delete_user_mid_flight_leaves_nothing_in_any_store(v1_live, scope, other_scope, tmp_path):
    jobs = [accept(v1_live, scope, messages=task_for(n)) for n in range(20)]
    bystander = accept(v1_live, other_scope)
    log = tmp_path / "worker.log"
    with worker(log, "-q", "ingest", "--concurrency", "2") as process:

        def decided(ids: list[str]) -> int:
            assert process.poll() is None, log.read_text()[-3000:]
            return IngestJob.objects.filter(id__in=ids, status__in=IngestJob.FINAL).count()

        eventually(lambda: decided(jobs), until=lambda n: n >= 3, what="3 jobs decided")
        deleted = v1_live.post("delete-user", body(scope))
        assert deleted.status_code == 200, deleted.content
        assert deleted.json()["status"] == "deleted", deleted.json()

        everything = [*jobs, bystander]
        eventually(
            lambda: decided(everything),
            until=lambda n: n == len(everything),
            what="every job decided",
            timeout=120,
        )
        process.terminate()
        process.wait(timeout=30)

    outcomes = {j.status for j in IngestJob.objects.filter(id__in=jobs)}
    assert IngestJob.Status.SKIPPED in outcomes, "the delete did not land mid-flight"
    for job in IngestJob.objects.filter(id__in=jobs):
        assert job.messages == [], job.status
        if job.status == IngestJob.Status.SKIPPED:
            assert job.reason == "scope_deleted"
    # poco_memories and the entity index
    assert not MemoryRow.objects.filter(payload__user_id=scope.key).exists()
    assert not EntityRow.objects.filter(payload__user_id=scope.key).exists()
    # audit: only content-free rows
    assert audit_text_for(scope) == []
    # the queue holds ids, never text
    for queued in ProcrastinateJob.objects.filter(task_name="lifecycle.run_ingest"):
        assert set(queued.args) == {"job_id"}, queued.args
    # the bystander scope kept what it learned
    assert IngestJob.objects.get(id=bystander).status == IngestJob.Status.SUCCEEDED
    assert MemoryRow.objects.filter(payload__user_id=other_scope.key).exists()


def test_a_job_decided_by_another_worker_meanwhile_keeps_its_facts(v1_live, scope):
    """Two deliveries of one job (a live worker taken for dead): the one that waited for the
    scope lock finds the job decided and leaves the adopted, tagged facts alone."""
    job_id = accept(v1_live, scope)
    run_queue()
    done = IngestJob.objects.get(id=job_id)
    assert done.status == IngestJob.Status.SUCCEEDED and done.memory_ids
    # What the second delivery saw when it started: the first still running.
    IngestJob.objects.filter(id=job_id).update(status=IngestJob.Status.RUNNING)
    from lifecycle.tasks import run_ingest

    run_ingest.defer(job_id=job_id)
    with psycopg.connect(dsn(), autocommit=True) as holder:
        holder.execute("SELECT pg_advisory_lock(hashtextextended(%s, 0))", (scope_lock_key(scope),))
        second = in_thread(run_queue)
        eventually(
            lambda: advisory_lock_waiters() or second.done(),
            what="the second delivery waiting for the scope lock",
        )
        assert not second.done(), second.result()
        # Meanwhile the first delivery decides the job.
        IngestJob.objects.filter(id=job_id).update(status=IngestJob.Status.SUCCEEDED)
    second.result(timeout=60)
    job = IngestJob.objects.get(id=job_id)
    assert job.status == IngestJob.Status.SUCCEEDED and job.memory_ids == done.memory_ids
    kept = {str(r.id) for r in MemoryRow.objects.filter(payload__user_id=scope.key)}
    assert kept == set(done.memory_ids)
