"""`make bench`: the service at a real user's scale, measured side by side in one run.

Seeds ``100,000 x BENCH_SCALE`` synthetic memories (benchmarks/corpus.py) over 50 users plus a
heavy user holding ``20,000 x BENCH_SCALE`` through the import (memory_add_many), starts the real
server (``python -m poco_memory.launcher``) on the bench database, and measures search over HTTP
at concurrency 1 and 16 beside Mem0's own ``Memory.search`` and the SQL floor, explicit adds over
HTTP at three scope sizes, 50 concurrent adds to one scope, ingest throughput, delete-user with
the clean-up verified, and the resident memory of the processes.  Writes
``benchmarks/results/latest.json`` and the table in ``docs/benchmarks.md``.  Never part of
``make test``; the exit status is 0 even when a target is missed (the table says which).

``--only search`` (``make bench ONLY=search``) measures search alone: it seeds just the
2,000- and 20,000-memory users (a kept ``.data/bench`` whose fingerprint matches is reused, so a
second run starts in seconds), searches both over HTTP at concurrency 1 — the bench's 16
repeated queries, then 200 questions each asked once — and the heavy user at 16 too, checks
that the meaning channel reads its HNSW index (``meaning_plans_on_hnsw``), and writes
``benchmarks/results/search.json``; the table in the docs stays the full run's.  The in-process
split of a search's time is ``benchmarks/search_profile.py``'s.

Its own embedded PostgreSQL lives in ``.data/bench`` (``BENCH_DATA_DIR``), so tests and a dev
server are untouched; the server listens on ``BENCH_PORT`` (8160).  The modules: ``scale``
(sizes, timing), ``seeding`` (the database), ``server`` (the real server, its client),
``searches`` and ``writes`` (the measurements), ``report`` (verdicts, the table).
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from benchmarks import report, searches, seeding, writes
from benchmarks.scale import HEAVY, PORT, TOTAL, log
from benchmarks.server import server, warm_up


def full(results: dict[str, Any]) -> None:
    """Everything the service is budgeted on, from an empty database."""
    seeding.empty_database()
    log(f"seeding {TOTAL} memories (heavy user {HEAVY})")
    sizes = seeding.seed(results, list(seeding.all_users()))
    log(f"batch import: {results['batch_import_per_s']}/s; starting the server on :{PORT}")
    with server() as launcher:
        warm_up()
        log("search over HTTP")
        searches.search_http(results)
        log("search in process (Mem0, SQL floor)")
        searches.search_in_process(results)
        log("adds over HTTP")
        writes.adds_http(results, sizes)
        writes.concurrent_adds(results)
        log("ingest")
        writes.ingest(results)
        writes.resident_memory(results, launcher)
        log("delete-user")
        writes.delete_user(results, "medium", "2000")
        writes.delete_user(results, "heavy", "20000")
    report.ratios(results)
    results["delete_user_2000_scope_size"] = sizes["medium"]
    results["delete_user_20000_scope_size"] = sizes["heavy"]
    report.write(results)


def search_only(results: dict[str, Any]) -> None:
    """Search's budget alone, on the heavy and the medium user (seeded once, then reused)."""
    sizes = seeding.reuse_or_seed(results, ["heavy", "medium"])
    results |= {f"search_{user}_scope_size": size for user, size in sizes.items()}
    with server():
        warm_up()
        log("search over HTTP: the 20,000-memory user, then the 2,000-memory one")
        searches.search_http(results)
        searches.search_http(results, user="medium", concurrent=False)
        log("new questions over HTTP, both users")
        searches.fresh_search_http(results, user="heavy")
        searches.fresh_search_http(results, user="medium")
    searches.meaning_plan(results)
    report.write(results, name="search", table=False)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=["search"], help="one part of the bench alone")
    only = parser.parse_args(argv).only
    seeding.setup_django()
    results: dict[str, Any] = report.machine()
    if served := os.environ.get("BENCH_SERVER_ROOT"):
        results["served_from"] = served
    if only == "search":
        search_only(results)
    else:
        full(results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
