"""``manage.py memory_gate baseline --out FILE`` before an upgrade, ``manage.py memory_gate
verify --baseline FILE --report DIR --url URL --token TOKEN`` after it (``edges.gate``).

``verify`` exits non-zero, naming each blocking condition, whenever the release must stop."""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from edges.gate.verify import STEPS


def scope_count(text: str) -> int:
    """A count of scopes: 0 or more (a negative one was taken as 0 without a word)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {value}")
    return value


class Command(BaseCommand):
    help = "Record a baseline before an upgrade; verify the live service against it after."

    def add_arguments(self, parser: CommandParser) -> None:
        sub = parser.add_subparsers(dest="step", required=True)
        baseline = sub.add_parser("baseline", help="record versions, data shape, recall")
        baseline.add_argument("--out", required=True, help="the baseline file to write (JSON)")
        baseline.add_argument(
            "--sample-scopes",
            type=scope_count,
            default=0,
            help="also record the top-k ids and scores (never text) of this many real scopes "
            "(those with the most active memories) for fixed questions; verify compares them",
        )
        verify = sub.add_parser("verify", help="run the regression against the live service")
        verify.add_argument("--baseline", required=True, help="a file `baseline` wrote")
        verify.add_argument("--report", required=True, help="directory for report.md/.json")
        verify.add_argument(
            "--url", default="", help="the service, e.g. http://host:8000 (default: $POCO_GATE_URL)"
        )
        verify.add_argument(
            "--only",
            default="",
            help="comma-separated steps to run instead of all of them, to look into one failure "
            "(never a go by itself): " + ", ".join(STEPS),
        )
        verify.add_argument(
            "--token",
            default="",
            help="a /v1 service token not bound to tenants (default: $POCO_GATE_TOKEN)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["step"] == "baseline":
            self._baseline(Path(options["out"]), sample_scopes=options["sample_scopes"])
        else:
            self._verify(options)

    def _baseline(self, out: Path, *, sample_scopes: int) -> None:
        from edges.gate.baseline import BaselineError, record_baseline

        try:
            baseline = record_baseline(sample_scopes=sample_scopes, write=self.stderr.write)
        except BaselineError as exc:
            raise CommandError(f"baseline not recorded: {exc}") from exc
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(baseline, ensure_ascii=False, indent=2) + "\n")
        recall = baseline["recall"]
        found = sum(1 for p in recall["positives"] if p["rank"])
        silent = sum(1 for n in recall["negatives"] if not n["hits"])
        self.stdout.write(
            f"baseline written to {out}: {baseline['data']['memories']['total']} memories, "
            f"recall {found}/{len(recall['positives'])} positives found, "
            f"{silent}/{len(recall['negatives'])} negatives answered nothing"
        )

    def _verify(self, options: dict[str, Any]) -> None:
        from edges.gate.baseline import BaselineError, read_baseline
        from edges.gate.verify import verify

        token = options["token"] or os.environ.get("POCO_GATE_TOKEN", "")
        url = options["url"] or os.environ.get("POCO_GATE_URL", "")
        if not token or not url:
            raise CommandError("--url and --token (or POCO_GATE_URL, POCO_GATE_TOKEN) are required")
        only = frozenset(name.strip() for name in options["only"].split(",") if name.strip())
        unknown = sorted(only - set(STEPS))
        if unknown:
            raise CommandError(f"unknown step(s) {unknown}; the steps are {', '.join(STEPS)}")
        baseline_file = Path(options["baseline"])
        try:
            baseline = read_baseline(baseline_file)
        except BaselineError as exc:
            raise CommandError(f"baseline {baseline_file}: {exc}") from exc
        result = verify(
            baseline=baseline,
            url=url,
            token=token,
            report_dir=Path(options["report"]),
            write=self.stderr.write,
            only=only,
        )
        self.stdout.write(result.summary())
        if result.blocking:
            raise CommandError("release refused: " + ", ".join(result.blocking))
