"""The learned decision: is this written fact a durable statement worth keeping?

A logistic-regression head (``memories.learned.heads``) over the bundled e5-small passage vector
of the written fact, beside the rules' cues (``rules.cues``).  It judges only what the guards
let through; its threshold was chosen on the labelled set's dev split.  The passage vector is
the one the stored memory's second vector is (same text, same model): the per-process cache of
``memories.learned.vectors`` hands it over, so a kept fact is embedded once.

``train`` builds the head from the labelled set (``eval/extraction/conversations.jsonl``): every
candidate of a message (``pipeline.candidates``) is a positive when the message is labelled
durable and the candidate says one of the facts a person wrote for it, a negative otherwise.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from memories.engine.extraction import facts, rules
from memories.engine.extraction.pipeline import Candidate, candidates, rules_decide
from memories.learned.heads import (
    E5_SMALL_PASSAGE,
    LinearHead,
    best_threshold,
    fit_logistic,
    load_head,
)
from memories.learned.vectors import passage_vectors

logger = logging.getLogger(__name__)

WEIGHTS = Path(__file__).with_name("durable.npz")
# A durable statement missed is lost for good; one stored wrongly is visible and deletable, and
# the guards already veto the kinds that must never be stored: recall first on dev.
MIN_DEV_RECALL = 0.92
L2 = 1.0
# A candidate "says" a labelled fact when this share of its tokens is among the fact's.
MATCH_SHARE = 0.5


def features(found: Sequence[Candidate]) -> np.ndarray:
    vectors = passage_vectors([c.fact for c in found]).astype(np.float64)
    cues = np.asarray([rules.cues(c.sentence, c.role) for c in found], dtype=np.float64)
    return np.hstack([vectors, cues.reshape(len(found), len(rules.CUE_NAMES))])


def head_decide(found: Sequence[Candidate], path: Path = WEIGHTS) -> list[bool]:
    """The learned decision; the rules alone when the weights file is missing."""
    if not found:
        return []
    try:
        head = load_head(path)
    except FileNotFoundError:
        logger.warning("extractor weights %s missing: the rules alone decide", path)
        return rules_decide(found)
    return [bool(x) for x in head.decide(features(found))]


# --- training -------------------------------------------------------------------------------


def labelled_candidates(
    conversations: Iterable[dict[str, Any]], split: str
) -> tuple[list[Candidate], list[int]]:
    found: list[Candidate] = []
    labels: list[int] = []
    for conversation in conversations:
        if conversation["split"] != split:
            continue
        for message in conversation["messages"]:
            written = [f["text"] for f in message.get("facts") or []]
            durable = message["label"] == "durable"
            for candidate in candidates(message["role"], message["content"]):
                found.append(candidate)
                says = durable and any(
                    facts.restates(candidate.fact, [w], share=MATCH_SHARE) for w in written
                )
                labels.append(1 if says else 0)
    return found, labels


def train(conversations: list[dict[str, Any]], *, source: str) -> LinearHead:
    """The head from the train split, its threshold from the dev split; deterministic (Newton's
    method from zero, candidates in the set's order)."""
    train_found, train_labels = labelled_candidates(conversations, "train")
    dev_found, dev_labels = labelled_candidates(conversations, "dev")
    x, y = features(train_found), np.asarray(train_labels)
    positives = max(int(y.sum()), 1)
    balance = {1: float(len(y) - positives) / positives, 0: 1.0}
    weights, bias = fit_logistic(x, y, l2=L2, class_weight=balance)
    scratch = LinearHead(weights=weights, bias=bias, threshold=0.5)
    dev_p = scratch.probabilities(features(dev_found)) if dev_found else np.zeros(0)
    threshold = (
        best_threshold(dev_p, np.asarray(dev_labels), min_recall=MIN_DEV_RECALL)
        if dev_found
        else 0.5
    )
    chosen = dev_p >= threshold
    dev_y = np.asarray(dev_labels).astype(bool)
    meta = {
        "vectors": E5_SMALL_PASSAGE,
        "cues": list(rules.CUE_NAMES),
        "data": source,
        "train_candidates": len(train_labels),
        "train_positives": int(y.sum()),
        "dev_candidates": len(dev_labels),
        "dev_recall": round(float((chosen & dev_y).sum() / max(dev_y.sum(), 1)), 4),
        "dev_false_positive_rate": round(
            float((chosen & ~dev_y).sum() / max((~dev_y).sum(), 1)), 4
        ),
        "min_dev_recall": MIN_DEV_RECALL,
        "l2": L2,
    }
    return LinearHead(weights=weights, bias=bias, threshold=float(threshold), meta=meta)


def read_set(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]
