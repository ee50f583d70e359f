"""``make cluster``: a real small cluster on one machine, the way production runs it.

- one PostgreSQL server (the bundled binaries as a standalone server in
  ``<POCO_DATA_DIR>/cluster-db``): the nodes reach it through ``DATABASE_URL`` like any managed
  database (set ``DATABASE_URL`` to use a server of your own instead);
- migrations (and the demo data, in dev mode) run once, before any node starts;
- ``POCO_CLUSTER_WEB_NODES`` (2) web nodes, each ``launcher node`` with its own data folder
  ``<POCO_DATA_DIR>/node-<n>`` and port (``POCO_CLUSTER_NODE_PORTS``, default PORT+1, PORT+2…);
- ``POCO_CLUSTER_WORKERS`` (2) queue workers; worker n lives beside web node n (same data
  folder and metrics folder, as on one machine of a real cluster);
- Debian's ``haproxy`` in front on ``PORT``, checking ``GET /health`` on every node.

A node or worker that dies stays down (in production the process manager restarts it): the
balancer and the other nodes carry on, which is what this cluster is for. Ctrl-C or SIGTERM
stops everything it started — haproxy, nodes, workers, then PostgreSQL. What it started is
written to ``<POCO_DATA_DIR>/cluster.json`` (ports and process ids, no secrets) for tests and
operators.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from poco_memory import embedded_db, launcher
from poco_memory.connections import budget_report, server_limit
from poco_memory.service_tokens import parse

PORT = int(os.environ.get("PORT", "8000"))
HOST = os.environ.get("POCO_HOST", "127.0.0.1")
BASE_DIR = Path(__file__).resolve().parent.parent
STOP_TIMEOUT = 20.0
READY_TIMEOUT = 300.0

HAPROXY_CONFIG = """\
global
    maxconn 4096

defaults
    mode http
    timeout connect 2s
    timeout client 120s
    timeout server 120s
    # A node that refuses the connection never saw the request: safe to try another one.
    # Nothing else is retried (a write must never be sent twice).
    retries 2
    retry-on conn-failure
    option redispatch
    # A fresh connection per request: a request sent on a kept-alive connection to a node that
    # just died fails after sending, which is not safely retryable; a new one is refused.
    http-reuse never

frontend poco
    bind {host}:{port}
    default_backend nodes

