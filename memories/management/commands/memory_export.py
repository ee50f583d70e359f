"""``manage.py memory_export --tenant T --user U [--output FILE]``: one scope's memories as the
versioned export document (``memories.ops.portability``), to a file or stdout."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from memories.management.scope_options import add_scope_arguments, scope_from_options
from memories.ops.portability import memory_export


class Command(BaseCommand):
    help = "Export one scope's memories as versioned JSON (no vectors)."

    def add_arguments(self, parser: CommandParser) -> None:
        add_scope_arguments(parser)
        parser.add_argument("--output", help="file to write (default: stdout)")

    def handle(self, *args: Any, **options: Any) -> None:
        scope = scope_from_options(options)
        document = memory_export(scope=scope)
        text = json.dumps(document, ensure_ascii=False, indent=2)
        if options["output"]:
            Path(options["output"]).write_text(text + "\n", encoding="utf-8")
            count = len(document["memories"])
            self.stderr.write(f"exported {count} memories of {scope.key} to {options['output']}")
        else:
            self.stdout.write(text)
