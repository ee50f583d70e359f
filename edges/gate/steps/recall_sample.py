"""The sample of real scopes: each asked the baseline's fixed questions again."""

from __future__ import annotations

from edges.gate import release
from edges.gate.harness import Gate, Step
from edges.gate.service import Scope


def recall_sample(gate: Gate) -> None:
    """Each sampled scope asked the fixed questions again: the baseline's top hit, when it is
    still stored, must still be in the top k."""
    sample = gate.baseline.get("recall_sample") or {}
    entries = sample.get("entries") or []
    if not entries:
        return
    top_k = int(sample.get("top_k", 10))
    lost, overlaps, unavailable = [], [], []
    for entry in entries:
        tenant, _, user = str(entry["scope"]).partition(":")
        scope = Scope(tenant, user)
        answer = gate.found(scope, str(entry["query"]), top_k)
        if answer.get("available") is not True:
            unavailable.append(f"{entry['scope']} {entry['query']!r}")
            continue
        now = [str(h["id"]) for h in answer.get("items") or []]
        before = [str(i) for i in entry["ids"]]
        kept = [i for i in before if not gate.local or release.stored_here(i)]
        if kept:
            overlaps.append(len(set(kept) & set(now)) / len(kept))
            if kept[0] not in now:
                lost.append(f"{entry['scope']} {entry['query']!r}: {kept[0]}")
    gate.check(
        "recall.available",
        not unavailable,
        f"sample searches available=false: {unavailable}"
        if unavailable
        else f"{len(entries)} sample searches available",
    )
    mean = sum(overlaps) / len(overlaps) if overlaps else None
    gate.result.recall_sample = {
        "scopes": len({e["scope"] for e in entries}),
        "searches": len(entries),
        "compared": len(overlaps),
        "mean_overlap": mean,
        "top_hit_lost": lost,
    }
    gate.check(
        "recall.sample_top_hit_lost",
        not lost,
        f"the baseline's top hit, still stored, is no longer in the top {top_k}: {lost}"
        if lost
        else f"{len(overlaps)} sampled searches keep their top hit; mean overlap of the top "
        f"{top_k} with the baseline " + ("n/a" if mean is None else f"{mean:.2f}"),
    )


STEP = Step("recall-sample", recall_sample)
