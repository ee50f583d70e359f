"""`python manage.py calibrate_dedup`: the semantic-duplicate floor for the configured embedder."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand

from memories import governance
from memories.engine import get_engine
from memories.ops.dedup_calibration import DEDUP_PAIRS, calibrate_dedup


class Command(BaseCommand):
    help = (
        "Score the shipped labelled duplicate / not-duplicate pairs with the configured embedder "
        "and the duplicate rule, print recall and false merges per floor and the recommended "
        "POCO_DEDUP_MIN_SCORE."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        engine = get_engine()
        result = calibrate_dedup(
            embed=lambda texts: [engine.embed_query(t) for t in texts],
            is_duplicate=lambda existing, candidate, similarity, floor: governance.is_duplicate(
                existing=existing, candidate=candidate, similarity=similarity, min_score=floor
            ),
        )
        duplicates = sum(d for _, _, d in DEDUP_PAIRS)
        out = self.stdout
        out.write(
            f"embedder: {settings.EMBEDDING_MODEL or 'bundled'}; {duplicates} duplicate pairs, "
            f"{len(DEDUP_PAIRS) - duplicates} not-duplicate pairs"
        )
        out.write(
            f"{'floor':>6} {'recall':>7} {'false-merge':>11} {'J':>6}   "
            f"{'cosine alone: recall':>20} {'false-merge':>11}"
        )
        for row, cosine in zip(result.rows, result.cosine_only, strict=True):
            out.write(
                f"{row.floor:>6.2f} {row.recall:>7.2f} {row.false_merge_rate:>11.2f} "
                f"{row.youden:>6.2f}   {cosine.recall:>20.2f} {cosine.false_merge_rate:>11.2f}"
            )
        out.write(
            f"recommended floor: {result.recommended:.2f} "
            f"(configured POCO_DEDUP_MIN_SCORE: {settings.DEDUP_MIN_SCORE})"
        )
