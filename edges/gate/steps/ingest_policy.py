"""What the ingest worker decides, asked in-process: the retry policy and the language guard."""

from __future__ import annotations

from edges.gate import release
from edges.gate.harness import Gate, Step
from edges.gate.service import RELEASE


def ingest_policy(gate: Gate) -> None:
    """The retry policy and the language guard the queue worker runs, asked in-process. The
    worker's own run of a drifted extraction (refused, retried once under a stricter
    instruction, failed for good the second time) needs a scripted LLM the live service does
    not have: tests/lifecycle/test_extraction_guards.py drives it."""
    decisions = release.retry_decisions()
    gate.check(
        "ingest.backoff_1_2_4",
        decisions.backend_delays == (1, 2, 4, None),
        f"a temporary backend failure after attempts 0-3 is retried after "
        f"{list(decisions.backend_delays)} s (None: final)",
        where=RELEASE,
    )
    retried = [name for name, again in decisions.deterministic if again]
    gate.check(
        "ingest.deterministic_not_retried",
        not retried,
        f"retried: {retried}"
        if retried
        else "never retried: " + ", ".join(n for n, _ in decisions.deterministic),
        where=RELEASE,
    )
    ok, detail = release.drift_guard()
    gate.check("ingest.language_guard", ok, detail, where=RELEASE)


STEP = Step("ingest-policy", ingest_policy)
