"""`python manage.py calibrate_min_score`: the floors of recall's two vector channels for the
configured embedders (the first model's ``vector`` channel and the second model's ``meaning``
channel)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand

from memories.engine import get_engine, second
from memories.ops.calibration import (
    OFF_TOPIC_QUESTIONS,
    POSITIVE_PAIRS,
    SECOND_FLOORS,
    UNRELATED_FACTS,
    Calibration,
    calibrate,
    calibrate_pairs,
    recommend_pair,
    recommend_related,
    recommend_second,
)


class Command(BaseCommand):
    help = (
        "Score the shipped labelled query/memory pairs with the configured embedders and print "
        "precision and recall per floor, the recommended POCO_SEARCH_MIN_SCORE and (with a "
        "second model) POCO_SECOND_MODEL_MIN_SCORE and POCO_SECOND_MODEL_RELATED_MIN_SCORE."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        engine = get_engine()
        first = calibrate(embed=lambda texts: [engine.embed_query(t) for t in texts])
        out = self.stdout
        out.write(
            f"{len(POSITIVE_PAIRS)} positive pairs; {len(OFF_TOPIC_QUESTIONS)} off-topic "
            f"questions, each against {len(POSITIVE_PAIRS) + len(UNRELATED_FACTS)} memories"
        )
        out.write(f"\nfirst embedder: {settings.EMBEDDING_MODEL}")
        self._table(first)
        out.write(
            f"recommended floor: {first.recommended:.2f} — the best recall − off-topic answered "
            f"(configured POCO_SEARCH_MIN_SCORE: {settings.SEARCH_MIN_SCORE})"
        )
        model = second.configured()
        if model is None:
            out.write("\nsecond model: off")
            return
        result = calibrate(embed=model.queries, embed_memories=model.passages, floors=SECOND_FLOORS)
        out.write(f"\nsecond model: {model.name}")
        self._table(result)
        floor = recommend_second(first, result)
        out.write(
            f"recommended floor: {floor:.2f} — the best recall − "
            "off-topic answered among the floors answering fewer off-topic questions than the "
            "first embedder at its floor (configured POCO_SECOND_MODEL_MIN_SCORE: "
            f"{settings.SECOND_MODEL_MIN_SCORE})"
        )
        out.write(
            f"recommended floor of related memories: {recommend_related(result, floor=floor):.2f}"
            " — the best recall − pair false-pass at or under that floor (configured "
            f"POCO_SECOND_MODEL_RELATED_MIN_SCORE: {settings.SECOND_MODEL_RELATED_MIN_SCORE})"
        )
        bound = first.row(first.recommended).off_topic_answered
        configured = {
            "zh": ("POCO_SECOND_MODEL_MIN_SCORE", settings.SECOND_MODEL_MIN_SCORE),
            "en": ("POCO_SECOND_MODEL_EN_MIN_SCORE", settings.SECOND_MODEL_EN_MIN_SCORE),
            "across": (
                "POCO_SECOND_MODEL_ACROSS_MIN_SCORE",
                settings.SECOND_MODEL_ACROSS_MIN_SCORE,
            ),
        }
        pairs = calibrate_pairs(
            embed=model.queries, embed_memories=model.passages, floors=SECOND_FLOORS
        )
        for kind, calibration in pairs.items():
            out.write(
                f"\nsecond model, {kind} pairs: {len(calibration.positives)} positive pairs, "
                f"{len(calibration.off_topic_best)} off-topic questions"
            )
            self._table(calibration)
            name, value = configured[kind]
            out.write(
                f"recommended {kind} floor: {recommend_pair(calibration, bound=bound):.2f} — the "
                "best recall − off-topic answered among the floors answering fewer off-topic "
                f"questions than the first embedder at its floor (configured {name}: {value})"
            )

    def _table(self, result: Calibration) -> None:
        out = self.stdout
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
