"""`python manage.py calibrate_min_score`: the vector floor for the configured embedder."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand

from memories.calibration import (
    OFF_TOPIC_QUESTIONS,
    POSITIVE_PAIRS,
    UNRELATED_FACTS,
    calibrate,
)
from memories.engine import get_engine


class Command(BaseCommand):
    help = (
        "Score the shipped labelled query/memory pairs with the configured embedder and print "
        "precision and recall per floor and the recommended POCO_SEARCH_MIN_SCORE."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        engine = get_engine()
        result = calibrate(embed=lambda texts: [engine.embed_query(t) for t in texts])
        out = self.stdout
        out.write(
            f"embedder: {settings.EMBEDDING_MODEL or 'bundled'}; {len(POSITIVE_PAIRS)} positive "
            f"pairs; {len(OFF_TOPIC_QUESTIONS)} off-topic questions, each against "
            f"{len(POSITIVE_PAIRS) + len(UNRELATED_FACTS)} memories"
        )
        out.write(
            f"{'floor':>6} {'recall':>7} {'off-topic answered':>18} {'precision':>9} "
            f"{'pair false-pass':>15}"
        )
        for row in result.rows:
            out.write(
                f"{row.floor:>6.2f} {row.recall:>7.2f} {row.off_topic_answered:>18.2f} "
                f"{row.precision:>9.2f} {row.false_pass_rate:>15.2f}"
            )
        silent = result.silent
        if silent is not None:
            out.write(
                f"lowest floor answering no off-topic question: {silent.floor:.2f} "
                f"(recall {silent.recall:.2f})"
            )
        out.write(
            f"recommended floor: {result.recommended:.2f} — the best recall − off-topic answered "
            f"(configured POCO_SEARCH_MIN_SCORE: {settings.SEARCH_MIN_SCORE})"
        )
