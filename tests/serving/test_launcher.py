"""`make run`: uvicorn web processes and a queue worker under a supervisor that restarts them."""

from __future__ import annotations

import os
import re
import signal
import time

import psutil
import pytest

from tests.processes import get, wait_healthy
from tests.serving.conftest import SCOPE, Running
from tests.support import eventually


def test_make_run_serves_through_uvicorn_and_stops_cleanly(launcher):
    """What `make run` runs: migrate, several uvicorn processes, WhiteNoise, the worker."""
    web = launcher.children("poco_memory.launcher web")
    assert len(web) >= 2
    assert len(launcher.children("procrastinate worker")) == 1

    status, headers, body = get(launcher.url + "/accounts/login/")
    assert status == 200
    assert "no-store" in headers["Cache-Control"]
    assert "script-src 'self'" in headers["Content-Security-Policy"]
    stylesheet = re.search(r'href="(/static/[^"]+\.css)"', body.decode())
    assert stylesheet, "the login page links its style sheet"
    status, headers, _ = get(launcher.url + stylesheet.group(1))
    assert status == 200 and headers["Content-Type"].startswith("text/css")
    assert "max-age" in headers["Cache-Control"]  # served by WhiteNoise, cacheable

    status, _, body = get(launcher.url + "/no-such-page/")
    assert status == 404  # DEBUG is off: the console's page, not Django's debug 404
    assert "页面不存在" in body.decode() and "URLconf" not in body.decode()

    state = launcher.ingest_and_wait("r1", "以后周报统一用简体中文写，结论先行。")
    assert state["status"] == "succeeded", state  # the worker the launcher started ran it
    answer = launcher.call("/v1/memories/search", {**SCOPE, "query": "周报用什么语言写"})
    assert answer["available"] is True
    assert any("周报" in item["content"] for item in answer["items"])
    token = launcher.token()

    output = launcher.stop()
    assert f"http://127.0.0.1:{launcher.port}/" in output
    assert token in output
    assert all(not proc.is_running() for proc in web)
    # Each web process loaded the engine and both models before it took a request: the first
    # request of a cold process waited ~5 s for them (a long context input, 5.5 s).
    for proc in web:
        warmed = output.find(f"web process {proc.pid} warmed")
        started = output.find(f"Started server process [{proc.pid}]")
        assert 0 <= warmed < started, (proc.pid, output[-3000:])


def wait_for_replacement(launcher: Running, marker: str, victim: psutil.Process) -> None:
    eventually(
        lambda: {p.pid for p in launcher.children(marker)},
        until=lambda current: current and victim.pid not in current,
        what=f"a replacement for the killed {marker} process",
        interval=0.2,
    )


@pytest.mark.reliability
def test_a_killed_worker_is_restarted_while_the_web_keeps_serving(launcher):
    worker = "procrastinate worker"
    (victim,) = launcher.children(worker)
    victim.kill()  # SIGKILL: no clean-up, as in a crash or the OOM killer
    for _ in range(10):  # the web processes are not taken down with it: asked for a second
        assert get(launcher.url + "/health")[0] == 200
        time.sleep(0.1)
    wait_for_replacement(launcher, worker, victim)
    assert launcher.ingest_and_wait("after-crash", "以后周报统一用简体中文写。")["status"] == (
        "succeeded"
    )


@pytest.mark.reliability
def test_a_killed_web_process_is_restarted_and_the_others_keep_serving(launcher):
    marker = "poco_memory.launcher web"
    victim, *others = launcher.children(marker)
    assert others, "more than one web process"
    victim.kill()
    for _ in range(20):  # requests keep being answered by the other process(es), for a second
        assert get(launcher.url + "/health")[0] == 200
        time.sleep(0.05)
    wait_for_replacement(launcher, marker, victim)
    for process in launcher.children(marker):  # even with every web process gone at once
        process.kill()
    wait_healthy(launcher.port, alive=lambda: launcher.process.poll() is None, timeout=90)
    assert len(launcher.children(marker)) == len(others) + 1


@pytest.mark.reliability
def test_ctrl_c_stops_every_process(launcher):
    children = psutil.Process(launcher.process.pid).children(recursive=True)
    assert len(children) >= 3
    os.killpg(launcher.process.pid, signal.SIGINT)  # what a terminal sends the group on Ctrl-C
    launcher.process.wait(timeout=90)
    output = launcher.log.read_text()
    assert launcher.process.returncode == 0, output[-3000:]
    assert "Traceback" not in output, output[-3000:]
    assert not [child for child in children if child.is_running()]


@pytest.mark.reliability
def test_a_web_process_stopped_by_ctrl_c_alone_exits_cleanly(launcher):
    """Ctrl-C reaches every process of the group; a web process whose SIGINT is the last signal
    it saw (the supervisor's SIGTERM came later, or never) printed uvicorn's re-raised
    KeyboardInterrupt as two tracebacks on every such stop."""
    marker = "poco_memory.launcher web"
    victim, *_ = launcher.children(marker)
    victim.send_signal(signal.SIGINT)
    output = eventually(
        launcher.log.read_text,
        until=lambda log: re.search(r"web-\d exited with code", log),
        what="the supervisor saying the web process exited",
        interval=0.2,
    )
    assert re.search(r"web-\d exited with code 0;", output), output[-3000:]
    assert "Traceback" not in output, output[-3000:]
