"""``manage.py memory_rescan [--apply]``: re-run admission over everything already stored,
and the id rule over the run ids and ingest metadata kept beside it.

Run it after any admission rule change (README, "Admission"). Without ``--apply`` it only
reports; with it, refused memories are deleted completely and offending audit text, run ids
and ingest metadata are blanked. The report gives counts by reason, never the text.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from lifecycle.rescan import pipeline_refs_rescan
from memories.ops.rescan import memory_rescan


class Command(BaseCommand):
    help = "Re-run admission over stored memories and audit text (--apply fixes)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--apply",
            action="store_true",
            help="delete refused memories completely and blank offending audit text",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        apply = bool(options["apply"])
        report = memory_rescan(apply=apply)
        pipeline = pipeline_refs_rescan(apply=apply)
        refs = report.refs + pipeline.found
        self.stdout.write(f"memories refused: {_counts(report.memories)}")
        self.stdout.write(f"audit rows holding refused text: {_counts(report.audit)}")
        self.stdout.write(f"ids and references holding free text or a secret: {_counts(refs)}")
        if not apply:
            if report.memories or report.audit or refs:
                self.stdout.write("Dry run: nothing changed. Run with --apply to clean up.")
            return
        blanked = report.blanked_refs + pipeline.blanked
        self.stdout.write(
            f"deleted {report.deleted} memories; blanked {report.scrubbed_audit} audit rows; "
            f"ids and references blanked: {_counts(blanked)}."
        )
        if report.not_deleted:
            raise CommandError(f"some memories were not deleted: {_counts(report.not_deleted)}")


def _counts(counter: Counter[str]) -> str:
    total = sum(counter.values())
    if not total:
        return "0"
    return f"{total} (" + ", ".join(f"{key} {n}" for key, n in sorted(counter.items())) + ")"
