"""Who may write, when: scheduled runs, the save switch, the run ledger,
admission on /manage, and who may read an ingest job."""

from __future__ import annotations

import uuid

import pytest

from lifecycle.models import IngestJob, RunLedger
from memories import services
from memories.engine import get_engine
from memories.models import AuditEvent, MemoryRow
from memories.types import Actor, ActorKind, DeleteStatus, Source, WriteStatus
from tests.memories.conftest import assert_error, body

TASK = [
    {"role": "user", "content": "以后所有技术方案都使用简体中文，优先考虑易维护性。"},
    {"role": "assistant", "content": "好的，已确认：后续技术方案统一使用简体中文。"},
]
KEPT = "用户偏好简洁直接的回答。"
TOKEN_TEXT = "我的 GitHub token 是 ghp_k8Qz2LmX9vTq4RbN7wYc1JdE5hFs3GpA6uVo，以后用它推送代码。"
CONSOLE_USER = Actor(kind=ActorKind.USER, id="alice")


@pytest.fixture
def existing(scope, agent) -> str:
    outcome = services.memory_add(scope=scope, text=KEPT, actor=agent)
    assert outcome.status == WriteStatus.ADDED
    return str(outcome.memory_id)


def snapshot(scope) -> list[tuple[str, str]]:
    rows = MemoryRow.objects.filter(payload__user_id=scope.key).order_by("id")
    return [(str(r.id), r.content) for r in rows]


def agent_writes(memory_id: str) -> list[dict]:
    return [
        {"action": "add", "text": "用户习惯每周一整理周报。"},
        {"action": "update", "memory_id": memory_id, "text": "用户偏好详细的回答。"},
        {"action": "delete", "memory_id": memory_id},
    ]


def ingest(v1, scope, run_id: str, **extra):
    return v1.post(
        "ingest",
        body(scope, run_id=run_id, source="task_completed", messages=TASK, **extra),
    )


# How callers spell the scheduled kinds: any case, hyphen or underscore, as ingest sources are
# read. "Scheduled" and "NIGHTLY" slipped past an exact comparison.
SCHEDULED_SPELLINGS = [
    "scheduled", "scheduled_backfill", "nightly", "Scheduled", "NIGHTLY", "scheduled-backfill",
]  # fmt: skip


# --- scheduled runs and the save switch --------------------------------------------------------
@pytest.mark.parametrize("run_kind", SCHEDULED_SPELLINGS)
def test_scheduled_runs_never_write_whatever_the_switch_says(v1, scope, existing, run_kind):
    services.memory_switches_update(scope=scope, memory_save_enabled=True)
    before = snapshot(scope)
    audit_before = AuditEvent.objects.count()
    for index, write in enumerate(agent_writes(existing)):
        run_id = f"{run_kind}-{index}"
        answer = v1.post("manage", body(scope, run_id=run_id, run_kind=run_kind, **write))
        assert answer.status_code == 200
        assert answer.json()["success"] is False
        assert answer.json()["status"] == "refused"
        assert answer.json()["reason"] == "scheduled_run"
        assert RunLedger.objects.filter(run_id=run_id).exists()
    assert snapshot(scope) == before
    assert AuditEvent.objects.count() == audit_before

    refused = ingest(v1, scope, f"{run_kind}-ingest", run_kind=run_kind).json()
    assert (refused["status"], refused["reason"]) == ("skipped", "scheduled_run")
    assert not IngestJob.objects.exists()


def test_switch_off_refuses_the_agent_but_not_the_user(v1, scope, existing):
    services.memory_switches_update(scope=scope, memory_save_enabled=False)
    before = snapshot(scope)
    for write in agent_writes(existing):
        answer = v1.post("manage", body(scope, **write)).json()
        assert answer["success"] is False, write
        assert (answer["status"], answer["reason"]) == ("refused", "memory_save_disabled")
    assert snapshot(scope) == before  # refusing never deletes history either

    # The user can still correct and forget through the console path.
    corrected = services.memory_update(
        scope=scope,
        memory_id=existing,
        text="用户偏好详细的回答。",
        actor=CONSOLE_USER,
        source=Source.CONSOLE,
    )
    assert corrected.status == WriteStatus.UPDATED
    assert snapshot(scope) == [(existing, "用户偏好详细的回答。")]
    deleted = services.memory_delete(
        scope=scope, memory_id=existing, actor=CONSOLE_USER, source=Source.CONSOLE
    )
    assert deleted.status == DeleteStatus.DELETED
    assert snapshot(scope) == []
    assert get_engine().entity_links(memory_id=existing) == 0


# --- admission on /manage ------------------------------------------------------------------------
def test_manage_with_a_credential_is_rejected_whole(v1, scope, existing):
    before = snapshot(scope)
    for write in (
        {"action": "add", "text": TOKEN_TEXT},
        {"action": "update", "memory_id": existing, "text": TOKEN_TEXT},
    ):
        answer = v1.post("manage", body(scope, **write))
        assert answer.status_code == 200
        assert answer.json()["success"] is False
        assert (answer.json()["status"], answer.json()["reason"]) == ("rejected", "credential")
        assert b"ghp_" not in answer.content
    assert snapshot(scope) == before
    assert not AuditEvent.objects.filter(new_text__contains="ghp_").exists()


