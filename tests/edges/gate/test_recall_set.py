"""The gate's recall set and how it compares two rankings."""

from __future__ import annotations

import pytest

from edges.gate.recall_set import shipped_recall_set, spearman
from memories.ops.calibration import OFF_TOPIC_QUESTIONS


def test_the_recall_set_is_the_shipped_calibration_set():
    recall_set = shipped_recall_set()
    assert len(recall_set.positives) == 32 and recall_set.negatives == OFF_TOPIC_QUESTIONS
    assert len(set(recall_set.memories)) == len(recall_set.memories)
    for query, memory in recall_set.positives:
        assert query and 0 <= memory < len(recall_set.memories)


def test_rank_correlation_sees_a_reversed_scale():
    scores = [1.0, 0.6667, 0.3333, 0.6667, 0.5]
    assert spearman(scores, scores) == pytest.approx(1.0)
    assert spearman(scores, [1 - s for s in scores]) == pytest.approx(-1.0)
    assert spearman([1.0, 1.0], [0.5, 0.3]) is None
