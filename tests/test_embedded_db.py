"""The embedded PostgreSQL stops with its owner: normal exit, Ctrl-C, SIGTERM; `make run` too."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import psutil
import pytest

ROOT = Path(__file__).resolve().parent.parent

STARTER = """
import sys, time
from pathlib import Path
from poco_memory import embedded_db
print(embedded_db.start(Path(sys.argv[1])), flush=True)
if sys.argv[2] == "wait":
    time.sleep(120)
"""


def postgres_processes(data_dir: Path) -> list[psutil.Process]:
    found = []
    for proc in psutil.process_iter(["name", "cmdline"]):
        cmdline = " ".join(proc.info.get("cmdline") or [])
        if proc.info.get("name") == "postgres" and str(data_dir) in cmdline:
            found.append(proc)
    return found


def child_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "XDG_RUNTIME_DIR"}}
    env["PYTHONPATH"] = str(ROOT)
    return env


def start_child(data_dir: Path, mode: str) -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen(
        [sys.executable, "-c", STARTER, str(data_dir), mode],
        stdout=subprocess.PIPE,
        text=True,
        env=child_env(),
        cwd=ROOT,
    )
    assert proc.stdout is not None
    url = proc.stdout.readline().strip()
    assert url.startswith("postgresql://"), url
    return proc, url


def wait_gone(data_dir: Path, timeout: float = 20) -> list[psutil.Process]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and postgres_processes(data_dir):
        time.sleep(0.2)
    return postgres_processes(data_dir)


def test_normal_exit_stops_the_server(tmp_path):
    proc, url = start_child(tmp_path, "exit")
    assert "host=" in url
    assert proc.wait(timeout=60) == 0
    assert wait_gone(tmp_path) == []


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_signal_stops_the_server(tmp_path, signum):
    proc, _ = start_child(tmp_path, "wait")
    assert postgres_processes(tmp_path), "the server should be running"
    proc.send_signal(signum)
    proc.wait(timeout=60)
    assert wait_gone(tmp_path) == []


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_make_run_serves_and_stops_cleanly(tmp_path):
    """What `make run` runs: migrate, serve /health and /v1 with the printed token, stop."""
    port = free_port()
    env = {**child_env(), "POCO_DATA_DIR": str(tmp_path), "PORT": str(port), "POCO_DEMO_DATA": "0"}
    env.pop("POCO_SERVICE_TOKENS", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "poco_memory.launcher"],
        env=env,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        deadline = time.monotonic() + 240
        health = None
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2) as r:
                    health = r.status
                    break
            except OSError:
                assert proc.poll() is None, "the launcher exited early"
                time.sleep(0.5)
        assert health == 200
        token = (tmp_path / "service_token").read_text().strip()

        def call(path: str, payload: dict | None = None) -> dict:
            request = urllib.request.Request(
                f"http://127.0.0.1:{port}{path}",
                data=json.dumps(payload).encode() if payload is not None else None,
                headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
            )
            with urllib.request.urlopen(request, timeout=60) as response:
                return json.loads(response.read())

        scope = {"tenant_id": "t", "user_id": "u"}
        messages = [
            {"role": "user", "content": "以后周报统一用简体中文写，结论先行。"},
            {"role": "assistant", "content": "好的，已确认周报统一用简体中文、结论先行。"},
        ]
        job = call("/v1/memories/ingest", {**scope, "run_id": "r1", "messages": messages})
        assert job["status"] == "queued"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            state = call(f"/v1/memories/ingest/{job['job_id']}?tenant_id=t&user_id=u")
            if state["status"] not in {"queued", "running", "retrying"}:
                break
            time.sleep(0.5)
        assert state["status"] == "succeeded", state  # the worker `make run` started ran it
        answer = call("/v1/memories/search", {**scope, "query": "周报用什么语言写"})
        assert answer["available"] is True
        assert any("周报" in item["content"] for item in answer["items"])
    finally:
        proc.send_signal(signal.SIGTERM)
        output, _ = proc.communicate(timeout=60)
    assert f"http://127.0.0.1:{port}/" in output
    assert token in output
    assert wait_gone(tmp_path) == []
