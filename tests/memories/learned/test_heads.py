"""The learned heads' shared parts: the trainer, the weights file, the bundled vectors."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from memories.learned.heads import LinearHead, best_threshold, fit_logistic, load_head
from memories.learned.vectors import passage_vectors


def _separable(seed: int = 7) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(200, 5))
    y = (x[:, 0] - 0.5 * x[:, 1] > 0).astype(int)
    return x, y


def test_training_is_deterministic_and_learns_the_boundary() -> None:
    x, y = _separable()
    w1, b1 = fit_logistic(x, y, l2=0.1)
    w2, b2 = fit_logistic(x, y, l2=0.1)
    assert np.array_equal(w1, w2) and b1 == b2
    head = LinearHead(weights=w1, bias=b1, threshold=0.5)
    assert float(np.mean(head.decide(x) == y.astype(bool))) > 0.95


def test_a_saved_head_loads_with_its_threshold_and_meta(tmp_path: Path) -> None:
    x, y = _separable()
    w, b = fit_logistic(x, y)
    path = tmp_path / "head.npz"
    LinearHead(weights=w, bias=b, threshold=0.7, meta={"set": "toy"}).save(path)
    head = load_head(path)
    assert head.threshold == 0.7 and head.meta == {"set": "toy"}
    assert np.allclose(head.weights, w, atol=1e-6)


def test_the_threshold_for_a_recall_target_keeps_that_share_of_positives() -> None:
    p = np.array([0.9, 0.8, 0.6, 0.4, 0.3, 0.1])
    y = np.array([1, 1, 0, 1, 0, 0])
    assert best_threshold(p, y, min_recall=1.0) == 0.4
    assert best_threshold(p, y, min_recall=0.6) == 0.8


def test_bundled_passage_vectors_are_normalised_and_cached() -> None:
    first = passage_vectors(["用户是素食者", "The user is vegetarian"])
    assert first.shape == (2, 384)
    assert np.allclose(np.linalg.norm(first, axis=1), 1.0, atol=1e-3)
    again = passage_vectors(["The user is vegetarian"])
    assert np.array_equal(again[0], first[1])
    # A paraphrase sits closer than an unrelated sentence of the same language (across
    # languages e5-small's cosines sit lower: an unrelated Chinese sentence can beat the English
    # translation, which is why a head is trained rather than thresholded on a cosine).
    near, far = passage_vectors(["The user does not eat meat", "The deploy script runs on Fridays"])
    assert float(first[1] @ near) > float(first[1] @ far)
