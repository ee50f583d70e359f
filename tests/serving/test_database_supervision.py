"""The launcher supervises the embedded PostgreSQL like its other children: a postmaster that
stops — fast shutdown (INT), smart shutdown (TERM, which keeps it alive but refusing every new
connection), or killed outright — is brought back by itself, the web processes and the queue
worker recover with it, and nothing written before is lost. Meanwhile every answer is honest:
``/health`` checks a fresh connection, a door answers 503 or ``available: false``."""

from __future__ import annotations

import json
import os
import signal
import time
import urllib.error
import urllib.request

import pytest

from tests.serving.conftest import SCOPE, Running, running_launcher


def postmaster_pid(launcher: Running) -> int | None:
    try:
        first = (launcher.data_dir / "pg" / "postmaster.pid").read_text().split("\n", 1)[0]
    except FileNotFoundError:
        return None
    return int(first) if first.strip().isdigit() else None


def search(launcher: Running, query: str) -> tuple[int, dict]:
    request = urllib.request.Request(
        launcher.url + "/v1/memories/search",
        data=json.dumps({**SCOPE, "query": query}).encode(),
        headers={"Authorization": f"Bearer {launcher.token()}", "Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


def health(launcher: Running) -> tuple[int, dict]:
    try:
        with urllib.request.urlopen(launcher.url + "/health", timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


@pytest.mark.reliability
def test_the_embedded_database_comes_back_after_each_way_it_can_stop(server_data_dir):
    # One launcher for the three stops, in turn: each start warms three models and migrates, and
    # what is tested is the database coming back, each time from the state the last left.
    # One web process, for the same reason.
    with running_launcher(server_data_dir, POCO_WEB_WORKERS="1") as launcher:
        for run, signum in enumerate((signal.SIGINT, signal.SIGTERM, signal.SIGKILL)):
            database_comes_back(launcher, signum, run=run)


def database_comes_back(launcher: Running, signum: int, *, run: int) -> None:
    before = launcher.ingest_and_wait(f"before-{run}", "以后周报统一用简体中文写，结论先行。")
    # After the first stop the same sentence is already remembered: deciding it is enough.
    assert before["status"] in ({"succeeded"} if run == 0 else {"succeeded", "no_effect"}), before
    first = postmaster_pid(launcher)
    assert first is not None

    os.kill(first, signum)
    stopped = time.monotonic()
    answers: list[tuple[str, int, dict]] = []
    recovered = False
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        assert launcher.process.poll() is None, launcher.log.read_text()[-3000:]
        status, body = health(launcher)
        answers.append(("/health", status, body))
        found = search(launcher, "周报用什么语言写")
        answers.append(("search", *found))
        current = postmaster_pid(launcher)
        if status == 200 and current not in (None, first) and found[1].get("available"):
            recovered = True
            break
        time.sleep(0.3)
    log = launcher.log.read_text()
    assert recovered, (answers[-6:], log[-3000:])
    # For the README's figures (pytest -s): how long the doors were down.
    print(f"{signal.Signals(signum).name}: serving again after {time.monotonic() - stopped:.1f} s")

    # While it was down, every door said so honestly.
    assert ("/health", 503, {"status": "unavailable", "database": False}) in answers, answers
    for door, status, body in answers:
        if door == "/health":
            assert (status, body["database"]) in {(200, True), (503, False)}, (door, status, body)
        else:
            assert status in {200, 503}, (door, status, body)
            assert status == 200 or body.get("available") is False, (door, status, body)

    # Nothing written before is lost; the web processes and the worker serve again.
    status, body = search(launcher, "周报用什么语言写")
    assert status == 200 and body["available"] is True, body
    assert any("周报" in item["content"] for item in body["items"]), body
    # The worker decides a new job (what it extracts from one sentence is not the point here).
    after = launcher.ingest_and_wait(f"after-{run}", "我对花生过敏，点餐时注意。")
    assert after["status"] in {"succeeded", "no_effect"} and after["attempts"] >= 1, after
    assert "embedded PostgreSQL" in log and "restart" in log, log[-3000:]
