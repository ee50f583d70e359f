"""``make gate``: the gate proving itself on a fresh ``make run``.

Starts the launcher in a data directory of its own (emptied first; demo data on, so the
baseline counts real rows; its output goes to ``launcher.log`` there), records the baseline
against its database, runs ``verify`` against it over HTTP, stops it, and exits with
``verify``'s status. The report stays in ``POCO_GATE_REPORT`` (default
``.data/gate-report/``).
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait_healthy(port: int, process: subprocess.Popen[str], timeout: float = 300) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"make gate: the service exited early ({process.returncode})")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.5)
    raise SystemExit(f"make gate: /health did not answer within {timeout:.0f}s")


def _step(title: str, command: list[str], env: dict[str, str]) -> int:
    print(f"make gate: {title}", flush=True)
    return subprocess.run(command, env=env, cwd=ROOT, check=False).returncode


def main() -> int:
    data_dir = Path(os.environ.get("POCO_GATE_DATA_DIR") or ROOT / ".data" / "gate").resolve()
    report = Path(os.environ.get("POCO_GATE_REPORT") or ROOT / ".data" / "gate-report").resolve()
    shutil.rmtree(data_dir, ignore_errors=True)
    data_dir.mkdir(parents=True)
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "POCO_SERVICE_TOKENS"}}
    port = _free_port()
    env.update(POCO_DATA_DIR=str(data_dir), PORT=str(port))
    started = time.monotonic()
    print(f"make gate: starting the service in {data_dir} on port {port}", flush=True)
    log = (data_dir / "launcher.log").open("w")
    service = subprocess.Popen(
        [sys.executable, "-m", "poco_memory.launcher"],
        env=env,
        cwd=ROOT,
        stdout=log,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    status = 1
    try:
        _wait_healthy(port, service)
        token = (data_dir / "service_token").read_text().strip()
        manage = [sys.executable, "manage.py", "memory_gate"]
        baseline = data_dir / "baseline.json"
        status = _step(
            "baseline",
            [*manage, "baseline", "--out", str(baseline), "--sample-scopes", "3"],
            env,
        )
        if status == 0:
            status = _step(
                "verify",
                [*manage, "verify", "--baseline", str(baseline), "--report", str(report)],
                {**env, "POCO_GATE_TOKEN": token, "POCO_GATE_URL": f"http://127.0.0.1:{port}"},
            )
    finally:
        service.send_signal(signal.SIGTERM)
        try:
            service.wait(timeout=90)
        except subprocess.TimeoutExpired:
            service.kill()
            service.wait()
        log.close()
    print(
        f"make gate: {'passed' if status == 0 else 'REFUSED'} in "
        f"{time.monotonic() - started:.0f}s; report in {report}/report.md",
        flush=True,
    )
    return status


if __name__ == "__main__":
    raise SystemExit(main())
