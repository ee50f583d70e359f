"""A logistic-regression head: its weights file, its decision, and its deterministic trainer.

The file is an ``.npz`` with ``weights`` (d,), ``bias`` (), ``threshold`` () and ``meta`` (a JSON
string: the model the vectors came from, the data set and split it was trained on, the dev
scores that chose the threshold).  Training is Newton's method on the L2-regularised log-loss:
no random start, no shuffling, so the same data gives the same file on every machine.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

E5_SMALL_PASSAGE = "e5-small/passage"


@dataclass(frozen=True)
class LinearHead:
    weights: np.ndarray
    bias: float
    threshold: float
    meta: dict[str, Any] = field(default_factory=dict)

    def probabilities(self, features: np.ndarray) -> np.ndarray:
        """P(positive) for each row of ``features`` (n, d)."""
        return _sigmoid(np.asarray(features, dtype=np.float64) @ self.weights + self.bias)

    def decide(self, features: np.ndarray) -> np.ndarray:
        """True where the probability reaches the threshold chosen on the dev split."""
        return self.probabilities(features) >= self.threshold

    def save(self, path: Path) -> None:
        np.savez_compressed(
            path,
            weights=self.weights.astype(np.float32),
            bias=np.float64(self.bias),
            threshold=np.float64(self.threshold),
            meta=np.array(json.dumps(self.meta, ensure_ascii=False, sort_keys=True)),
        )


_loaded: dict[Path, LinearHead] = {}
_loaded_lock = threading.Lock()


def load_head(path: Path) -> LinearHead:
    """The head in ``path``, read once per process."""
    with _loaded_lock:
        if path not in _loaded:
            with np.load(path, allow_pickle=False) as data:
                _loaded[path] = LinearHead(
                    weights=data["weights"].astype(np.float64),
                    bias=float(data["bias"]),
                    threshold=float(data["threshold"]),
                    meta=json.loads(str(data["meta"])),
                )
        return _loaded[path]


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return np.asarray(1.0 / (1.0 + np.exp(-np.clip(z, -40.0, 40.0))))


def fit_logistic(
    features: np.ndarray,
    labels: np.ndarray,
    *,
    l2: float = 1.0,
    iterations: int = 50,
    class_weight: dict[int, float] | None = None,
) -> tuple[np.ndarray, float]:
    """Weights and bias minimising the (class-weighted) log-loss + ``l2``/2·|w|² (the bias is
    not regularised), by Newton's method from zero."""
    x = np.asarray(features, dtype=np.float64)
    y = np.asarray(labels, dtype=np.float64)
    n, d = x.shape
    weight = np.ones(n)
    if class_weight:
        for label, w in class_weight.items():
            weight[y == label] = w
    design = np.hstack([x, np.ones((n, 1))])
    theta = np.zeros(d + 1)
    penalty = np.full(d + 1, l2)
    penalty[-1] = 0.0
    for _ in range(iterations):
        p = _sigmoid(design @ theta)
        gradient = design.T @ (weight * (p - y)) + penalty * theta
        hessian = (design * (weight * p * (1 - p))[:, None]).T @ design + np.diag(penalty)
        hessian[np.diag_indices_from(hessian)] += 1e-9
        step = np.linalg.solve(hessian, gradient)
        theta -= step
        if float(np.max(np.abs(step))) < 1e-8:
            break
    return theta[:-1], float(theta[-1])


def best_threshold(
    probabilities: np.ndarray, labels: np.ndarray, *, min_recall: float | None = None
) -> float:
    """The dev threshold: with ``min_recall``, the highest threshold whose recall of the
    positives reaches it (fewest false positives at that recall); otherwise the one with the
    best F1.  Candidates are the dev probabilities themselves, so the choice is exact."""
    p = np.asarray(probabilities, dtype=np.float64)
    y = np.asarray(labels).astype(bool)
    best, best_score = 0.5, -1.0
    for t in sorted(set(np.round(p, 6).tolist()), reverse=True):
        chosen = p >= t
        tp = float(np.sum(chosen & y))
        recall = tp / max(float(np.sum(y)), 1.0)
        if min_recall is not None:
            if recall >= min_recall:
                return float(t)
            continue
        precision = tp / max(float(np.sum(chosen)), 1.0)
        f1 = 2 * precision * recall / max(precision + recall, 1e-12)
        if f1 > best_score:
            best, best_score = float(t), f1
    return best
