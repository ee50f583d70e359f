"""``manage.py memory_preflight``: check a deployment before it serves.

A readable report, one line per check; exit status 1 when any check fails. ``GET /ready`` runs
the cheap part of the same checks (``memories.ops.preflight``)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from memories.ops.preflight import full_checks


class Command(BaseCommand):
    help = "Check extensions, tables, indexes, vector width, NLP models and Mem0 internals."

    def handle(self, *args: Any, **options: Any) -> None:
        checks = full_checks()
        width = max(len(check.name) for check in checks)
        for check in checks:
            mark = "ok  " if check.ok else "FAIL"
            self.stdout.write(f"{mark} {check.name.ljust(width)}  {check.detail}")
        failed = [check.name for check in checks if not check.ok]
        if failed:
            raise CommandError(f"preflight failed: {', '.join(failed)}")
        self.stdout.write(f"preflight passed: {len(checks)} checks")