@pytest.mark.parametrize(
    ("text", "kept", "cut"),
    [
        (
            "用户的周报模板放在 /home/alice/docs/weekly.md 里，每周一提交给林清。",
            ["周报模板", "每周一提交给林清"],
            ["/home", "weekly.md"],
        ),
        (
            "用户写文档时参考 https://wiki.example.com/poco 上的团队规范。",
            ["用户写文档时参考", "团队规范"],
            ["https", "example.com"],
        ),
        (
            r"User keeps release notes in C:\Users\alice\notes\release.md and writes them weekly.",
            ["User keeps release notes", "writes them weekly"],
            ["C:\\", "release.md"],
        ),
    ],
    ids=["unix_path", "url", "windows_path"],
)
def test_manage_cuts_paths_and_urls_but_keeps_the_sentence(v1, scope, text, kept, cut):
    answer = v1.post("manage", body(scope, action="add", text=text)).json()
    assert answer["success"] is True and answer["status"] == "added", answer
    [(memory_id, stored)] = snapshot(scope)
    assert memory_id == answer["memory_id"]
    for part in kept:
        assert part in stored, stored
    for part in cut:
        assert part not in stored, stored


def test_manage_update_is_cleaned_too(v1, scope, existing):
    answer = v1.post(
        "manage",
        body(
            scope,
            action="update",
            memory_id=existing,
            text="用户偏好把方案发到 https://docs.example.com/a 之后再评审。",
        ),
    ).json()
    assert answer["status"] == "updated", answer
    assert snapshot(scope) == [(existing, "用户偏好把方案发到之后再评审。")]


# --- the ledger: any legal /manage call makes the run's auto-ingest skip -------------------------
def _refused_by_switch(v1, scope, other_scope, run_id):
    services.memory_switches_update(scope=scope, memory_save_enabled=False)
    answer = v1.post("manage", body(scope, action="add", text=KEPT, run_id=run_id)).json()
    services.memory_switches_update(scope=scope, memory_save_enabled=True)
    return answer


def _rejected_credential(v1, scope, other_scope, run_id):
    return v1.post("manage", body(scope, action="add", text=TOKEN_TEXT, run_id=run_id)).json()


def _delete_not_found(v1, scope, other_scope, run_id):
    missing = str(uuid.uuid4())
    return v1.post("manage", body(scope, action="delete", memory_id=missing, run_id=run_id)).json()


def _update_forbidden(v1, scope, other_scope, run_id):
    theirs = services.memory_add(
        scope=other_scope, text="鲍勃喜欢长篇回答。", actor=CONSOLE_USER
    ).memory_id
    answer = v1.post(
        "manage",
        body(scope, action="update", memory_id=theirs, text=KEPT, run_id=run_id),
    )
    assert answer.status_code == 403
    return answer.json()


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        (_refused_by_switch, ("refused", "memory_save_disabled")),
        (_rejected_credential, ("rejected", "credential")),
        (_delete_not_found, ("not_found", "not_found")),
        (_update_forbidden, ("forbidden", None)),
    ],
    ids=["refused", "rejected", "not_found", "forbidden"],
)
def test_a_failed_manage_call_still_claims_the_run(v1, scope, other_scope, call, expected):
    answer = call(v1, scope, other_scope, "run-claimed")
    assert answer["success"] is False
    assert (answer["status"], answer["reason"]) == expected
    assert RunLedger.objects.filter(
        tenant_id=scope.tenant_id, user_id=scope.user_id, run_id="run-claimed"
    ).exists()

    skipped = ingest(v1, scope, "run-claimed").json()
    assert skipped == {
        "accepted": False,
        "status": "skipped",
        "job_id": None,
        "reason": "skipped_explicit_writer",
    }
    assert not IngestJob.objects.exists()
    # Another run of the same user, and the same run id of another user, are not claimed.
    assert ingest(v1, scope, "run-other").json()["status"] == "queued"
    assert ingest(v1, other_scope, "run-claimed").json()["status"] == "queued"
    assert snapshot(scope) == []


# --- reading an ingest job ---------------------------------------------------------------------
def test_ingest_status_is_for_its_owner_only(v1, scope, other_scope):
    job_id = ingest(v1, scope, "run-private").json()["job_id"]

    def status_as(who, job):
        return v1.client.get(
            f"/v1/memories/ingest/{job}", {"tenant_id": who.tenant_id, "user_id": who.user_id}
        )

    mine = status_as(scope, job_id)
    assert mine.status_code == 200 and mine.json()["run_id"] == "run-private"

    theirs = status_as(other_scope, job_id)
    assert theirs.status_code == 403
    assert_error(theirs, 403, "forbidden")
    assert b"run-private" not in theirs.content and job_id.encode() not in theirs.content

    unknown = status_as(scope, uuid.uuid4())
    assert unknown.status_code == 404
    assert_error(unknown, 404, "not_found")
