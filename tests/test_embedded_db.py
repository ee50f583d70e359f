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


STANDALONE = [sys.executable, "-m", "poco_memory.embedded_db"]


def standalone(action: str, data_dir: Path) -> subprocess.CompletedProcess[str]:
    """``python -m poco_memory.embedded_db start|stop DIR`` as a command of its own."""
    return subprocess.run(
        [*STANDALONE, action, str(data_dir)],
        env=child_env(),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def start_standalone(data_dir: Path) -> str:
    started = standalone("start", data_dir)
    assert started.returncode == 0, started.stderr
    return started.stdout.strip()


def test_standalone_server_outlives_its_command_and_stops_on_request(server_data_dir):
    try:
        url = start_standalone(server_data_dir)
        assert postgres_processes(server_data_dir), "the server should outlive the start command"
        with psycopg.connect(url) as conn:
            rows = conn.execute("SELECT name FROM pg_available_extensions").fetchall()
        extensions = {row[0] for row in rows}
        assert {"vector", "pg_trgm"} <= extensions
    finally:
        standalone("stop", server_data_dir)
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
    wanted = server_settings()
    expected = {
        "shared_buffers": int(wanted["shared_buffers"].removesuffix("MB")) * 2**20,
        "io_method": wanted["io_method"],
    }
    try:
        first = _settings(start_standalone(server_data_dir))
        assert {k: first[k] for k in expected} == expected
        standalone("stop", server_data_dir)
        again = _settings(start_standalone(server_data_dir))
        assert {k: again[k] for k in expected} == expected
        # Joining a running server changes nothing and restarts nothing.
        assert _settings(start_standalone(server_data_dir))["postmaster"] == again["postmaster"]
    finally:
        standalone("stop", server_data_dir)
    assert wait_gone(server_data_dir) == []
