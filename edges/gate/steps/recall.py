"""Recall against the baseline: the shipped recall set imported into a throwaway scope and
searched again."""

from __future__ import annotations

from typing import Any

from edges.gate.harness import Gate, Step
from edges.gate.recall_set import (
    MIN_SCORE_CORRELATION,
    RANK_TOLERANCE,
    TOP_K,
    RecallComparison,
    RecallSet,
)
from edges.gate.service import Scope
from memories.export_document import EXPORT_FORMAT, EXPORT_VERSION


def recall(gate: Gate) -> None:
    """The shipped recall set imported into a throwaway scope and searched again: no
    baseline positive lost or fallen far, scores still falling with the rank and moving
    with the baseline's, no silent negative answering."""
    recorded = gate.baseline["recall"]
    recall_set = RecallSet.from_json(recorded["set"])
    comparison = RecallComparison(top_k=int(recorded.get("top_k", TOP_K)))
    scope = gate.scope("recall")
    ids = import_recall_set(gate, scope, recall_set)
    if ids is None:
        return
    search_positives(gate, scope, recall_set, recorded["positives"], ids, comparison)
    search_negatives(gate, scope, recall_set, recorded["negatives"], comparison)
    correlation = judge_recall(gate, comparison)
    gate.result.recall = comparison.summary(correlation)


def import_recall_set(gate: Gate, scope: Scope, recall_set: RecallSet) -> list[Any] | None:
    """The ids of the set's memories imported into ``scope``, in the set's order; None (and a
    failed ``recall.setup``) when the import did not store them all."""
    document = {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "memories": [{"content": text} for text in recall_set.memories],
    }
    imported = gate.service.v1("import", scope.body(document=document))
    items = imported.get("items") or []
    ids = [item.get("memory_id") for item in items]
    stored = gate.check(
        "recall.setup",
        imported.status == 200
        and len(ids) == len(recall_set.memories)
        and all(ids)
        and all(item.get("status") in ("added", "no_effect") for item in items),
        f"import answered {imported.status} {imported.get('status')}: "
        f"{[(i.get('index'), i.get('status')) for i in items if i.get('status') != 'added']}",
    )
    return ids if stored else None


def recall_hits(gate: Gate, scope: Scope, query: str, comparison: RecallComparison) -> list[Any]:
    """The hits of one search of the recall set; an unavailable search is noted."""
    answer = gate.found(scope, query, comparison.top_k)
    if answer.get("available") is not True:
        comparison.unavailable.append(query)
    return list(answer.get("items") or [])


def search_positives(
    gate: Gate,
    scope: Scope,
    recall_set: RecallSet,
    recorded: list[dict[str, Any]],
    ids: list[Any],
    comparison: RecallComparison,
) -> None:
    total = len(recall_set.positives)
    for number, ((query, memory), before) in enumerate(
        zip(recall_set.positives, recorded, strict=True), 1
    ):
        hits = recall_hits(gate, scope, query, comparison)
        comparison.add_positive(query, before, hits, ids[memory])
        if number % 8 == 0 or number == total:
            gate.write(f"recall positives: {number}/{total}")


def search_negatives(
    gate: Gate,
    scope: Scope,
    recall_set: RecallSet,
    recorded: list[dict[str, Any]],
    comparison: RecallComparison,
) -> None:
    for query, before in zip(recall_set.negatives, recorded, strict=True):
        hits = recall_hits(gate, scope, query, comparison)
        comparison.add_negative(query, before, len(hits))
    gate.write(f"recall negatives: {len(recall_set.negatives)} searched")


def judge_recall(gate: Gate, comparison: RecallComparison) -> float | None:
    """The recall conditions on ``comparison``; returns the scores' rank correlation."""
    unavailable, unordered = comparison.unavailable, comparison.unordered
    gate.check(
        "recall.available",
        not unavailable,
        f"available=false for {unavailable}" if unavailable else "every search available",
    )
    correlation = comparison.correlation()
    flipped = correlation is not None and correlation < MIN_SCORE_CORRELATION
    shown = "n/a" if correlation is None else f"{correlation:.2f}"
    gate.check(
        "recall.score_direction",
        not unordered and not flipped,
        (f"scores rise with the rank for {unordered}; " if unordered else "")
        + f"rank correlation of the positives' scores with the baseline {shown} "
        f"(refused below {MIN_SCORE_CORRELATION})",
    )
    top_k, lost, drifted = comparison.top_k, comparison.lost, comparison.drifted
    gate.check(
        "recall.positive_lost",
        not lost,
        f"no longer in the top {top_k}: {lost}"
        if lost
        else f"all {comparison.found_before} baseline positives found in the top {top_k}",
    )
    gate.check(
        "recall.rank_drift",
        not drifted,
        f"fell more than {RANK_TOLERANCE} places: {drifted}"
        if drifted
        else f"no baseline positive fell more than {RANK_TOLERANCE} places",
    )
    answered = comparison.answered
    gate.check(
        "recall.negative_answered",
        not answered,
        f"now answered: {answered}"
        if answered
        else f"the {comparison.silent_before} negatives silent at the baseline answer nothing",
    )
    return correlation


STEP = Step("recall", recall)
