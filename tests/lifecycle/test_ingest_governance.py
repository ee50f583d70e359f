"""Ingested facts follow the same governance as explicit adds: they are
inferences (confidence 0.7), the extractor proposes a memory_key, a new value supersedes an
older inference, never an explicit statement, and a restatement is a NOOP. Real worker."""

from __future__ import annotations

import pytest

from lifecycle.models import IngestJob
from memories.governance import INFERRED_CONFIDENCE
from memories.models import AuditEvent, MemoryRow
from memories.services import propose_key
from tests.lifecycle.conftest import run_queue
from tests.memories.conftest import body

KEY = "preference.answer_language"


def ingest(v1, scope, run_id: str, said: str) -> IngestJob:
    messages = [{"role": "user", "content": said}, {"role": "assistant", "content": "好的。"}]
    answer = v1.post(
        "ingest", body(scope, run_id=run_id, source="task_completed", messages=messages)
    )
    assert answer.status_code == 202, answer.content
    run_queue()
    return IngestJob.objects.get(id=answer.json()["job_id"])


def current(scope) -> list[tuple[str, str]]:
    rows = MemoryRow.objects.filter(payload__user_id=scope.key, payload__status="active")
    return sorted((r.content, str(r.payload.get("memory_key") or "")) for r in rows)


@pytest.mark.parametrize(
    ("fact", "key"),
    [
        ("以后都用英文回答我", KEY),
        ("回答问题时用简体中文", KEY),
        ("User wants answers in English from now on", KEY),
        ("用户住在杭州", "profile.home_city"),
        ("以后技术方案都使用简体中文", ""),  # the documents' language, not the answers'
        ("用户喜欢喝绿茶", ""),
    ],
)
def test_the_extractor_proposes_only_keys_it_recognises(fact, key):
    assert propose_key(fact) == key


def test_a_new_inferred_value_supersedes_the_old_inference(v1_live, scope):
    first = ingest(v1_live, scope, "run-1", "以后都用中文回答我。")
    assert first.status == IngestJob.Status.SUCCEEDED
    [old] = first.memory_ids
    stored = MemoryRow.objects.get(id=old).payload
    assert (stored["memory_key"], stored["confidence"]) == (KEY, INFERRED_CONFIDENCE)
    assert stored["source_ref"] == "run-1"

    second = ingest(v1_live, scope, "run-2", "以后都用英文回答我。")
    assert second.status == IngestJob.Status.SUCCEEDED
    assert MemoryRow.objects.get(id=old).payload["superseded_by"] == second.memory_ids[0]
    assert current(scope) == [("以后都用英文回答用户。", KEY)]


def test_an_inference_never_replaces_what_the_user_said(v1_live, scope):
    said = v1_live.post(
        "manage", body(scope, action="add", text="以后默认用中文回答", memory_key=KEY)
    ).json()
    job = ingest(v1_live, scope, "run-3", "以后都用英文回答我。")
    assert job.status == IngestJob.Status.NO_EFFECT and job.memory_ids == []
    assert current(scope) == [("以后默认用中文回答", KEY)]
    noop = AuditEvent.objects.get(event="NOOP")
    assert (str(noop.memory_id), noop.status) == (said["memory_id"], "explicit_statement_kept")


def test_an_ingested_restatement_is_a_noop(v1_live, scope):
    kept = v1_live.post(
        "manage", body(scope, action="add", text="用户偏好简体中文的技术方案")
    ).json()
    job = ingest(v1_live, scope, "run-4", "我一直偏好简体中文的技术方案。")
    assert job.status == IngestJob.Status.NO_EFFECT
    assert MemoryRow.objects.filter(payload__user_id=scope.key).count() == 1
    noop = AuditEvent.objects.get(event="NOOP")
    assert (str(noop.memory_id), noop.status) == (kept["memory_id"], "duplicate")
