"""``manage.py memory_reembed --model M --dims N [--base-url URL] [--swap | --abort]``.

Builds the new vectors beside the old ones (``memories.ops.reembed``), with progress; interrupt it
any time and run it again to resume. ``--swap`` finishes the build and swaps atomically; then
set POCO_EMBEDDING_* to the same embedder and restart every node. ``--abort`` drops the shadow
vectors (the live ones never changed). Without ``--base-url`` the target is the bundled
embedder. The API key is read from the environment variable named by ``--api-key-env``."""

from __future__ import annotations

import os
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from memories.engine.embedder import DIMS, MODEL_NAME
from memories.ops.reembed import (
    MAX_DIMS,
    EmbedderTarget,
    reembed_abort,
    reembed_build,
    reembed_swap,
)
from memories.types import BackendError


class Command(BaseCommand):
    help = "Re-embed every memory with another embedder beside the old vectors, then swap."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--model", default=MODEL_NAME, help="target embedding model")
        parser.add_argument("--dims", type=int, default=DIMS, help="its vector width")
        parser.add_argument("--base-url", default="", help="OpenAI-compatible endpoint")
        parser.add_argument(
            "--api-key-env",
            default="POCO_EMBEDDING_API_KEY",
            help="environment variable holding the endpoint's API key",
        )
        parser.add_argument("--swap", action="store_true", help="finish, then swap atomically")
        parser.add_argument("--abort", action="store_true", help="drop the shadow vectors")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["abort"]:
            reembed_abort()
            self.stdout.write("re-embedding aborted: shadow vectors dropped, live ones unchanged")
            return
        if not 1 <= options["dims"] <= MAX_DIMS:
            raise CommandError(
                f"--dims {options['dims']}: pgvector indexes vectors of 1 to {MAX_DIMS} "
                "dimensions; nothing was changed"
            )
        if not options["base_url"] and (options["model"], options["dims"]) != (MODEL_NAME, DIMS):
            raise CommandError(f"the bundled embedder is {MODEL_NAME} with {DIMS} dims")
        target = EmbedderTarget(
            model=options["model"],
            dims=options["dims"],
            base_url=options["base_url"],
            api_key=os.environ.get(options["api_key_env"], ""),
        )
        try:
            if options["swap"]:
                report = reembed_swap(target=target, write=self.stderr.write)
            else:
                report = reembed_build(target=target, write=self.stderr.write)
        except BackendError as exc:
            raise CommandError(f"{exc}; nothing was swapped, run again to resume") from exc
        self.stdout.write(
            f"embedded {report.embedded} of {report.total} rows with {target.model} "
            f"({target.dims} dims)"
        )
        if report.swapped:
            self.stdout.write(
                f"swapped ({report.caught_up} late rows caught up). Now set POCO_EMBEDDING_* "
                f"to {target.model}/{target.dims} and restart every node."
            )
        else:
            self.stdout.write("old vectors still serve. Run again with --swap to switch.")
