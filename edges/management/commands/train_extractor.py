"""`python manage.py train_extractor` (`make train-extractor`): the offline extractor's learned
decision, from the labelled set shipped in the repository (docs/extraction.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from memories.engine.extraction import decision

DEFAULT_SET = Path(settings.BASE_DIR) / "eval" / "extraction" / "conversations.jsonl"


class Command(BaseCommand):
    help = (
        "Train the durable-statement head on the labelled set's train split, choose its "
        "threshold on the dev split, and write the weights next to the extractor. The same set "
        "gives the same weights on every run."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--set", type=Path, default=DEFAULT_SET, help="labelled set (.jsonl)")
        parser.add_argument("--out", type=Path, default=decision.WEIGHTS, help="weights (.npz)")

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["set"]
        source = (
            str(path.relative_to(settings.BASE_DIR))
            if path.is_relative_to(settings.BASE_DIR)
            else path.name
        )
        head = decision.train(decision.read_set(path), source=source)
        head.save(options["out"])
        self.stdout.write(json.dumps(head.meta, ensure_ascii=False, sort_keys=True, indent=2))
        self.stdout.write(f"threshold {head.threshold:.6f}; written to {options['out']}")
