"""The gate's recall set: the shipped labelled zh/en set of ``memories.ops.calibration``, laid out
as one user's memory, the questions that must find their memory and the questions that must
find nothing.

The baseline file carries the set it was recorded with, so ``verify`` compares like with like
even when this module changes between the two runs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
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


@dataclass
class RecallComparison:
    """What ``verify``'s searches of the recall set find now, beside what the baseline recorded:
    one row a positive (its rank and score then and now) and the questions that went wrong."""

    top_k: int
    # {query, baseline_rank, baseline_score, rank, score}, in the set's order.
    rows: list[dict[str, Any]] = field(default_factory=list)
    # Positives whose scores rise with the rank; searches that answered available=false.
    unordered: list[str] = field(default_factory=list)
    unavailable: list[str] = field(default_factory=list)
    # Negatives silent at the baseline that answer now ("'query' (n hits)").
    answered: list[str] = field(default_factory=list)
    negatives: int = 0
    silent_before: int = 0

    def add_positive(
        self, query: str, before: dict[str, Any], hits: list[dict[str, Any]], memory_id: Any
    ) -> None:
        """Record the hits a positive's search answered; ``memory_id`` is the one it must find."""
        scores = [float(h["score"]) for h in hits]
        if any(b > a + SCORE_EPSILON for a, b in zip(scores, scores[1:], strict=False)):
            self.unordered.append(query)
        hit_ids = [h["id"] for h in hits]
        rank = hit_ids.index(memory_id) + 1 if memory_id in hit_ids else None
        self.rows.append(
            {
                "query": query,
                "baseline_rank": before.get("rank"),
                "baseline_score": before.get("score"),
                "rank": rank,
                "score": scores[rank - 1] if rank else None,
            }
        )

    def add_negative(self, query: str, before: dict[str, Any], hits: int) -> None:
        """Record how many hits a negative's search answered."""
        self.negatives += 1
        if not before.get("hits"):
            self.silent_before += 1
            if hits:
                self.answered.append(f"{query!r} ({hits} hits)")

    @property
    def found_before(self) -> int:
        return sum(1 for r in self.rows if r["baseline_rank"])

    @property
    def lost(self) -> list[str]:
        """Baseline positives no longer in the top k."""
        return [
            f"{r['query']!r} (baseline rank {r['baseline_rank']})"
            for r in self.rows
            if r["baseline_rank"] and r["rank"] is None
        ]

    @property
    def drifted(self) -> list[str]:
        """Baseline positives that fell more than ``RANK_TOLERANCE`` places."""
        return [
            f"{r['query']!r} (rank {r['baseline_rank']} → {r['rank']})"
            for r in self.rows
            if r["baseline_rank"] and r["rank"] and r["rank"] > r["baseline_rank"] + RANK_TOLERANCE
        ]

    def correlation(self) -> float | None:
        """The rank correlation of the scores of the positives found then and now."""
        paired = [
            r for r in self.rows if r["score"] is not None and r["baseline_score"] is not None
        ]
        return spearman(
            [float(r["baseline_score"]) for r in paired], [float(r["score"]) for r in paired]
        )

    def summary(self, correlation: float | None) -> dict[str, Any]:
        """The comparison as the report keeps it."""
        return {
            "top_k": self.top_k,
            "rank_tolerance": RANK_TOLERANCE,
            "score_correlation": correlation,
            "positives_found": {
                "baseline": self.found_before,
                "now": sum(1 for r in self.rows if r["rank"]),
                "of": len(self.rows),
            },
            "negatives_silent": {
                "baseline": self.silent_before,
                "now_answered": len(self.answered),
                "of": self.negatives,
            },
            "positives": self.rows,
        }
