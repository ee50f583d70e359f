"""Eight writers flooding one scope on `make run`: every process holds a bounded number of
PostgreSQL connections, the writers queue on the scope lock, and other tenants never notice."""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import psycopg
import pytest

from poco_memory import embedded_db
from tests.processes import get
from tests.serving.conftest import Running

WRITERS = 8
ADDS_EACH = 40


def post(launcher: Running, path: str, payload: dict) -> int:
    request = urllib.request.Request(
        launcher.url + path,
        data=json.dumps(payload).encode(),
        headers={"Authorization": f"Bearer {launcher.token()}", "Content-Type": "application/json"},
    )
    try:
        # Generous: a process's first request loads its models, slow on a busy machine.
        with urllib.request.urlopen(request, timeout=300) as response:
            response.read()
            return int(response.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


def client_backends(launcher: Running) -> int:
    """Connections the service holds (ours excluded), as PostgreSQL counts them."""
    with psycopg.connect(embedded_db.url(launcher.data_dir), autocommit=True) as conn:
        row = conn.execute(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()"
        ).fetchone()
    assert row is not None
    return int(row[0])


def wait_for_backends(launcher: Running, at_most: int, timeout: float) -> int:
    deadline = time.monotonic() + timeout
    while (count := client_backends(launcher)) > at_most and time.monotonic() < deadline:
        time.sleep(0.5)
    return count


def other_tenant_round(launcher: Running, n: int) -> list[int]:
    scope = {"tenant_id": "bystander", "user_id": f"u{n % 3}"}
    return [
        post(
            launcher,
            "/v1/memories/manage",
            {**scope, "action": "add", "text": f"我喜欢第{n}号绿茶。"},
        ),
        post(launcher, "/v1/memories/list-user", scope),
        get(launcher.url + "/health", timeout=300)[0],
    ]


@pytest.mark.reliability
def test_a_flood_of_writers_to_one_scope_leaves_every_other_tenant_working(launcher):
    # Warm every process (its pools, models) with what the flood does, then take the floor.
    # Concurrently: one request at a time is accepted by the same process again and again.
    with ThreadPoolExecutor(WRITERS) as pool:
        for statuses in pool.map(lambda n: other_tenant_round(launcher, n), range(3 * WRITERS)):
            assert statuses == [200, 200, 200]
    idle_floor = wait_for_backends(launcher, at_most=0, timeout=8)

    peak = 0
    stop = threading.Event()
    bystander: list[int] = []

    def watch() -> None:
        nonlocal peak
        while not stop.is_set():
            peak = max(peak, client_backends(launcher))
            time.sleep(0.2)  # a sample every 0.2 s for as long as the flood lasts

    def bystand() -> None:
        n = 100
        while not stop.is_set():
            bystander.extend(other_tenant_round(launcher, n))
            n += 1

    def writer(w: int) -> list[int]:
        scope = {"tenant_id": "flood", "user_id": "one"}
        return [
            post(
                launcher,
                "/v1/memories/manage",
                {
                    **scope,
                    "action": "add",
                    "text": f"写手{w}的第{i}条稳定偏好：周{i % 7}喝乌龙茶。",
                },
            )
            for i in range(ADDS_EACH)
        ]

    watcher = threading.Thread(target=watch)
    other = threading.Thread(target=bystand)
    watcher.start()
    other.start()
    try:
        with ThreadPoolExecutor(WRITERS) as pool:
            statuses = [s for batch in pool.map(writer, range(WRITERS)) for s in batch]
    finally:
        stop.set()
        watcher.join()
        other.join()

    assert statuses.count(200) == WRITERS * ADDS_EACH, sorted(set(statuses))
    assert bystander and set(bystander) == {200}, sorted(set(bystander))
    bound = launcher.connection_bound()
    assert peak <= bound, f"{peak} backends during the flood, the documented bound is {bound}"
    # Afterwards the pools shrink back to what they keep idle, and everyone is served.
    assert wait_for_backends(launcher, at_most=idle_floor, timeout=60) <= idle_floor
    for n in range(6):
        assert other_tenant_round(launcher, n) == [200, 200, 200]
