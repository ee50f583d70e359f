"""The embedded PostgreSQL stops with its owner: normal exit, Ctrl-C, SIGTERM; a standalone
server (a PostgreSQL the service did not start) outlives the command that started it."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest

from poco_memory.embedded_db import server_settings
from tests.processes import ROOT, child_env, postgres_processes, wait_gone

# Ctrl-C as a terminal delivers it: a suite launched in the background (``cmd &`` in a shell
# without job control) hands its children SIGINT ignored, and Python keeps it ignored.
STARTER = """
import signal, sys, time
from pathlib import Path
from poco_memory import embedded_db
signal.signal(signal.SIGINT, signal.default_int_handler)
print(embedded_db.start(Path(sys.argv[1])), flush=True)
if sys.argv[2] == "wait":
    time.sleep(120)
"""


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


def test_normal_exit_stops_the_server(server_data_dir):
    proc, url = start_child(server_data_dir, "exit")
    assert "host=" in url
    assert proc.wait(timeout=60) == 0
    assert wait_gone(server_data_dir) == []


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_signal_stops_the_server(server_data_dir, signum):
    proc, _ = start_child(server_data_dir, "wait")
    assert postgres_processes(server_data_dir), "the server should be running"
    proc.send_signal(signum)
    proc.wait(timeout=60)
    assert wait_gone(server_data_dir) == []


def test_standalone_server_outlives_its_command_and_stops_on_request(server_data_dir):
    command = [sys.executable, "-m", "poco_memory.embedded_db"]
    started = subprocess.run(
        [*command, "start", str(server_data_dir)],
        env=child_env(),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    try:
        assert started.returncode == 0, started.stderr
        assert postgres_processes(server_data_dir), "the server should outlive the start command"
        url = started.stdout.strip()
        with psycopg.connect(url) as conn:
            rows = conn.execute("SELECT name FROM pg_available_extensions").fetchall()
        extensions = {row[0] for row in rows}
        assert {"vector", "pg_trgm"} <= extensions
    finally:
        stop = [*command, "stop", str(server_data_dir)]
        subprocess.run(stop, env=child_env(), cwd=ROOT, timeout=60)
    assert wait_gone(server_data_dir) == []


def _settings(url: str) -> dict[str, object]:
    with psycopg.connect(url) as conn:
        row = conn.execute(
            "SELECT pg_size_bytes(current_setting('shared_buffers')),"
            " current_setting('io_method'), pg_postmaster_start_time()"
        ).fetchone()
    assert row is not None
    return dict(zip(("shared_buffers", "io_method", "postmaster"), row, strict=True))


def test_the_server_runs_with_its_settings_from_the_first_start_on(server_data_dir):
    """initdb's 128 MB of shared buffers and PostgreSQL 18's I/O workers made every search of
    a large scope read its pages again through another process; the first start restarts once
    to apply the settings, later starts keep them without a restart."""
    command = [sys.executable, "-m", "poco_memory.embedded_db"]

    def start() -> str:
        started = subprocess.run(
            [*command, "start", str(server_data_dir)],
            env=child_env(),
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert started.returncode == 0, started.stderr
        return started.stdout.strip()

    def stop() -> None:
        subprocess.run([*command, "stop", str(server_data_dir)], env=child_env(), cwd=ROOT)

    wanted = server_settings()
    expected = {
        "shared_buffers": int(wanted["shared_buffers"].removesuffix("MB")) * 2**20,
        "io_method": wanted["io_method"],
    }
    try:
        first = _settings(start())
        assert {k: first[k] for k in expected} == expected
        stop()
        url = start()
        again = _settings(url)
        assert {k: again[k] for k in expected} == expected
        # Joining a running server changes nothing and restarts nothing.
        assert _settings(start())["postmaster"] == again["postmaster"]
    finally:
        stop()
    assert wait_gone(server_data_dir) == []
