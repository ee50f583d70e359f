"""``manage.py memory_export --tenant T --user U [--output FILE]``: one scope's memories as the
versioned export document (``memories.ops.portability``), to a file or stdout."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from edges.management.scope_options import add_scope_arguments, scope_from_options
from memories.ops.portability import memory_export


class Command(BaseCommand):
    help = "Export one scope's memories as versioned JSON (no vectors)."

    def add_arguments(self, parser: CommandParser) -> None:
        add_scope_arguments(parser)
        parser.add_argument("--output", help="file to write (default: stdout)")

    def handle(self, *args: Any, **options: Any) -> None:
        scope = scope_from_options(options)
        output = Path(options["output"]) if options["output"] else None
        if output is not None and not output.parent.is_dir():
            # Before the export: nothing is read (or recorded as exported) for a file that
            # cannot be written.
            raise CommandError(f"cannot write {output}: {output.parent} is not a directory")
        document = memory_export(scope=scope)
        text = json.dumps(document, ensure_ascii=False, indent=2)
        if output is not None:
            try:
                output.write_text(text + "\n", encoding="utf-8")
            except OSError as exc:
                raise CommandError(f"cannot write {output}: {exc.strerror or exc}") from exc
            count = len(document["memories"])
            self.stderr.write(f"exported {count} memories of {scope.key} to {options['output']}")
        else:
            self.stdout.write(text)
