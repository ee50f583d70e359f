"""The gate's result and its report (``report.md`` for people, ``report.json`` for tools):
versions, configuration, failures, every check, recall against the baseline, the clean-up."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from edges.gate.service import RELEASE, SERVICE, Finding
from edges.gate.versions import deployment_versions


@dataclass
class Result:
    run: str
    url: str
    started_at: str
    baseline_recorded_at: str
    target: dict[str, Any] = field(default_factory=dict)
    baseline_versions: dict[str, Any] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)
    recall: dict[str, Any] = field(default_factory=dict)
    recall_sample: dict[str, Any] = field(default_factory=dict)
    cleanup: dict[str, dict[str, int | str]] = field(default_factory=dict)
    server_errors: list[str] = field(default_factory=list)
    requests: int = 0
    seconds: float = 0.0

    @property
    def blocking(self) -> list[str]:
        names = [f.condition for f in self.findings if not f.ok and f.blocking]
        return list(dict.fromkeys(names))

    def summary(self) -> str:
        passed = sum(1 for f in self.findings if f.ok)
        verdict = "REFUSED: " + ", ".join(self.blocking) if self.blocking else "PASSED"
        return f"gate {verdict} ({passed}/{len(self.findings)} checks passed, {self.seconds:.0f}s)"


def recorded_versions(baseline: dict[str, Any]) -> dict[str, Any]:
    """What the report shows of the baseline beside the target, under the names
    ``deployment_versions`` gives now: a baseline of the first format kept the vector
    extension's version as "pgvector" (the Python package's name) and not the package's."""
    versions = dict(baseline.get("versions") or {})
    if int(baseline.get("version") or 1) < 2 and "pgvector" in versions:
        versions = {
            ("vector extension" if name == "pgvector" else name): value
            for name, value in versions.items()
        }
    return {
        "versions": versions,
        "configuration": baseline.get("configuration", {}),
        "data": baseline.get("data", {}),
    }


def write_report(result: Result, directory: Path) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    data = asdict(result)
    data["verdict"] = "refused" if result.blocking else "passed"
    data["blocking"] = result.blocking
    (directory / "report.json").write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n")
    (directory / "report.md").write_text(render_markdown(result))


def _table(header: tuple[str, ...], rows: list[tuple[Any, ...]]) -> list[str]:
    def cell(value: Any) -> str:
        text = "—" if value is None else f"{value:.4f}" if isinstance(value, float) else str(value)
        return text.replace("|", "\\|").replace("\n", " ")

    return [
        "| " + " | ".join(header) + " |",
        "|" + "---|" * len(header),
        *("| " + " | ".join(cell(v) for v in row) + " |" for row in rows),
    ]


def render_markdown(result: Result) -> str:
    """The report for people: a summary, then one section a subject (a section with nothing to
    say is left out)."""
    sections = (
        ("Versions", _versions(result)),
        ("Configuration (secrets masked)", _configuration(result)),
        ("Stored data at the baseline", _baseline_data(result)),
        ("Failures", _failures(result)),
        ("Checks", _checks(result)),
        ("Recall: baseline against now", _recall(result)),
        ("Recall: the sample of real scopes", _recall_sample(result)),
        ("Clean-up", _cleanup(result)),
        ("Server errors", [f"- {e}" for e in result.server_errors]),
    )
    lines = ["# Upgrade gate report", "", *_summary(result)]
    for title, body in sections:
        if body:
            lines += ["", f"## {title}", "", *body]
    return "\n".join(lines) + "\n"


def _summary(result: Result) -> list[str]:
    verdict = (
        "**REFUSED** — blocking: " + ", ".join(f"`{name}`" for name in result.blocking)
        if result.blocking
        else "**PASSED** — no blocking condition"
    )
    return [
        f"- verdict: {verdict}",
        f"- service: {result.url}, run `{result.run}` started {result.started_at}, "
        f"{result.requests} requests in {result.seconds:.0f} s",
        f"- baseline recorded {result.baseline_recorded_at}",
    ]


def _beside(header: str, before: dict[str, Any], now: dict[str, Any]) -> list[str]:
    """A table of each name at the baseline and on the target."""
    names = list(dict.fromkeys([*before, *now]))
    return _table((header, "baseline", "target"), [(n, before.get(n), now.get(n)) for n in names])


def _versions(result: Result) -> list[str]:
    now = deployment_versions(result.target)
    return _beside("component", result.baseline_versions.get("versions", {}), now)


def _configuration(result: Result) -> list[str]:
    before = result.baseline_versions.get("configuration", {})
    return _beside("setting", before, result.target.get("configuration") or {})


def _baseline_data(result: Result) -> list[str]:
    data = result.baseline_versions.get("data") or {}
    if not data:
        return []
    return [
        f"- {name}: {json.dumps(data.get(name), ensure_ascii=False)}"
        for name in ("memories", "entities", "embedding")
    ]


def _failures(result: Result) -> list[str]:
    failures = [f for f in result.findings if not f.ok]
    return [
        f"- `{f.condition}` ({'blocking' if f.blocking else 'warning'}): {f.detail}"
        for f in failures
    ] or ["none"]


def _checks(result: Result) -> list[str]:
    return [
        f"Exercised through the {SERVICE} (HTTP: /health, /ready, /v1, /mcp, the user API) or "
        f"in the {RELEASE} (the release's code against the service's database: Mem0's "
        "internals, the queue's retry decisions, old data's payload, an unreachable vector "
        "store, what deleted scopes leave).",
        "",
        *_table(
            ("condition", "result", "exercised", "detail"),
            [(f.condition, "ok" if f.ok else "FAIL", f.where, f.detail) for f in result.findings],
        ),
    ]


def _recall(result: Result) -> list[str]:
    recall = result.recall
    if not recall:
        return []
    found, silent = recall["positives_found"], recall["negatives_silent"]
    return [
        f"top {recall['top_k']}; a baseline positive may fall {recall['rank_tolerance']} "
        f"places; positives found: {found['baseline']} at the baseline, {found['now']} now "
        f"(of {found['of']}); negatives silent at the baseline: {silent['baseline']} of "
        f"{silent['of']}, answered now: {silent['now_answered']}; rank correlation of the "
        f"scores: {recall['score_correlation']}",
        "",
        *_table(
            ("query", "baseline rank", "baseline score", "rank", "score"),
            [
                (r["query"], r["baseline_rank"], r["baseline_score"], r["rank"], r["score"])
                for r in recall["positives"]
            ],
        ),
    ]


def _recall_sample(result: Result) -> list[str]:
    sample = result.recall_sample
    if not sample:
        return []
    return [
        f"{sample['searches']} searches in {sample['scopes']} scopes (ids and scores only); "
        f"{sample['compared']} compared; mean overlap of the top k with the baseline: "
        f"{sample['mean_overlap']}; top hits lost: {sample['top_hit_lost'] or 'none'}"
    ]


# The counts of what a deleted scope left, when the verify process could read them.
CLEANUP_COUNTS = (
    "history",
    "history_with_text",
    "ingest_jobs",
    "ingest_jobs_with_messages",
    "queue_jobs_pending",
)


def _cleanup(result: Result) -> list[str]:
    return _table(
        ("scope", "delete-user", "memories left", "entities left", *CLEANUP_COUNTS),
        [
            (k, v["delete_user"], v["memories"], v["entities"], *(v.get(c) for c in CLEANUP_COUNTS))
            for k, v in result.cleanup.items()
        ],
    )
