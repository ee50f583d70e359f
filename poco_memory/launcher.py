"""``make run``: database, migrations, demo data, web server and queue worker in one command.

This process owns the embedded PostgreSQL (when DATABASE_URL is unset) and the listening socket,
and hands both to its children, so they never start a server of their own:

- ``POCO_WEB_WORKERS`` web processes (uvicorn serving ``poco_memory.asgi:application``) that
  accept on the one shared socket — while one restarts, the others keep serving;
- one procrastinate queue worker.

``launcher node`` is one web node of a cluster (``make cluster``, ``poco_memory.cluster``): only
the web processes, on ``PORT``, against the ``DATABASE_URL`` and ``POCO_SERVICE_TOKENS`` it is
given; migrations, demo data and queue workers are the cluster's business.

It supervises them: a child that dies is restarted with exponential backoff (1 s doubling to
30 s, reset once it has run for a minute), and so is the embedded PostgreSQL it started
(``DatabaseWatch``). Ctrl-C or SIGTERM stops the children first, then the
database: nothing is left running.
"""

from __future__ import annotations

import contextlib
import logging
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any

from infra.service_tokens import ServiceToken, parse, reach_warnings
from poco_memory.connections import budget_report, server_limit

if TYPE_CHECKING:
    import uvicorn

PORT = int(os.environ.get("PORT", "8000"))
HOST = os.environ.get("POCO_HOST", "127.0.0.1")
# Each web process runs sync views on asgiref's thread pool; processes give the CPU-bound work
# (embedding, jieba, spaCy) real parallelism. One per core, at least two so one can restart.
WEB_WORKERS = int(os.environ.get("POCO_WEB_WORKERS") or min(4, max(2, os.cpu_count() or 1)))
FIRST_BACKOFF = 1.0
MAX_BACKOFF = 30.0
STABLE_AFTER = 60.0
STOP_TIMEOUT = 20


QUEUE_WORKER = [
    sys.executable,
    str(Path(__file__).resolve().parent.parent / "manage.py"),
    *("procrastinate", "worker", "--queues", "ingest"),
]


class StopRequest:
    """Ctrl-C or SIGTERM asks the supervising loop to stop; it then stops what it started."""

    def __init__(self) -> None:
        self.requested = False
        signal.signal(signal.SIGINT, self._request)
        signal.signal(signal.SIGTERM, self._request)

    def _request(self, signum: int, frame: FrameType | None) -> None:
        self.requested = True


