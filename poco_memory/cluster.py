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
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from infra.service_tokens import parse
from poco_memory import embedded_db, launcher
from poco_memory.connections import budget_report, server_limit

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


@dataclass(frozen=True)
class Layout:
    """What to start and where, read from the environment once."""

    data_dir: Path
    web_nodes: int
    ports: list[int]  # one per web node (POCO_CLUSTER_NODE_PORTS may list its own)
    workers: int
    node_web_workers: int
    # A database of your own (DATABASE_URL) is used as it is; else the cluster starts one.
    external_url: str

    @classmethod
    def from_env(cls) -> Layout:
        web_nodes = int(os.environ.get("POCO_CLUSTER_WEB_NODES", "2"))
        return cls(
            data_dir=Path(os.environ.get("POCO_DATA_DIR") or BASE_DIR / ".data").resolve(),
            web_nodes=web_nodes,
            ports=_node_ports(web_nodes),
            workers=int(os.environ.get("POCO_CLUSTER_WORKERS", "2")),
            node_web_workers=int(os.environ.get("POCO_WEB_WORKERS", "1")),
            external_url=os.environ.get("DATABASE_URL", "").strip(),
        )

    @property
    def db_dir(self) -> Path:
        return self.data_dir / "cluster-db"


def main() -> int:
    haproxy = find_haproxy()
    if haproxy is None:
        print("make cluster needs Debian's haproxy: apt-get install haproxy", file=sys.stderr)
        return 2
    layout = Layout.from_env()
    stop = launcher.StopRequest()
    processes: list[Process] = []  # filled as they start, so the finally stops what started
    try:
        return _run(layout, haproxy, stop, processes)
    finally:
        _stop_all(layout, processes)


def _run(layout: Layout, haproxy: str, stop: launcher.StopRequest, processes: list[Process]) -> int:
    """Database, nodes and workers, then the balancer; then watch until asked to stop."""
    database_url = layout.external_url or embedded_db.start_standalone(layout.db_dir)
    base_env = _prepare_database(layout, database_url)
    # Settings only (no app is loaded): tokens and switches, read as `make run` reads them.
    from django.conf import settings

    entries = launcher.service_token_entries(settings)
    first = parse(entries)[0]
    demo_login = _seed_demo(layout, base_env) if settings.DEMO_DATA else ""

    processes.extend(_node_processes(layout, base_env, entries))
    for process in processes:
        process.start()
    deadline = time.monotonic() + READY_TIMEOUT
    nodes_up = _wait_until(
        lambda: all(_healthy(p) for p in layout.ports),
        lambda: all(p.alive() for p in processes),
        stop,
        deadline,
        interval=0.5,
    )
    if not nodes_up:
        print("the cluster did not come up; stopping it", file=sys.stderr, flush=True)
        return 1
    # The balancer starts last, so it never sees a node that is still loading.
    balancer = _balancer(layout, haproxy)
    balancer.start()
    processes.append(balancer)
    if not _wait_until(lambda: _healthy(PORT), balancer.alive, stop, deadline, interval=0.2):
        print("haproxy did not come up; stopping the cluster", file=sys.stderr, flush=True)
        return 1
    if stop.requested:
        return 0
    _write_state(layout, database_url, processes)
    _print_running(layout, database_url)
    launcher.print_access(first, demo_login, production=settings.PRODUCTION)
    print("  press Ctrl-C to stop all of it\n", flush=True)
    return _watch(processes, balancer, stop)


def _prepare_database(layout: Layout, database_url: str) -> dict[str, str]:
    """Migrate once before any node starts; return the environment every process shares
    (and make it this process's own, for the settings read next)."""
    base_env = {
        **os.environ,
        "POCO_DATA_DIR": str(layout.data_dir),
        "DATABASE_URL": database_url,
        "DJANGO_SETTINGS_MODULE": "poco_memory.settings",
    }
    _manage(["migrate", "--verbosity", "0"], base_env)
    os.environ.update({"POCO_DATA_DIR": str(layout.data_dir), "DATABASE_URL": database_url})
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "poco_memory.settings")
    return base_env


def _seed_demo(layout: Layout, base_env: dict[str, str]) -> str:
    """Load the demo data once (dev mode) and return its login for the banner."""
    _manage(["seed_demo", "--verbosity", "0"], base_env)
    password = (layout.data_dir / "demo_password").read_text().strip()
    return f"demo / {password}"


