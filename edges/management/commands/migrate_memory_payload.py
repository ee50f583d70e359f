"""``manage.py migrate_memory_payload [--apply] [--rebuild-entities]``.

Dry run by default: prints how many memories lack which field. ``--apply`` fills them in place
(ids and vectors unchanged). ``--rebuild-entities`` (with ``--apply``) backs the entity table
up, empties it and relinks trusted memories only; without ``--apply`` it counts them. Progress
is printed per batch; an interrupted run is resumed by running it again."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from memories.ops.payload_migration import migrate_payloads, rebuild_entities


class Command(BaseCommand):
    help = "Fill missing payload fields (dry run unless --apply); optionally rebuild entities."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--apply", action="store_true", help="write the changes")
        parser.add_argument(
            "--rebuild-entities",
            action="store_true",
            help="back the entity table up, then rebuild it from trusted memories only",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        apply = bool(options["apply"])
        report = migrate_payloads(apply=apply, write=self.stderr.write)
        fields = ", ".join(f"{name} {n}" for name, n in sorted(report.fields.items())) or "-"
        verb = "changed" if apply else "would change"
        self.stdout.write(
            f"payloads: scanned {report.scanned}, {verb} {report.changed} (missing: {fields})"
        )
        if report.skipped_scopes:
            self.stdout.write(f"skipped {report.skipped_scopes} group(s) without a valid scope")
        if options["rebuild_entities"]:
            rebuilt = rebuild_entities(apply=apply, write=self.stderr.write)
            verb = "linked" if apply else "would link"
            self.stdout.write(
                f"entities: scanned {rebuilt.scanned}, {verb} {rebuilt.linked} trusted memories"
                + (f"; backup {rebuilt.backup_table}" if rebuilt.backup_table else "")
            )
        if not apply:
            self.stdout.write("Dry run: nothing changed. Run with --apply to write.")