@dataclass
class Child:
    """One supervised process: restarted with backoff whenever it exits unasked."""

    name: str
    argv: list[str]
    env: dict[str, str]
    pass_fds: tuple[int, ...] = ()
    process: subprocess.Popen[bytes] | None = None
    started_at: float = 0.0
    failures: int = 0
    restart_at: float | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(self.argv, env=self.env, pass_fds=self.pass_fds)
        self.started_at = time.monotonic()
        self.restart_at = None

    def supervise(self, now: float) -> None:
        if self.restart_at is not None:
            if now >= self.restart_at:
                self.start()
            return
        assert self.process is not None
        code = self.process.poll()
        if code is None:
            return
        # A child that ran for a while crashed once; one that dies at once is failing to start.
        self.failures = 1 if now - self.started_at >= STABLE_AFTER else self.failures + 1
        delay = min(MAX_BACKOFF, FIRST_BACKOFF * 2 ** (self.failures - 1))
        print(f"{self.name} exited with code {code}; restarting in {delay:.0f} s", flush=True)
        self.restart_at = now + delay

    def stop(self) -> None:
        if self.restart_at is None and self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)

    def wait(self) -> None:
        if self.process is None:
            return
        try:
            self.process.wait(timeout=STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


# How often the embedded server is looked at, and how long a server in smart shutdown (SIGTERM
# to the postmaster) may refuse new connections before it is stopped fast and started again:
# it waits for every session to end, and the pools' sessions end only when their processes do.
DATABASE_CHECK_EVERY = 1.0
SMART_SHUTDOWN_GRACE = 5.0


@dataclass
class DatabaseWatch:
    """The embedded PostgreSQL this process started, supervised like a child: a postmaster that
    exits (a fast or immediate shutdown, a kill, a crash) is started again with the same
    backoff; one stuck in a smart shutdown, refusing new connections, is stopped fast after
    ``SMART_SHUTDOWN_GRACE`` and started again. The children's pools reconnect by themselves."""

    checked_at: float = float("-inf")
    refusing_since: float | None = None
    up_since: float = 0.0
    failures: int = 0
    restart_at: float | None = None

    def supervise(self, now: float) -> None:
        from poco_memory import embedded_db

        if self.restart_at is not None:
            if now >= self.restart_at:
                self._restart(now)
            return
        if now - self.checked_at < DATABASE_CHECK_EVERY:
            return
        self.checked_at = now
        found = embedded_db.look()
        if found.state in {"ok", "starting"}:
            self.refusing_since = None
        elif found.state == "exited":
            self._schedule(now, "exited")
        elif self.refusing_since is None:
            self.refusing_since = now
            print(f"embedded PostgreSQL refuses new connections: {found.detail}", flush=True)
        # Only a server shutting down is restarted: one that refuses for another reason (every
        # slot taken) keeps its sessions, and /health reports it.
        elif now - self.refusing_since >= SMART_SHUTDOWN_GRACE and embedded_db.shutting_down():
            print("embedded PostgreSQL is stuck shutting down; stopping it fast", flush=True)
            embedded_db.force_stop()
            self.refusing_since = None
            self._schedule(time.monotonic(), "stopped")

    def _schedule(self, now: float, what: str) -> None:
        self.failures = 1 if now - self.up_since >= STABLE_AFTER else self.failures + 1
        delay = min(MAX_BACKOFF, FIRST_BACKOFF * 2 ** (self.failures - 1))
        print(f"embedded PostgreSQL {what}; restarting it in {delay:.0f} s", flush=True)
        self.restart_at = now + delay

    def _restart(self, now: float) -> None:
        from poco_memory import embedded_db

        self.restart_at = None
        try:
            embedded_db.restart()
        except Exception as exc:  # noqa: BLE001 - e.g. old backends still hold shared memory
            self._schedule(time.monotonic(), f"did not start ({type(exc).__name__})")
            return
        self.up_since = self.checked_at = time.monotonic()
        print("embedded PostgreSQL restarted", flush=True)


def service_token_entries(settings: object) -> list[str]:
    """The ``POCO_SERVICE_TOKENS`` entries the children get; in dev mode without any, a new
    token named ``dev`` is written to the data dir (settings read it from there)."""
    entries: list[str] = getattr(settings, "SERVICE_TOKENS", [])
    if entries:
        return entries
    path = settings.SERVICE_TOKEN_FILE  # type: ignore[attr-defined]
    token = secrets.token_urlsafe(32)
    path.write_text(token + "\n")
    path.chmod(0o600)
    return [f"dev:{token}"]


def print_access(token: ServiceToken, demo_login: str, *, production: bool) -> None:
    # A production token is a secret that must not land in logs; dev tokens are for pasting.
    shown = "from POCO_SERVICE_TOKENS" if production else token.secret
    print(f"  /v1 service token: {shown} (name: {token.name})", flush=True)
    if demo_login:
        print(f"  console login:     {demo_login}", flush=True)


def _listen(host: str, port: int) -> socket.socket:
    family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
    return socket.create_server((host, port), family=family, backlog=2048)


def _not_a_health_check(record: logging.LogRecord) -> bool:
    # A balancer checks /health every second (make cluster); those lines would bury the rest.
    args = record.args if isinstance(record.args, tuple) else ()
    return not (len(args) > 2 and args[2] == "/health")


def trusts_forwarded_headers() -> bool:
    """Whether uvicorn may take the client's address and scheme from ``X-Forwarded-For`` and
    ``-Proto``: only when ``FORWARDED_ALLOW_IPS`` names the proxy in front. uvicorn's own
    default trusts loopback, so any local client could name a new address per login guess."""
    return bool(os.environ.get("FORWARDED_ALLOW_IPS", "").strip())


def web_config(app: Any = "poco_memory.asgi:application") -> uvicorn.Config:
    """How every web process runs uvicorn (tests run the same configuration in a thread)."""
    import uvicorn

    return uvicorn.Config(
        app,
        lifespan="auto",  # Django ignores it; a mounted Starlette app (MCP) needs it
        log_config=None,  # Django's LOGGING formats uvicorn's lines like ours
        server_header=False,
        timeout_graceful_shutdown=10,
        proxy_headers=trusts_forwarded_headers(),
    )


def serve_web(fd: int) -> int:
    """One web process: uvicorn on the socket the launcher listens on (``launcher web FD``)."""
    import uvicorn

    logging.getLogger("uvicorn.access").addFilter(_not_a_health_check)
    # Ctrl-C reaches every process of the group. uvicorn shuts down gracefully, then raises
    # the SIGINT again, and that is a stop someone asked for, not a failure.
    with contextlib.suppress(KeyboardInterrupt):
        warm_up()
        uvicorn.Server(web_config()).run(sockets=[socket.socket(fileno=fd)])
    return 0


def warm_up() -> None:
    """Load what a web process's first request would otherwise load — Django, the engine (Mem0,
    the first embedder, jieba, spaCy, the lexicon) and the second model — before it accepts:
    ~5 s on this machine that whoever asked first waited for. Meanwhile the socket queues the
    requests for the processes that are ready. A database that fails now is the first
    request's to report (``available=false``), not a reason not to serve."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "poco_memory.settings")
    import django

    django.setup()
    from memories import selectors
    from memories.scope import scope_of

    log = logging.getLogger("poco_memory.launcher")
    started = time.monotonic()
    try:
        selectors.recall_channels(
            scope=scope_of(tenant_id="warm-up", user_id="warm-up"), query="预热 warm up", pool=1
        )
    except Exception as exc:  # noqa: BLE001 - any failure is the first request's to report
        log.warning("web process %d not warmed: %s", os.getpid(), type(exc).__name__)
        return
    log.info("web process %d warmed in %.1f s", os.getpid(), time.monotonic() - started)


def _give_back_connections() -> None:
    """The supervisor serves nothing: the connections migrate and the demo data opened go back
    to PostgreSQL, so it holds none while the children run."""
    from django.db import connections

    from memories.engine import reset_engine

    reset_engine()
    for conn in connections.all(initialized_only=True):
        conn.close()
        conn.close_pool()  # type: ignore[attr-defined]  # the postgresql backend's (Django 5.1+)


def main(*, node: bool = False) -> int:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "poco_memory.settings")
    from poco_memory import embedded_db

    if node and not os.environ.get("DATABASE_URL"):
        print("launcher node: DATABASE_URL must point at the cluster's database", file=sys.stderr)
        return 2
    embedded_db.start_if_configured()
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    entries = service_token_entries(settings)
    tokens = parse(entries)
    first = tokens[0]
    if settings.PRODUCTION:
        for warning in reach_warnings(tokens):
            print(f"warning: {warning}", file=sys.stderr, flush=True)
    demo_login = budget = ""
    if not node:
        call_command("migrate", interactive=False, verbosity=0)
        if settings.DEMO_DATA:
            call_command("seed_demo", verbosity=0)
            password = (settings.DATA_DIR / "demo_password").read_text().strip()
            demo_login = f"demo / {password}"
        _give_back_connections()
        budget = budget_report(
            web=WEB_WORKERS, workers=1, limit=server_limit(settings.DATABASE_URL)
        )

    # Web and worker counters are merged by /metrics through a shared folder: ours, or the
    # one the cluster gives this node and the queue worker beside it.
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        metrics_dir = Path(os.environ["PROMETHEUS_MULTIPROC_DIR"])
    else:
        metrics_dir = settings.DATA_DIR / "metrics"
        shutil.rmtree(metrics_dir, ignore_errors=True)
        metrics_dir.mkdir(parents=True)
    env = {
        **os.environ,
        "DATABASE_URL": settings.DATABASE_URL,
        "POCO_SERVICE_TOKENS": ",".join(entries),
        "PROMETHEUS_MULTIPROC_DIR": str(metrics_dir),
    }
    listener = _listen(HOST, PORT)
    web = [sys.executable, "-m", "poco_memory.launcher", "web", str(listener.fileno())]
    children = [
        Child(f"web-{n}", web, env, pass_fds=(listener.fileno(),)) for n in range(WEB_WORKERS)
    ]
    if not node:
        children.append(Child("queue-worker", QUEUE_WORKER, env))

    # Only a server this process started is its to restart (not one it joined).
    database = DatabaseWatch(up_since=time.monotonic()) if embedded_db.owned() else None
    stop = StopRequest()
    try:
        for child in children:
            child.start()
        if node:
            print(f"web node on http://{HOST}:{PORT}/ ({WEB_WORKERS} processes)", flush=True)
        else:
            print(f"\nPoco Memory is running on http://{HOST}:{PORT}/", flush=True)
            print(f"  {WEB_WORKERS} web processes (uvicorn) and 1 queue worker", flush=True)
            print(f"  {budget}", flush=True)
            print_access(first, demo_login, production=settings.PRODUCTION)
            print("  press Ctrl-C to stop\n", flush=True)
        while not stop.requested:
            now = time.monotonic()
            if database is not None:
                database.supervise(now)
            for child in children:
                child.supervise(now)
            time.sleep(0.2)
    finally:
        for child in children:
            child.stop()
        for child in children:
            child.wait()
        listener.close()
        embedded_db.stop()
    print("Poco Memory stopped.", flush=True)
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["web"]:
        sys.exit(serve_web(int(sys.argv[2])))
    sys.exit(main(node=sys.argv[1:2] == ["node"]))