def _node_processes(layout: Layout, base_env: dict[str, str], entries: list[str]) -> list[Process]:
    """Web node n and worker n share machine n's data folder and an emptied metrics folder."""
    processes: list[Process] = []
    for n in range(1, max(len(layout.ports), layout.workers) + 1):
        node_dir = layout.data_dir / f"node-{n}"
        metrics_dir = node_dir / "metrics"
        shutil.rmtree(metrics_dir, ignore_errors=True)
        metrics_dir.mkdir(parents=True)
        env = {
            **base_env,
            "POCO_DATA_DIR": str(node_dir),
            "POCO_SERVICE_TOKENS": ",".join(entries),
            "PROMETHEUS_MULTIPROC_DIR": str(metrics_dir),
            "POCO_WEB_WORKERS": str(layout.node_web_workers),
        }
        if n <= len(layout.ports):
            argv = [sys.executable, "-m", "poco_memory.launcher", "node"]
            port = layout.ports[n - 1]
            processes.append(Process(f"web-{n}", argv, {**env, "PORT": str(port)}, port))
        if n <= layout.workers:
            processes.append(Process(f"worker-{n}", launcher.QUEUE_WORKER, env))
    return processes


def _wait_until(
    ready: Callable[[], bool],
    viable: Callable[[], bool],
    stop: launcher.StopRequest,
    deadline: float,
    *,
    interval: float,
) -> bool:
    """Poll until ``ready`` or a stop request; False when the deadline passes or ``viable``
    says a process it waits on has died."""
    while not stop.requested and not ready():
        if time.monotonic() > deadline or not viable():
            return False
        time.sleep(interval)
    return True


def _balancer(layout: Layout, haproxy: str) -> Process:
    """haproxy on PORT over every web node, its configuration written beside the data."""
    servers = "\n".join(
        f"    server web-{n} {HOST}:{port} check" for n, port in enumerate(layout.ports, start=1)
    )
    config = layout.data_dir / "haproxy.cfg"
    config.write_text(HAPROXY_CONFIG.format(host=HOST, port=PORT, servers=servers))
    return Process("haproxy", [haproxy, "-f", str(config), "-db"], dict(os.environ))


def _write_state(layout: Layout, database_url: str, processes: list[Process]) -> None:
    """``cluster.json`` for tests and operators: ports and process ids, no secrets."""
    state = {
        "url": f"http://{HOST}:{PORT}/",
        # Yours may hold a password: it is not written down, nor printed.
        "database_url": None if layout.external_url else database_url,
        "nodes": [
            {"name": p.name, "pid": p.pid, "port": p.port, "data_dir": p.env["POCO_DATA_DIR"]}
            for p in processes
        ],
    }
    (layout.data_dir / "cluster.json").write_text(json.dumps(state, indent=2))


def _print_running(layout: Layout, database_url: str) -> None:
    print(f"\nPoco Memory cluster is running on http://{HOST}:{PORT}/ (haproxy)", flush=True)
    for n, port in enumerate(layout.ports, start=1):
        print(f"  web-{n}: http://{HOST}:{port}/  ({layout.data_dir / f'node-{n}'})", flush=True)
    shown_db = "DATABASE_URL (yours)" if layout.external_url else database_url
    print(f"  {layout.workers} queue workers; PostgreSQL: {shown_db}", flush=True)
    web = layout.web_nodes * layout.node_web_workers
    report = budget_report(web=web, workers=layout.workers, limit=server_limit(database_url))
    print(f"  {report}", flush=True)


def _watch(processes: list[Process], balancer: Process, stop: launcher.StopRequest) -> int:
    """Report each process that exits (the others carry on) until asked to stop; without
    the balancer nothing reaches the nodes, so its exit stops the cluster."""
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


def _stop_all(layout: Layout, processes: list[Process]) -> None:
    """The balancer first (no new requests), then nodes and workers, then the database."""
    for process in reversed(processes):
        process.signal_group(signal.SIGTERM)
    deadline = time.monotonic() + STOP_TIMEOUT
    for process in reversed(processes):
        process.stop(deadline)
    if not layout.external_url:
        embedded_db.stop_standalone(layout.db_dir)
    (layout.data_dir / "cluster.json").unlink(missing_ok=True)
    print("Poco Memory cluster stopped.", flush=True)


if __name__ == "__main__":
    sys.exit(main())
