"""`make run` behind Debian's PgBouncer in transaction mode, as docs/deploy.md describes it:
writers of one scope still queue on its lock, search, delete-user and ingest work."""

from __future__ import annotations

import os
import pwd
import shutil
import signal
import subprocess
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import psycopg
import pytest

from tests.memories.services.test_add_at_scale import distinct_facts
from tests.processes import free_port
from tests.serving.conftest import SCOPE, Running, running_launcher
from tests.serving.test_flood import post

PGBOUNCER = shutil.which("pgbouncer") or "/usr/sbin/pgbouncer"
# What the service's connection options set, set on the database instead: PgBouncer does not
# pass a client's startup options on (docs/deploy.md, "PgBouncer").
DATABASE_SETTINGS = {
    "hnsw.iterative_scan": "relaxed_order",
    "max_parallel_workers_per_gather": "0",
    "plan_cache_mode": "force_custom_plan",
}

pytestmark = [
    pytest.mark.reliability,
    pytest.mark.skipif(not os.path.exists(PGBOUNCER), reason="apt-get install pgbouncer"),
]


@pytest.fixture
def bouncer(settings, server_data_dir) -> Iterator[str]:
    """A fresh database on the session's server, and PgBouncer in front of it; its URL."""
    parts = urlsplit(settings.DATABASE_URL)
    query = dict(parse_qsl(parts.query))
    socket_dir = query.get("host") or parts.hostname or "/tmp"
    admin_url = settings.DATABASE_URL
    name = f"poco_bouncer_{os.getpid()}"
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
        conn.execute(f"ALTER DATABASE \"{name}\" SET timezone = 'UTC'")
        for key, value in DATABASE_SETTINGS.items():
            conn.execute(f"ALTER DATABASE \"{name}\" SET {key} = '{value}'")
    folder = server_data_dir / "pgbouncer"
    folder.mkdir()
    port = free_port()
    server = f"host={socket_dir}" + (f" port={parts.port}" if parts.port else "")
    user = parts.username or "postgres"
    (folder / "users.txt").write_text(f'"{user}" "{parts.password or ""}"\n')
    (folder / "pgbouncer.ini").write_text(
        f"[databases]\n{name} = {server} dbname={name} user={user}\n"
        f"[pgbouncer]\nlisten_addr = 127.0.0.1\nlisten_port = {port}\nunix_socket_dir =\n"
        f"auth_type = trust\nauth_file = {folder / 'users.txt'}\npool_mode = transaction\n"
        "ignore_startup_parameters = options,extra_float_digits\nmax_client_conn = 1000\n"
        "default_pool_size = 40\n"
    )
    argv = [PGBOUNCER, str(folder / "pgbouncer.ini")]
    if os.geteuid() == 0:  # PgBouncer never runs as root: as the owner of the server socket
        owner = pwd.getpwuid(Path(socket_dir).stat().st_uid).pw_name
        shutil.chown(folder, owner)
        for file in folder.iterdir():
            shutil.chown(file, owner)
        argv[1:1] = ["-u", owner]
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        yield f"postgresql://{user}@127.0.0.1:{port}/{name}"
    finally:
        process.send_signal(signal.SIGINT)
        process.communicate(timeout=30)
        with psycopg.connect(admin_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def behind_bouncer(bouncer, server_data_dir) -> Iterator[Running]:
    env = {"DATABASE_URL": bouncer, "POCO_DB_PREPARED_STATEMENTS": "0"}
    with running_launcher(server_data_dir, **env) as running:
        yield running


def test_the_service_runs_behind_a_transaction_mode_pgbouncer(behind_bouncer):
    service = behind_bouncer

    facts = distinct_facts(40)  # none a duplicate of another: each must be stored

    def writer(w: int) -> list[int]:
        body = {**SCOPE, "action": "add"}
        return [post(service, "/v1/memories/manage", {**body, "text": t}) for t in facts[w::8]]

    with ThreadPoolExecutor(8) as pool:
        statuses = [s for batch in pool.map(writer, range(8)) for s in batch]
    assert statuses == [200] * 40
    listed = service.call("/v1/memories/list-user", {**SCOPE, "page_size": 100})
    assert listed["total"] == 40  # the scope lock held: each add stored once, none lost
    found = service.call("/v1/memories/search", {**SCOPE, "query": "谁负责预算评审"})
    assert found["available"] is True and found["items"]
    state = service.ingest_and_wait("bounced", "以后周报统一用简体中文写，结论先行。")
    assert state["status"] == "succeeded", state
    gone = service.call("/v1/memories/delete-user", SCOPE)
    assert gone["status"] == "deleted"
    assert service.call("/v1/memories/list-user", SCOPE)["total"] == 0
