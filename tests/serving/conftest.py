from __future__ import annotations

import json
import signal
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import psutil
import pytest
from django.test import Client

from tests.processes import ROOT, child_env, free_port, wait_gone, wait_healthy
from tests.support import eventually

SCOPE = {"tenant_id": "t", "user_id": "u"}


@dataclass
class Running:
    process: subprocess.Popen
    port: int
    data_dir: Path
    output: str = ""

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def token(self) -> str:
        return (self.data_dir / "service_token").read_text().strip()

    def children(self, marker: str) -> list[psutil.Process]:
        found = []
        for child in psutil.Process(self.process.pid).children():
            try:
                if child.status() != psutil.STATUS_ZOMBIE and marker in " ".join(child.cmdline()):
                    found.append(child)
            except psutil.Error:
                continue  # exited while we looked
        return found

    def connection_bound(self) -> int:
        """The most PostgreSQL connections this server may hold (README, "Connections")."""
        from poco_memory.connections import connection_budget

        return connection_budget(web=len(self.children("poco_memory.launcher web")), workers=1)

    @property
    def log(self) -> Path:
        return self.data_dir / "launcher.log"

    def stop(self) -> str:
        """SIGTERM, as Ctrl-C or a service manager would; returns everything it printed."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=90)
        self.output = self.log.read_text() if self.log.exists() else ""
        return self.output

    def call(self, path: str, payload: dict | None = None) -> dict:
        request = urllib.request.Request(
            self.url + path,
            data=json.dumps(payload).encode() if payload is not None else None,
            headers={"Authorization": f"Bearer {self.token()}", "Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=60) as response:
            return json.loads(response.read())

    def ingest_and_wait(self, run_id: str, text: str) -> dict:
        messages = [
            {"role": "user", "content": text},
            {"role": "assistant", "content": "好的，记住了。"},
        ]
        job = self.call("/v1/memories/ingest", {**SCOPE, "run_id": run_id, "messages": messages})
        return eventually(
            lambda: self.call(f"/v1/memories/ingest/{job['job_id']}?tenant_id=t&user_id=u"),
            until=lambda state: state["status"] not in {"queued", "running", "retrying"},
            what=f"ingest job {job['job_id']} finished",
            timeout=90,
            interval=0.5,
        )


@contextmanager
def running_launcher(data_dir: Path, **env: str) -> Iterator[Running]:
    """`make run`'s launcher in ``data_dir`` on a free port (no demo data; ``env`` on top),
    stopped afterwards; it must have stopped cleanly, its database with it. Its output goes to
    ``data_dir/launcher.log``: a pipe nobody reads until the end fills with access-log lines
    and then blocks every web process."""
    port = free_port()
    environment = child_env(POCO_DATA_DIR=str(data_dir), PORT=str(port), POCO_DEMO_DATA="0")
    with (data_dir / "launcher.log").open("w") as output:
        process = subprocess.Popen(
            [sys.executable, "-m", "poco_memory.launcher"],
            env={**environment, **env},
            cwd=ROOT,
            stdout=output,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,  # its own process group, as in a terminal
        )
    running = Running(process, port, data_dir)
    try:
        wait_healthy(port, alive=lambda: process.poll() is None)
        yield running
    finally:
        running.stop()
    assert process.returncode == 0, running.output[-3000:]
    assert "Poco Memory stopped." in running.output
    assert wait_gone(data_dir) == []


@pytest.fixture
def launcher(server_data_dir) -> Iterator[Running]:
    with running_launcher(server_data_dir) as running:
        yield running


@pytest.fixture
def alice(django_user_model):
    return django_user_model.objects.create_user(username="alice", password="alice-pass-1")


@pytest.fixture
def alice_client(alice) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(alice)
    return client
