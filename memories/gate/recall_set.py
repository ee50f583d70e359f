"""The gate's recall set: the shipped labelled zh/en set of ``memories.ops.calibration``, laid out
as one user's memory, the questions that must find their memory and the questions that must
find nothing.

The baseline file carries the set it was recorded with, so ``verify`` compares like with like
even when this module changes between the two runs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from memories.ops.calibration import OFF_TOPIC_QUESTIONS, POSITIVE_PAIRS, UNRELATED_FACTS

# Hits asked for per question; a positive "passes" when its memory is among them.
TOP_K = 10
# How many places a baseline positive may fall before the gate refuses the release.
RANK_TOLERANCE = 2
# Scores within this distance count as equal when checking that they fall with the rank.
SCORE_EPSILON = 1e-6
# The rank correlation of the positives' scores, baseline against now, below which the score
# direction counts as flipped (identical code gives 1.0; a reversed scale gives -1.0).
MIN_SCORE_CORRELATION = 0.0
# Fixed questions a sample of real scopes is asked at the baseline and again by ``verify``
# (their top-k ids and scores are kept, never text).
SAMPLE_QUERIES = (
    "用户偏好什么",
    "用户在做什么项目",
    "用户用什么工具沟通",
    "What does the user prefer?",
    "Which technologies does the user work with?",
)


@dataclass(frozen=True)
class RecallSet:
    memories: tuple[str, ...]
    # (query, index into memories)
    positives: tuple[tuple[str, int], ...]
    negatives: tuple[str, ...]

    def as_json(self) -> dict[str, Any]:
        return {
            "memories": list(self.memories),
            "positives": [{"query": q, "memory": m} for q, m in self.positives],
            "negatives": list(self.negatives),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RecallSet:
        return cls(
            memories=tuple(str(m) for m in data["memories"]),
            positives=tuple((str(p["query"]), int(p["memory"])) for p in data["positives"]),
            negatives=tuple(str(n) for n in data["negatives"]),
        )


def shipped_recall_set() -> RecallSet:
    memories: list[str] = []
    positives: list[tuple[str, int]] = []
    for query, memory in POSITIVE_PAIRS:
        if memory not in memories:
            memories.append(memory)
        positives.append((query, memories.index(memory)))
    memories += [fact for fact in UNRELATED_FACTS if fact not in memories]
    return RecallSet(
        memories=tuple(memories), positives=tuple(positives), negatives=OFF_TOPIC_QUESTIONS
    )


def spearman(xs: list[float], ys: list[float]) -> float | None:
    """Spearman's rank correlation (average ranks for ties); None when either side is flat."""
    if len(xs) != len(ys) or len(xs) < 2:
        return None

    def ranks(values: list[float]) -> list[float]:
        order = sorted(range(len(values)), key=lambda i: values[i])
        result = [0.0] * len(values)
        i = 0
        while i < len(order):
            j = i
            while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
                j += 1
            for k in range(i, j + 1):
                result[order[k]] = (i + j) / 2 + 1
            i = j + 1
        return result

    rx, ry = ranks(xs), ranks(ys)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    vx = sum((a - mx) ** 2 for a in rx)
    vy = sum((b - my) ** 2 for b in ry)
    if vx == 0 or vy == 0:
        return None
    return float(cov / (vx * vy) ** 0.5)
