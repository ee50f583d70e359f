"""`python manage.py train_hubness`: the bank, the language directions and the threshold that
decide a memory in the other language than the question (``memories.recall.hubness``), from
the sets shipped in the repository (docs/retrieval.md, "Across languages")."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from memories.engine.extraction.decision import read_set
from memories.engine.second import E5_SMALL
from memories.learned.e5 import bundled_e5
from memories.recall import hubness

EXTRACTION = Path(settings.BASE_DIR) / "eval" / "extraction" / "conversations.jsonl"


class Command(BaseCommand):
    help = (
        "Build the cross-language bank and directions from the extraction set's train split and "
        "choose the threshold on the relevance set's dev users; the same sets give the same file."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--out", type=Path, default=hubness.WEIGHTS, help="file (.npz)")

    def handle(self, *args: Any, **options: Any) -> None:
        from eval.relevance.judge import examples
        from eval.relevance.judge import read_set as read_relevance

        said, facts = hubness.bank_texts(read_set(EXTRACTION))
        answers, wrong, off_topic = examples("dev", *read_relevance())
        e5 = bundled_e5()
        built = hubness.build(
            model=E5_SMALL,
            embed_queries=e5.query,
            embed_passages=e5.passage,
            said=said,
            facts=facts,
            dev=hubness.DevPairs(answers=answers, wrong=wrong, off_topic=off_topic),
            source={
                "bank_from": "eval/extraction/conversations.jsonl (train split, texts only)",
                "threshold_from": "eval/relevance (dev users)",
            },
        )
        built.save(options["out"])
        self.stdout.write(json.dumps(built.meta, ensure_ascii=False, sort_keys=True, indent=2))
        self.stdout.write(f"threshold {built.threshold:.3f}; written to {options['out']}")
