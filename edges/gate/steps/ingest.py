"""Ingest through the queue worker: stable facts extracted, a one-off task yields nothing, one
writer per run."""

from __future__ import annotations

import time

from edges.gate.fixtures import (
    INGEST_ONE_OFF,
    INGEST_TASK,
    INGEST_WAIT_SECONDS,
    LIFECYCLE_SECOND,
)
from edges.gate.harness import Gate, Step
from edges.gate.service import Answer, Scope


def ingest_job(gate: Gate, scope: Scope, run_id: str, messages: list[dict[str, str]]) -> Answer:
    """Send an ingest and wait for the queue worker's final state."""
    accepted = gate.service.v1(
        "ingest", scope.body(run_id=run_id, source="task_completed", messages=messages)
    )
    job_id = accepted.get("job_id")
    if accepted.status != 202 or not job_id:
        return accepted
    path = f"/v1/memories/ingest/{job_id}?tenant_id={scope.tenant_id}&user_id={scope.user_id}"
    deadline = time.monotonic() + INGEST_WAIT_SECONDS
    while True:
        state = gate.service.call("GET", path)
        if state.get("status") not in {"queued", "running", "retrying"}:
            return state
        if time.monotonic() > deadline:
            return Answer(state.status, {**state.body, "waited": INGEST_WAIT_SECONDS})
        time.sleep(0.5)


def ingest(gate: Gate) -> None:
    scope = gate.scope("ingest")
    done = ingest_job(gate, scope, "gate-run-1", INGEST_TASK)
    stored = [m["content"] for m in gate.listed(scope)]
    gate.check(
        "ingest.extracts_stable_facts",
        done.get("status") == "succeeded"
        and any("简体中文" in text for text in stored)
        and not any("这次" in text for text in stored),
        f"job {done.get('status')} ({done.get('reason')}); stored {stored!r}",
    )
    gate.service.v1("delete-user", scope.body())
    one_off = ingest_job(gate, scope, "gate-run-2", INGEST_ONE_OFF)
    stored = [m["content"] for m in gate.listed(scope)]
    gate.check(
        "ingest.one_off_yields_nothing",
        one_off.get("status") == "no_effect" and not stored,
        f"job {one_off.get('status')} ({one_off.get('reason')}); stored {stored!r}",
    )
    gate.service.v1("manage", scope.body(action="add", text=LIFECYCLE_SECOND, run_id="gate-run-3"))
    skipped = ingest_job(gate, scope, "gate-run-3", INGEST_TASK)
    stored = [m["content"] for m in gate.listed(scope)]
    gate.check(
        "ingest.one_writer_per_run",
        skipped.get("status") == "skipped" and stored == [LIFECYCLE_SECOND],
        f"ingest after an explicit manage of the run: {skipped.get('status')} "
        f"({skipped.get('reason')}); stored {stored!r}",
    )


STEP = Step("ingest", ingest)
