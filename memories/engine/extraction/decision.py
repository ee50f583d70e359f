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
from dataclasses import replace
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
# the guards already veto the kinds that must never be stored: recall first on dev, in Chinese
# and in English alike.
MIN_DEV_RECALL = 0.92
# The regularisation is chosen on dev too: the one with the fewest false positives at that recall.
L2_GRID = (1.0, 0.3, 0.1, 0.03, 0.01)


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


# An assistant fact this close (cosine of e5-small passage vectors) to a kept user fact says
# the same thing in other words. On the labelled set's train and dev splits, 11 of 17 such
# restatements reach it; what else does is mostly a restatement too (docs/extraction.md).
SAME_MEANING = 0.9


def same_meaning(found: Sequence[str], said: Sequence[str]) -> list[bool]:
    """Whether each assistant fact says what one of the user's kept facts says. The vectors are
    the ones the head reads (cached), so the comparison costs no embedding of its own."""
    if not found or not said:
        return [False] * len(found)
    mine = passage_vectors(list(found)).astype(np.float64)
    theirs = passage_vectors(list(said)).astype(np.float64)
    return [bool(x) for x in (mine @ theirs.T).max(axis=1) >= SAME_MEANING]


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
                says = durable and any(facts.restates(w, [candidate.fact]) for w in written)
                labels.append(1 if says else 0)
    return found, labels


def train(conversations: list[dict[str, Any]], *, source: str) -> LinearHead:
    """The head from the train split, its regularisation and threshold from the dev split;
    deterministic (Newton's method from zero, candidates in the set's order)."""
    train_found, train_labels = labelled_candidates(conversations, "train")
    dev_found, dev_labels = labelled_candidates(conversations, "dev")
    x, y = features(train_found), np.asarray(train_labels)
    dev_x, dev_y = features(dev_found), np.asarray(dev_labels).astype(bool)
    positives = max(int(y.sum()), 1)
    balance = {1: float(len(y) - positives) / positives, 0: 1.0}
    best: tuple[float, LinearHead, float, float] | None = None
    for l2 in L2_GRID:
        weights, bias = fit_logistic(x, y, l2=l2, class_weight=balance, iterations=100)
        head = LinearHead(weights=weights, bias=bias, threshold=0.5)
        dev_p = head.probabilities(dev_x)
        # Each language reaches the recall on its own: the lower of their thresholds.
        threshold = min(
            best_threshold(dev_p[among], dev_y[among], min_recall=MIN_DEV_RECALL)
            for among in _by_language(dev_found)
        )
        chosen = dev_p >= threshold
        recall = float((chosen & dev_y).sum() / max(dev_y.sum(), 1))
        false_positives = float((chosen & ~dev_y).sum() / max((~dev_y).sum(), 1))
        if best is None or false_positives < best[2]:
            best = (l2, replace(head, threshold=float(threshold)), false_positives, recall)
    assert best is not None
    l2, head, false_positives, recall = best
    meta = {
        "vectors": E5_SMALL_PASSAGE,
        "cues": list(rules.CUE_NAMES),
        "data": source,
        "train_candidates": len(train_labels),
        "train_positives": int(y.sum()),
        "dev_candidates": len(dev_labels),
        "dev_recall": round(recall, 4),
        "dev_false_positive_rate": round(false_positives, 4),
        "min_dev_recall": MIN_DEV_RECALL,
        "l2": l2,
    }
    return replace(head, meta=meta)


def _by_language(found: Sequence[Candidate]) -> list[np.ndarray]:
    chinese = np.asarray([facts.is_chinese(c.sentence) for c in found], dtype=bool)
    return [among for among in (chinese, ~chinese) if among.any()]


def read_set(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]
