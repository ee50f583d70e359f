"""`make load`: the locust scenario (benchmarks/locustfile.py) against the real server on
loopback, headless, at a fixed rate for a bounded time, then the books are checked.

``LOAD_USERS`` simulated agents (16) each make one call per second for ``LOAD_TIME`` (60s).
It reports throughput and percentiles per operation and fails (exit 1) on any 5xx, on a scope
whose final memories differ from the writes the service accepted (ids answered ``added``
minus those answered ``deleted``), on a duplicated text, or on an ingest job that never ends.
Its own embedded PostgreSQL lives in ``.data/load``; the server listens on 8161.
"""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
os.environ.setdefault("BENCH_PORT", "8161")
os.environ.setdefault("BENCH_DATA_DIR", str(ROOT / ".data" / "load"))

from benchmarks import seeding, server  # noqa: E402 - read the port and folder above
from benchmarks.scale import DATA_DIR, PORT, TOKEN  # noqa: E402

USERS = int(os.environ.get("LOAD_USERS", "16"))
DURATION = os.environ.get("LOAD_TIME", "60s")
FINAL = {"succeeded", "no_effect", "skipped", "failed"}


def locust(tally: Path, prefix: Path) -> None:
    env = {**os.environ, "LOAD_TOKEN": TOKEN, "LOAD_TALLY": str(tally)}
    subprocess.run(
        [
            sys.executable,
            *("-m", "locust", "-f", str(ROOT / "benchmarks" / "locustfile.py")),
            *("--headless", "--only-summary", "-u", str(USERS), "-r", str(USERS)),
            *("-t", DURATION, "--host", f"http://127.0.0.1:{PORT}"),
            *("--csv", str(prefix), "--exit-code-on-error", "0", "--loglevel", "WARNING"),
            # Let a call in flight at the end finish, or its write is not in the books.
            *("--stop-timeout", "60"),
        ],
        env=env,
        check=True,
    )


def wait_for_ingest(jobs: dict[str, list[str]]) -> int:
    """Seconds until every accepted job ended; returns how many never did."""
    client = server.Client()
    pending = {(scope, job) for scope, ids in jobs.items() for job in ids}
    deadline = time.monotonic() + 300
    while pending and time.monotonic() < deadline:
        for scope, job in list(pending):
            _, data = client.get(f"/v1/memories/ingest/{job}?tenant_id=load&user_id={scope}")
            if json.loads(data)["status"] in FINAL:
                pending.discard((scope, job))
        time.sleep(0.5)
    return len(pending)


def reconcile(tally: dict[str, Any]) -> dict[str, int]:
    from memories.models import MemoryRow
    from memories.scope import scope_of

    mismatched = duplicated = 0
    scopes = [*tally["accepted"], *tally["ingest_jobs"]]
    for user in scopes:
        rows = MemoryRow.objects.filter(
            payload__user_id=scope_of(tenant_id="load", user_id=user).key
        )
        ids = {str(r.id) for r in rows}
        texts = [r.payload["data"] for r in rows]
        duplicated += len(texts) - len(set(texts))
        books = tally["accepted"].get(user)
        expected = set(books["added"]) - set(books["deleted"]) if books is not None else ids
        if ids != expected:
            mismatched += 1
            print(f"{user}: {len(ids - expected)} unexpected, {len(expected - ids)} missing")
    writes = sum(len(b["added"]) + len(b["deleted"]) for b in tally["accepted"].values())
    return {
        "accepted_writes": writes,
        "scopes_mismatched": mismatched,
        "texts_duplicated": duplicated,
    }


def summary(prefix: Path) -> tuple[list[dict[str, str]], int]:
    with open(f"{prefix}_stats.csv", encoding="utf-8") as handle:
        stats = list(csv.DictReader(handle))
    with open(f"{prefix}_failures.csv", encoding="utf-8") as handle:
        failures = sum(int(row["Occurrences"]) for row in csv.DictReader(handle))
    # An exception inside a task (the scenario's own bug) is a failure too, never a quiet run.
    with open(f"{prefix}_exceptions.csv", encoding="utf-8") as handle:
        failures += sum(int(row["Count"]) for row in csv.DictReader(handle))
    return stats, failures


def main() -> int:
    seeding.setup_django()
    seeding.empty_database()
    tally_path = DATA_DIR / "load-tally.json"
    prefix = DATA_DIR / "load"
    with server.server():
        server.warm_up()
        locust(tally_path, prefix)
        tally = json.loads(tally_path.read_text())
        unfinished = wait_for_ingest(tally["ingest_jobs"])
    books = reconcile(tally)
    stats, failures = summary(prefix)
    print(f"{'operation':14} {'requests':>8} {'req/s':>7} {'p50':>6} {'p95':>6} {'p99':>6}")
    for row in stats:
        print(
            f"{row['Name']:14} {row['Request Count']:>8} {float(row['Requests/s']):7.1f} "
            f"{row['50%']:>6} {row['95%']:>6} {row['99%']:>6}"
        )
    print(f"5xx, connection or task failures: {failures}; ingest never finished: {unfinished}")
    print(", ".join(f"{k}: {v}" for k, v in books.items()))
    requests = sum(int(row["Request Count"]) for row in stats if row["Name"] == "Aggregated")
    ok = requests and not failures and not unfinished and not books["scopes_mismatched"]
    return 0 if ok and not books["texts_duplicated"] else 1


if __name__ == "__main__":
    sys.exit(main())
