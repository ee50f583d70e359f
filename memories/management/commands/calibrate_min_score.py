"""`python manage.py calibrate_min_score`: the vector floor for the configured embedder."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand

from memories.calibration import POSITIVE_PAIRS, UNRELATED_FACTS, calibrate
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
            f"pairs, {len(POSITIVE_PAIRS) * len(UNRELATED_FACTS)} negative pairs"
        )
        out.write(f"{'floor':>6} {'precision':>9} {'recall':>7} {'false-pass':>10} {'J':>6}")
        for row in result.rows:
            out.write(
                f"{row.floor:>6.2f} {row.precision:>9.2f} {row.recall:>7.2f} "
                f"{row.false_pass_rate:>10.2f} {row.youden:>6.2f}"
            )
        out.write(
            f"recommended floor: {result.recommended:.2f} "
            f"(configured POCO_SEARCH_MIN_SCORE: {settings.SEARCH_MIN_SCORE})"
        )
