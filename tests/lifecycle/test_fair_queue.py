"""One tenant's big ingests do not hold another tenant's small one (``make reliability``): a
real worker process on the one ingest queue, the real database; only the LLM is a local fake."""

from __future__ import annotations

import threading

import pytest

from lifecycle.models import IngestJob
from memories.scope import scope_of
from memories.types import MemoryScope
from tests.lifecycle.fake_llm import FakeLLM, fact
from tests.lifecycle.test_reliability import llm_env, wait_for
from tests.lifecycle.test_retry_and_durability import worker
from tests.memories.conftest import body

pytestmark = pytest.mark.reliability

TENANT_A = scope_of(tenant_id="tenant-a", user_id="writer")
TENANT_B = scope_of(tenant_id="tenant-b", user_id="reader")
# About 100,000 characters: a long task transcript, well within the ingest bounds.
BIG = [
    {
        "role": "user" if n % 2 == 0 else "assistant",
        "content": f"第{n}段：" + "项目评审记录。" * 700,
    }
    for n in range(20)
]
SMALL = [
    {"role": "user", "content": "以后都用简体中文回答我。"},
    {"role": "assistant", "content": "好的，以后都用简体中文回答。"},
]


def ingest(v1, scope: MemoryScope, run_id: str, messages: list[dict[str, str]]) -> str:
    answer = v1.post(
        "ingest", body(scope, run_id=run_id, source="task_completed", messages=messages)
    )
    assert answer.status_code == 202, answer.content
    return answer.json()["job_id"]


def test_a_small_ingest_of_another_tenant_runs_before_a_tenants_second_big_one(v1_live, tmp_path):
    running, release = threading.Event(), threading.Event()

    def first_big(_body):
        running.set()
        release.wait(timeout=120)  # tenant A's first job is on the worker while B arrives
        return [fact("用户偏好项目评审记录使用简体中文")]

    llm = FakeLLM([first_big], then=[fact("用户偏好简体中文回答")]).start()
    log = tmp_path / "worker.log"
    try:
        a1 = ingest(v1_live, TENANT_A, "a-1", BIG)
        a2 = ingest(v1_live, TENANT_A, "a-2", BIG)
        with worker(log, "-q", "ingest", env=llm_env(llm)) as process:
            wait_for(running.is_set, timeout=120, what="A's first job never ran", log=log)
            b = ingest(v1_live, TENANT_B, "b-1", SMALL)
            release.set()
            jobs = (a1, a2, b)
            wait_for(
                lambda: (
                    IngestJob.objects.filter(id__in=jobs, status__in=IngestJob.FINAL).count() == 3
                ),
                timeout=180,
                what="the jobs never finished",
                log=log,
            )
            process.terminate()
            process.wait(timeout=30)
    finally:
        release.set()
        llm.close()

    # The worker asked the LLM for A's first job, then B's, then A's second.
    tenants = ["a" if "第0段" in prompt else "b" for prompt in llm.prompts]
    assert tenants == ["a", "b", "a"], [prompt[:200] for prompt in llm.prompts]
    decided = {str(job.id): job for job in IngestJob.objects.filter(id__in=jobs)}
    assert all(job.status == IngestJob.Status.SUCCEEDED for job in decided.values())
    assert decided[b].updated_at < decided[a2].updated_at
