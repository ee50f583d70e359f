"""The bench's verdicts and where they are written: ``benchmarks/results/*.json`` and the table
between the ``bench:begin`` / ``bench:end`` marks of ``docs/benchmarks.md``."""

from __future__ import annotations

import json
import os
import platform
import subprocess
from datetime import UTC, datetime
from typing import Any

from benchmarks.scale import ROOT, SCALE

RESULTS = ROOT / "benchmarks" / "results"
DOC = ROOT / "docs" / "benchmarks.md"

# key -> (target, "max" when lower is better / "min" when higher is better)
TARGETS: dict[str, tuple[float, str]] = {
    "search_http_c1_p95_ms": (60.0, "max"),
    "search_http_c16_p95_ms": (150.0, "max"),
    # A question no process has embedded yet, from one client, a 2,000-memory user (issue 44).
    "search_http_fresh_2000_c1_p95_ms": (60.0, "max"),
    "add_http_20000_p50_ms": (60.0, "max"),
    "add_http_20000_p95_ms": (80.0, "max"),
    "concurrent_adds_50_total_ms": (3000.0, "max"),
    "batch_import_per_s": (100.0, "min"),
    "delete_user_20000_ms": (10_000.0, "max"),
    # Ratios within one run: they hold on a busy machine where absolute figures cannot.
    "search_http_c1_p95_over_floor_bound": (1.0, "max"),
    "search_http_c1_p95_over_mem0": (1.0, "max"),
    "add_http_20000_p50_over_100": (1.5, "max"),
    "add_http_20000_p50_over_mem0": (2.5, "max"),
    "delete_user_20000_left_anywhere": (0, "max"),
    "delete_user_2000_left_anywhere": (0, "max"),
}


def ratios(results: dict[str, Any]) -> None:
    """The issue's relative targets: HTTP search p95 within 2 x the SQL floor plus the query
    embedding, never slower than Mem0's search; an add's cost flat in the scope's size and
    within 2.5 x Mem0's own add."""

    def ratio(a: str, b: float) -> float:
        return round(float(results[a]) / b, 2) if b else 0.0

    bound = 2 * results["search_sql_floor_p95_ms"] + results["query_embedding_p95_ms"]
    results["search_http_c1_p95_over_floor_bound"] = ratio("search_http_c1_p95_ms", bound)
    results["search_http_c1_p95_over_mem0"] = ratio(
        "search_http_c1_p95_ms", results["search_mem0_inprocess_p95_ms"]
    )
    results["add_http_20000_p50_over_100"] = ratio(
        "add_http_20000_p50_ms", results["add_http_100_p50_ms"]
    )
    results["add_http_20000_p50_over_mem0"] = ratio(
        "add_http_20000_p50_ms", results["add_mem0_inprocess_p50_ms"]
    )


def machine() -> dict[str, Any]:
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    return {
        "machine": f"{platform.machine()} {os.cpu_count()} cores, {platform.system()}",
        "python": platform.python_version(),
        "commit": commit,
        "when": datetime.now(UTC).strftime("%Y-%m-%dT%H:%MZ"),
        "bench_scale": SCALE,
        "load_average_at_start": round(os.getloadavg()[0], 2),
    }


def verdicts(results: dict[str, Any]) -> dict[str, str]:
    found = {}
    for key, (target, sense) in TARGETS.items():
        if key not in results:
            continue
        ok = results[key] <= target if sense == "max" else results[key] >= target
        found[key] = "met" if ok else "MISSED"
    return found


def write(results: dict[str, Any], *, name: str = "latest", table: bool = True) -> None:
    """``results`` into ``benchmarks/results/<name>.json`` and, for a full run, the table of
    ``docs/benchmarks.md``; printed either way, with the targets missed."""
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / f"{name}.json").write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n")
    for key, value in results.items():
        print(f"{key:42} {value}")
    missed = [k for k, v in verdicts(results).items() if v != "met"]
    print("targets missed: " + (", ".join(missed) if missed else "none"))
    if table:
        write_table(results)


def write_table(results: dict[str, Any]) -> None:
    rows = ["| measure | value | target | |", "|---|---:|---:|---|"]
    judged = verdicts(results)
    for key, value in results.items():
        target = TARGETS.get(key)
        shown = f"{'≤' if target[1] == 'max' else '≥'} {target[0]:g}" if target else ""
        rows.append(f"| `{key}` | {value} | {shown} | {judged.get(key, '')} |")
    table = "\n".join(rows)
    begin, end = "<!-- bench:begin -->", "<!-- bench:end -->"
    text = DOC.read_text() if DOC.exists() else f"# Benchmarks\n\n{begin}\n{end}\n"
    head, rest = text.split(begin, 1)
    tail = rest.split(end, 1)[1]
    DOC.write_text(f"{head}{begin}\n{table}\n{end}{tail}")
