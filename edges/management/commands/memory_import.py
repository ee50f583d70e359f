"""``manage.py memory_import --tenant T --user U FILE``: import an export document into a scope.

The same validation and service as ``POST /v1/memories/import``: every item passes admission,
the answer counts added / superseded / no_effect / rejected, and importing the same file twice
changes nothing. Exit status 1 when the backend failed (re-run it to finish)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from edges.contract.export_reader import DocumentProblem, Problem, read_export_file
from edges.management.scope_options import add_scope_arguments, scope_from_options
from memories.ops.portability import ImportItemResult, memory_import
from memories.ops.progress import Progress
from memories.types import Actor, ActorKind


class Command(BaseCommand):
    help = "Import a memory export document (JSON) into one scope."

    def add_arguments(self, parser: CommandParser) -> None:
        add_scope_arguments(parser)
        parser.add_argument("file", help="an export document (memory_export, /v1/memories/export)")

    def handle(self, *args: Any, **options: Any) -> None:
        scope = scope_from_options(options)
        try:
            raw = Path(options["file"]).read_bytes()
        except OSError as exc:
            raise CommandError(f"cannot read {options['file']}: {exc}") from exc
        read = read_export_file(raw)
        if isinstance(read, DocumentProblem):
            if read.problem == Problem.EMPTY:
                items: list[dict[str, Any]] = []
            else:
                what = json.dumps(read.errors, ensure_ascii=False) if read.errors else read.detail
                raise CommandError(f"invalid export document ({read.problem}): {what}")
        else:
            items = read.memories
        actor = Actor(kind=ActorKind.SYSTEM, id="memory_import")
        progress = Progress(total=len(items), label="imported", write=self.stderr.write)

        def advance(result: ImportItemResult) -> None:
            if (
                result.index % PROGRESS_EVERY == PROGRESS_EVERY - 1
                or result.index == len(items) - 1
            ):
                progress.advance(result.index + 1 - progress.done)

        report = memory_import(scope=scope, items=items, actor=actor, on_item=advance)
        counts = Counter(item.status for item in report.items)
        counts["superseded"] = report.superseded  # of the added ones: what they replaced
        self.stdout.write(
            f"{scope.key}: {len(items)} items; "
            + ", ".join(f"{status} {counts.get(status, 0)}" for status in REPORTED)
        )
        for item in report.items:
            if item.status in ("rejected", "backend_error"):
                self.stdout.write(f"  item {item.index}: {item.status} ({item.reason})")
        if report.backend_error:
            raise CommandError(f"backend failed, re-run to finish: {report.backend_error}")
        if report.scope_deleted:
            raise CommandError(str(report.reason))


PROGRESS_EVERY = 100
REPORTED = ("added", "superseded", "no_effect", "rejected", "not_attempted")
