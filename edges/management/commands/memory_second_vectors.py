"""``manage.py memory_second_vectors [--batch N] [--limit N] [--rebuild]``.

Embeds every memory that has no second vector of the configured second model
(``POCO_SECOND_MODEL``) with progress — done/total, rate, time left — and resumes where an
interrupted run stopped. ``--rebuild`` changes the column's width first when the second model
is a new one of another width (every second vector is dropped and refilled; the first
embedder's channels keep answering meanwhile)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from memories.ops.second_vectors import BATCH, second_backfill
from memories.types import BackendError


class Command(BaseCommand):
    help = "Fill in the memories' second vectors (recall's meaning channel), resumable."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--batch", type=int, default=BATCH, help="memories per batch")
        parser.add_argument("--limit", type=int, default=None, help="embed at most this many")
        parser.add_argument(
            "--rebuild",
            action="store_true",
            help="change the column to the configured second model's width first",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["batch"] < 1:
            raise CommandError("--batch must be at least 1")
        if options["limit"] is not None and options["limit"] < 1:
            raise CommandError("--limit must be at least 1 (leave it out to embed every memory)")
        try:
            report = second_backfill(
                write=self.stderr.write,
                batch=options["batch"],
                limit=options["limit"],
                rebuild=options["rebuild"],
            )
        except (BackendError, ValueError) as exc:
            raise CommandError(f"{exc}; what was stored stays, run again to resume") from exc
        if report.model == "off":
            self.stdout.write("the second model is off (POCO_SECOND_MODEL=off): nothing to do")
            return
        rebuilt = " (column rebuilt for the new width)" if report.rebuilt else ""
        self.stdout.write(
            f"embedded {report.embedded} memories with {report.model}{rebuilt}; "
            f"{report.total} memories in all"
        )
