"""POST /v1/memories/ingest: admission now, extraction in a real queue worker."""

from __future__ import annotations

import pytest

from lifecycle.models import IngestJob
from memories.models import AuditEvent, MemoryRow
from tests.lifecycle.conftest import run_queue
from tests.memories.conftest import body

TASK = [
    {
        "role": "user",
        "content": "以后所有技术方案都使用简体中文，项目叫“Poco”。这次先生成一份 HTML 报告。",
    },
    {"role": "assistant", "content": "好的，已生成报告。已确认：Poco 的技术方案统一使用简体中文。"},
]


def status_of(v1, scope, job_id):
    response = v1.client.get(
        f"/v1/memories/ingest/{job_id}", {"tenant_id": scope.tenant_id, "user_id": scope.user_id}
    )
    assert response.status_code == 200, response.content
    return response.json()


def test_ingest_is_queued_then_extracted_by_the_worker(v1_live, scope):
    accepted = v1_live.post(
        "ingest", body(scope, run_id="run-1", source="task_completed", messages=TASK)
    )
    assert accepted.status_code == 202
    job_id = accepted.json()["job_id"]
    assert status_of(v1_live, scope, job_id)["status"] == "queued"
    assert MemoryRow.objects.count() == 0

    run_queue()

    done = status_of(v1_live, scope, job_id)
    assert done["status"] == "succeeded", done
    assert done["inserted_count"] == len(done["memory_ids"]) >= 1
    stored = {r.content: r for r in MemoryRow.objects.all()}
    assert all("这次" not in text for text in stored), "a one-off request was stored"
    assert any("简体中文" in text for text in stored)
    for row in stored.values():
        assert row.payload["source"] == "ingest"
        assert row.payload["origin_run_id"] == "run-1"
        assert row.payload["attributed_to"] in {"user", "assistant"}
    assert AuditEvent.objects.filter(event="ADD", source="ingest").count() == len(stored)
    assert IngestJob.objects.get(id=job_id).messages == []


def test_only_one_off_requests_is_no_effect(v1_live, scope):
    messages = [
        {"role": "user", "content": "这次帮我把报告发给林清。"},
        {"role": "assistant", "content": "好的，今天下午已经发送。"},
    ]
    job_id = v1_live.post("ingest", body(scope, messages=messages)).json()["job_id"]
    run_queue()
    assert status_of(v1_live, scope, job_id)["status"] == "no_effect"
    assert MemoryRow.objects.count() == 0


def test_legacy_text_shape_is_accepted(v1_live, scope):
    accepted = v1_live.post("ingest", body(scope, text="I always prefer Python type hints."))
    assert accepted.status_code == 202
    run_queue()
    assert status_of(v1_live, scope, accepted.json()["job_id"])["status"] == "succeeded"
    assert "Python type hints" in MemoryRow.objects.get().content


@pytest.mark.parametrize(
    ("extra", "reason"),
    [
        ({"source": "session_end"}, "snapshot_source"),
        ({"source": "session_state"}, "session_state"),
        ({"run_kind": "nightly"}, "scheduled_run"),
        ({"run_kind": "scheduled"}, "scheduled_run"),
        ({"run_kind": "Nightly"}, "scheduled_run"),
        ({"run_kind": "scheduled-backfill"}, "scheduled_run"),
    ],
)
def test_refused_candidates_are_never_queued(v1_live, scope, extra, reason):
    answer = v1_live.post("ingest", body(scope, messages=TASK, **extra))
    assert answer.status_code == 200
    assert answer.json()["accepted"] is False and answer.json()["reason"] == reason
    assert not IngestJob.objects.exists()


def test_credential_rejects_the_whole_batch(v1_live, scope):
    messages = [
        TASK[0],
        {
            "role": "assistant",
            "content": "已配置 OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuvwx1234",
        },
    ]
    answer = v1_live.post("ingest", body(scope, messages=messages)).json()
    assert answer == {
        "accepted": False,
        "status": "rejected",
        "job_id": None,
        "reason": "credential",
    }
    assert not IngestJob.objects.exists()


def test_save_switch_off_refuses_ingest_and_manage(v1_live, scope):
    from memories.services import memory_switches_update

    memory_switches_update(scope=scope, memory_save_enabled=False)
    ingest = v1_live.post("ingest", body(scope, messages=TASK)).json()
    assert ingest["reason"] == "memory_save_disabled"
    manage = v1_live.post("manage", body(scope, action="add", text="用户喜欢简洁回答。")).json()
    assert manage["success"] is False and manage["reason"] == "memory_save_disabled"
    assert MemoryRow.objects.count() == 0


def test_manage_makes_the_run_skip_later_ingest(v1_live, scope):
    manage = v1_live.post("manage", body(scope, action="none", run_id="run-7")).json()
    assert manage["success"] is True
    answer = v1_live.post("ingest", body(scope, run_id="run-7", messages=TASK)).json()
    assert answer["status"] == "skipped" and answer["reason"] == "skipped_explicit_writer"


def test_manage_after_ingest_queued_makes_the_job_skip(v1_live, scope):
    job_id = v1_live.post("ingest", body(scope, run_id="run-8", messages=TASK)).json()["job_id"]
    v1_live.post(
        "manage",
        body(
            scope, action="delete", run_id="run-8", memory_id="00000000-0000-4000-8000-000000000000"
        ),
    )
    run_queue()
    final = status_of(v1_live, scope, job_id)
    assert final["status"] == "skipped" and final["reason"] == "skipped_explicit_writer"
    assert MemoryRow.objects.count() == 0
