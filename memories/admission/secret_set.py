"""The labelled secrets set (``data/secrets.jsonl``) and the secret head trained on it.

The head reads e5-small's passage vector of a text and says whether the text *gives* a
password, a code or a key (not merely talks about one: "密码至少 12 位" is benign). It is trained
on the ``train`` split's undisguised rows — the disguises are undone by ``meaning``'s views
before anything is judged, the head reads meaning — with every fifth row (by position) held
out to choose the threshold; ``test`` is never seen (``eval.secrets`` reports on it).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import numpy as np

from memories.admission.normalize import fold
from memories.learned.heads import E5_SMALL_PASSAGE, LinearHead, best_threshold, fit_logistic

SET_PATH: Final = Path(__file__).parent / "data" / "secrets.jsonl"
# The head is the second line (the keyword line before it catches most secrets), so its
# threshold favours the benign: the highest one that still finds this share of the dev secrets.
MIN_DEV_RECALL: Final = 0.9


@dataclass(frozen=True)
class Row:
    text: str
    label: str  # "secret" | "benign"
    lang: str
    disguise: str
    split: str  # "train" | "test"

    @property
    def is_secret(self) -> bool:
        return self.label == "secret"


def load_set(path: Path = SET_PATH) -> list[Row]:
    with path.open(encoding="utf-8") as handle:
        return [Row(**json.loads(line)) for line in handle if line.strip()]


def train_head(rows: list[Row]) -> LinearHead:
    """The head fitted on the undisguised train rows, its threshold chosen on every fifth."""
    from memories.learned.vectors import passage_vectors

    train = [row for row in rows if row.split == "train" and row.disguise == "none"]
    fit_rows = [row for index, row in enumerate(train) if index % 5 != 4]
    dev_rows = [row for index, row in enumerate(train) if index % 5 == 4]

    def xy(part: list[Row]) -> tuple[np.ndarray, np.ndarray]:
        vectors = passage_vectors([fold(row.text) for row in part])
        return vectors, np.array([1.0 if row.is_secret else 0.0 for row in part])

    x, y = xy(fit_rows)
    positives = float(y.sum())
    balance = {1: 1.0, 0: positives / max(float(len(y) - positives), 1.0)}
    weights, bias = fit_logistic(x, y, l2=0.1, class_weight=balance)
    probe = LinearHead(weights=weights, bias=bias, threshold=0.5)
    dev_x, dev_y = xy(dev_rows)
    threshold = best_threshold(probe.probabilities(dev_x), dev_y, min_recall=MIN_DEV_RECALL)
    meta = {
        "vectors": E5_SMALL_PASSAGE,
        "data": str(SET_PATH.relative_to(SET_PATH.parents[3])),
        "fit_rows": len(fit_rows),
        "dev_rows": len(dev_rows),
        "threshold_rule": f"highest with dev recall >= {MIN_DEV_RECALL}",
    }
    return LinearHead(weights=weights, bias=bias, threshold=threshold, meta=meta)
