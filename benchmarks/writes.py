"""Writes measured over HTTP and in process: explicit adds at three scope sizes, concurrent adds
to one scope, ingest through the queue worker, delete-user with its clean-up checked, and the
resident memory of the server's processes."""

from __future__ import annotations

import contextlib
import json
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from benchmarks.scale import (
    ADD_SAMPLES,
    CONCURRENT_ADDS,
    INGEST_JOBS,
    TENANT,
    percentiles,
    scope_of,
    timed,
)
from benchmarks.server import Client, body


def adds_http(results: dict[str, Any], sizes: dict[str, int]) -> None:
    from benchmarks import corpus
    from memories.engine import get_engine

    client = Client()
    for user, label in (("small", "100"), ("medium", "2000"), ("heavy", "20000")):
        samples: list[float] = []
        for text in corpus.texts(seed=1000 + sizes[user], count=ADD_SAMPLES, start=10**6):
            ms, (status, answer) = timed(
                lambda text=text, user=user: client.post(
                    "manage", body(user, action="add", text=text)
                )
            )
            assert status == 200 and answer["status"] == "added", answer
            samples.append(ms)
        results |= percentiles(f"add_http_{label}", samples)
        results[f"add_http_{label}_scope_size"] = sizes[user]
    # Mem0's own in-process add of the same kind of text (no entity linking: infer=False).
    engine = get_engine()
    key = scope_of("mem0-own-add").key
    own = [
        timed(
            lambda text=text: engine._memory.add(
                [{"role": "user", "content": text}], user_id=key, infer=False
            )
        )[0]
        for text in corpus.texts(seed=7, count=ADD_SAMPLES, start=2 * 10**6)
    ]
    results |= percentiles("add_mem0_inprocess", own)
    add_with_and_without_second(results)


def add_with_and_without_second(results: dict[str, Any]) -> None:
    """The product's add into the heavy user in process, with its second vector and without
    (the second model off), alternating: what the second vector costs an add, same run."""
    from django.test import override_settings

    from benchmarks import corpus
    from memories.services import memory_add
    from memories.types import Actor, ActorKind

    scope = scope_of("heavy")
    actor = Actor(kind=ActorKind.SYSTEM, id="bench")
    texts = list(corpus.texts(seed=11, count=2 * ADD_SAMPLES, start=4 * 10**6))
    withs: list[float] = []
    withouts: list[float] = []
    for n, text in enumerate(texts):
        add = lambda text=text: memory_add(scope=scope, text=text, actor=actor)  # noqa: E731
        if n % 2:
            with override_settings(SECOND_MODEL="off"):
                withouts.append(timed(add)[0])
        else:
            withs.append(timed(add)[0])
    results |= percentiles("add_inprocess_20000_with_second", withs)
    results |= percentiles("add_inprocess_20000_without_second", withouts)


def concurrent_adds(results: dict[str, Any]) -> None:
    from benchmarks import corpus
    from memories.models import MemoryRow

    user = "concurrent"
    texts = list(corpus.texts(seed=99, count=CONCURRENT_ADDS, start=3 * 10**6))

    def add(text: str) -> str:
        status, answer = Client().post("manage", body(user, action="add", text=text))
        assert status == 200, answer
        return str(answer["status"])

    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=CONCURRENT_ADDS) as pool:
        statuses = list(pool.map(add, texts))
    results["concurrent_adds_50_total_ms"] = round((time.perf_counter() - started) * 1000, 1)
    stored = [
        r.payload["data"] for r in MemoryRow.objects.filter(payload__user_id=scope_of(user).key)
    ]
    results["concurrent_adds_50_each_stored_once"] = statuses == ["added"] * CONCURRENT_ADDS and (
        len(stored) == CONCURRENT_ADDS and len(set(stored)) == CONCURRENT_ADDS
    )


def ingest(results: dict[str, Any]) -> None:
    client = Client()
    jobs = []
    started = time.perf_counter()
    for n in range(INGEST_JOBS):
        messages = [
            {"role": "user", "content": f"以后第{n}号项目的技术方案都使用简体中文，结论先行。"},
            {
                "role": "assistant",
                "content": f"好的，已确认：第{n}号项目的技术方案统一使用简体中文。",
            },
        ]
        status, answer = client.post(
            "ingest",
            body("ingest", run_id=f"run-{n}", source="task_completed", messages=messages),
        )
        assert status == 202, answer
        jobs.append(answer["job_id"])
    final = {"succeeded", "no_effect", "skipped", "failed"}
    pending = set(jobs)
    outcomes: dict[str, str] = {}
    while pending:
        assert time.perf_counter() - started < 600, f"{len(pending)} ingest jobs never finished"
        for job in list(pending):
            status, data = client.get(
                f"/v1/memories/ingest/{job}?tenant_id={TENANT}&user_id=ingest"
            )
            state = json.loads(data)["status"]
            if state in final:
                outcomes[job] = state
                pending.discard(job)
        time.sleep(0.2)
    results["ingest_jobs_per_s"] = round(INGEST_JOBS / (time.perf_counter() - started), 2)
    results["ingest_jobs_succeeded"] = sum(1 for s in outcomes.values() if s == "succeeded")


def delete_user(results: dict[str, Any], user: str, label: str) -> None:
    from memories.models import AuditEvent, EntityRow, MemoryRow

    key = scope_of(user).key
    ms, (status, answer) = timed(lambda: Client().post("delete-user", body(user)))
    assert status == 200, answer
    left = (
        MemoryRow.objects.filter(payload__user_id=key).count()
        + EntityRow.objects.filter(payload__user_id=key).count()
        + AuditEvent.objects.filter(tenant_id=TENANT, user_id=user)
        .exclude(old_text="", new_text="")
        .count()
    )
    results[f"delete_user_{label}_ms"] = round(ms, 1)
    results[f"delete_user_{label}_deleted"] = int(answer["deleted_count"])
    results[f"delete_user_{label}_left_anywhere"] = left


def resident_memory(results: dict[str, Any], launcher: subprocess.Popen[bytes]) -> None:
    import psutil

    web: list[float] = []
    worker: list[float] = []
    for child in psutil.Process(launcher.pid).children(recursive=True):
        with contextlib.suppress(psutil.Error):
            cmdline = " ".join(child.cmdline())
            rss = child.memory_info().rss / 2**20
            if "poco_memory.launcher web" in cmdline:
                web.append(rss)
            elif "procrastinate" in cmdline:
                worker.append(rss)
    results["rss_web_process_mb"] = round(max(web, default=0.0), 1)
    results["rss_web_processes"] = len(web)
    results["rss_worker_process_mb"] = round(max(worker, default=0.0), 1)