backend nodes
    balance roundrobin
    option httpchk
    http-check send meth GET uri /health ver HTTP/1.1 hdr Host localhost
    http-check expect status 200
    default-server inter 1s fall 2 rise 1
{servers}
"""


@dataclass
class Process:
    """One process the cluster started, in its own process group (so stopping it stops its
    children too, and Ctrl-C in the terminal reaches only the cluster, which stops it)."""

    name: str
    argv: list[str]
    env: dict[str, str]
    port: int | None = None
    popen: subprocess.Popen[bytes] | None = None
    reported: bool = False

    def start(self) -> None:
        self.popen = subprocess.Popen(self.argv, env=self.env, start_new_session=True)

    @property
    def pid(self) -> int:
        assert self.popen is not None
        return self.popen.pid

    def alive(self) -> bool:
        return self.popen is not None and self.popen.poll() is None

    def signal_group(self, signum: int) -> None:
        if self.popen is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.popen.pid, signum)

    def stop(self, deadline: float) -> None:
        if self.popen is None:
            return
        try:
            self.popen.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            self.signal_group(signal.SIGKILL)
            self.popen.wait()
        # A killed node's web processes may outlive it (its group is theirs too).
        self.signal_group(signal.SIGKILL)


def _node_ports(count: int) -> list[int]:
    raw = os.environ.get("POCO_CLUSTER_NODE_PORTS", "").strip()
    if raw:
        return [int(p) for p in raw.split(",") if p.strip()]
    return [PORT + n for n in range(1, count + 1)]


def _healthy(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://{HOST}:{port}/health", timeout=2) as response:
            return bool(response.status == 200)
    except (urllib.error.URLError, OSError):
        return False


def _manage(args: list[str], env: dict[str, str]) -> None:
    subprocess.run([sys.executable, str(BASE_DIR / "manage.py"), *args], env=env, check=True)


def find_haproxy() -> str | None:
    # Debian puts it in /usr/sbin, which is not on every user's PATH.
    return shutil.which("haproxy") or shutil.which("haproxy", path="/usr/sbin")


def main() -> int:
    haproxy = find_haproxy()
    if haproxy is None:
        print("make cluster needs Debian's haproxy: apt-get install haproxy", file=sys.stderr)
        return 2
    data_dir = Path(os.environ.get("POCO_DATA_DIR") or BASE_DIR / ".data").resolve()
    web_nodes = int(os.environ.get("POCO_CLUSTER_WEB_NODES", "2"))
    ports = _node_ports(web_nodes)
    workers = int(os.environ.get("POCO_CLUSTER_WORKERS", "2"))
    node_web_workers = int(os.environ.get("POCO_WEB_WORKERS", "1"))

    stop = launcher.StopRequest()
    db_dir = data_dir / "cluster-db"
    # A database of your own (DATABASE_URL) is used as it is; else the cluster starts one.
    external_url = os.environ.get("DATABASE_URL", "").strip()
    processes: list[Process] = []
    try:
        database_url = external_url or embedded_db.start_standalone(db_dir)
        base_env = {
            **os.environ,
            "POCO_DATA_DIR": str(data_dir),
            "DATABASE_URL": database_url,
            "DJANGO_SETTINGS_MODULE": "poco_memory.settings",
        }
        _manage(["migrate", "--verbosity", "0"], base_env)
        os.environ.update({"POCO_DATA_DIR": str(data_dir), "DATABASE_URL": database_url})
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "poco_memory.settings")
        # Settings only (no app is loaded): tokens and switches, read as `make run` reads them.
        from django.conf import settings

        entries = launcher.service_token_entries(settings)
        first = parse(entries)[0]
        demo_login = ""
        if settings.DEMO_DATA:
            _manage(["seed_demo", "--verbosity", "0"], base_env)
            password = (data_dir / "demo_password").read_text().strip()
            demo_login = f"demo / {password}"

        for n in range(1, max(len(ports), workers) + 1):
            node_dir = data_dir / f"node-{n}"
            metrics_dir = node_dir / "metrics"
            shutil.rmtree(metrics_dir, ignore_errors=True)
            metrics_dir.mkdir(parents=True)
            env = {
                **base_env,
                "POCO_DATA_DIR": str(node_dir),
                "POCO_SERVICE_TOKENS": ",".join(entries),
                "PROMETHEUS_MULTIPROC_DIR": str(metrics_dir),
                "POCO_WEB_WORKERS": str(node_web_workers),
            }
            if n <= len(ports):
                argv = [sys.executable, "-m", "poco_memory.launcher", "node"]
                port = ports[n - 1]
                processes.append(Process(f"web-{n}", argv, {**env, "PORT": str(port)}, port))
            if n <= workers:
                processes.append(Process(f"worker-{n}", launcher.QUEUE_WORKER, env))
        for process in processes:
            process.start()

        deadline = time.monotonic() + READY_TIMEOUT
        while not stop.requested and not all(_healthy(p) for p in ports):
            if time.monotonic() > deadline or not all(p.alive() for p in processes):
                print("the cluster did not come up; stopping it", file=sys.stderr, flush=True)
                return 1
            time.sleep(0.5)
        # The balancer starts last, so it never sees a node that is still loading.
        servers = "\n".join(
            f"    server web-{n} {HOST}:{port} check" for n, port in enumerate(ports, start=1)
        )
        config = data_dir / "haproxy.cfg"
        config.write_text(HAPROXY_CONFIG.format(host=HOST, port=PORT, servers=servers))
        balancer = Process("haproxy", [haproxy, "-f", str(config), "-db"], dict(os.environ))
        balancer.start()
        processes.append(balancer)
        while not stop.requested and not _healthy(PORT):
            if time.monotonic() > deadline or not balancer.alive():
                print("haproxy did not come up; stopping the cluster", file=sys.stderr, flush=True)
                return 1
            time.sleep(0.2)
        if stop.requested:
            return 0
        state = {
            "url": f"http://{HOST}:{PORT}/",
            # Yours may hold a password: it is not written down, nor printed.
            "database_url": None if external_url else database_url,
            "nodes": [
                {"name": p.name, "pid": p.pid, "port": p.port, "data_dir": p.env["POCO_DATA_DIR"]}
                for p in processes
            ],
        }
        (data_dir / "cluster.json").write_text(json.dumps(state, indent=2))
        print(f"\nPoco Memory cluster is running on http://{HOST}:{PORT}/ (haproxy)", flush=True)
        for n, port in enumerate(ports, start=1):
            print(f"  web-{n}: http://{HOST}:{port}/  ({data_dir / f'node-{n}'})", flush=True)
        shown_db = "DATABASE_URL (yours)" if external_url else database_url
        print(f"  {workers} queue workers; PostgreSQL: {shown_db}", flush=True)
        web, limit = web_nodes * node_web_workers, server_limit(database_url)
        print(f"  {budget_report(web=web, workers=workers, limit=limit)}", flush=True)
        launcher.print_access(first, demo_login, production=settings.PRODUCTION)
        print("  press Ctrl-C to stop all of it\n", flush=True)
        while not stop.requested:
            for process in processes:
                if not process.reported and not process.alive():
                    process.reported = True
                    print(f"{process.name} exited; the others carry on", flush=True)
            if not balancer.alive():
                print("haproxy exited: stopping the cluster", file=sys.stderr, flush=True)
                return 1
            time.sleep(0.5)
        return 0
    finally:
        # The balancer first (no new requests), then nodes and workers, then the database.
        for process in reversed(processes):
            process.signal_group(signal.SIGTERM)
        deadline = time.monotonic() + STOP_TIMEOUT
        for process in reversed(processes):
            process.stop(deadline)
        if not external_url:
            embedded_db.stop_standalone(db_dir)
        (data_dir / "cluster.json").unlink(missing_ok=True)
        print("Poco Memory cluster stopped.", flush=True)


if __name__ == "__main__":
    sys.exit(main())
