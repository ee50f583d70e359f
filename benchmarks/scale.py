"""What ``make bench`` measures and how big: the sizes, the server's address, the timing helpers.

Every bench module reads these from here, so that one run agrees on the scale (``BENCH_SCALE``),
the data directory (``BENCH_DATA_DIR``), the port (``BENCH_PORT``) and the service token.
"""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SCALE = float(os.environ.get("BENCH_SCALE", "1"))
PORT = int(os.environ.get("BENCH_PORT", "8160"))
DATA_DIR = Path(os.environ.get("BENCH_DATA_DIR", ROOT / ".data" / "bench")).resolve()
TOKEN = "bench-" + uuid.uuid4().hex
TENANT = "bench"
USERS = 50
TOTAL = max(USERS * 10, int(100_000 * SCALE))
HEAVY = max(200, int(20_000 * SCALE))
MEDIUM = max(100, int(2_000 * SCALE))
# The heavy user is seeded to exactly the default per-user cap and then gets more adds: the bench
# measures a full-size scope, not the cap (the bench process and its server read this).
os.environ.setdefault("POCO_MAX_MEMORIES_PER_USER", str(2 * HEAVY))
SMALL = 100
BATCH = 256
SEARCH_ROUNDS_C1 = 200
SEARCH_REQUESTS_C16 = 800
ADD_SAMPLES = 40
CONCURRENT_ADDS = 50
INGEST_JOBS = 40


def percentiles(prefix: str, samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)

    def at(q: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 2)

    return {f"{prefix}_p50_ms": at(0.5), f"{prefix}_p95_ms": at(0.95), f"{prefix}_p99_ms": at(0.99)}


def timed(call: Callable[[], Any]) -> tuple[float, Any]:
    started = time.perf_counter()
    result = call()
    return (time.perf_counter() - started) * 1000, result


def log(message: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {message}", flush=True)


def scope_of(user: str) -> Any:
    from memories import scope

    return scope.scope_of(tenant_id=TENANT, user_id=user)
