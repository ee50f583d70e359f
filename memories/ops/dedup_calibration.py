"""Calibration of the semantic-duplicate floor (``POCO_DEDUP_MIN_SCORE``) for the configured
embedder: labelled pairs of an active memory and a new fact, scored with the duplicate rule
(``memories.governance.is_duplicate``) at every floor. ``python manage.py calibrate_dedup``
prints the table and the recommended floor."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from memories.ops.calibration import cosine

# (active memory, new fact, is the new fact a duplicate?).  Duplicates restate the memory in
# other words; non-duplicates are close in meaning but change a value, negate it, add a detail
# or contradict it — those are updates or new facts, never a NOOP.
DEDUP_PAIRS: tuple[tuple[str, str, bool], ...] = (
    ("以后默认用英文回答", "对，还是默认用英文回答", True),
    # a leading confirmation is no part of the fact, and 没 of 没错 no negation
    ("以后默认用英文回答", "没错，以后默认用英文回答", True),
    ("以后技术问题默认用中文回答，并先给结论", "对，技术问题还是默认用中文回答，先给结论", True),
    ("用户偏好简体中文技术方案", "用户喜欢简体中文的技术方案", True),
    ("团队沟通用飞书", "团队统一用飞书沟通", True),
    ("用户住在杭州", "用户目前住在杭州", True),
    ("用户最喜欢的编程语言是 Python", "用户最喜欢的编程语言还是 Python", True),
    ("周报要结论先行", "周报一律结论先行", True),
    ("以后所有报告统一使用 HTML 格式", "以后报告都使用 HTML 格式", True),
    ("用户每周一上午十点开例会", "用户一直是每周一上午十点开例会", True),
    ("前端统一使用 HTMX", "前端一律使用 HTMX", True),
    ("用户要求每个功能都写单元测试", "每个功能都要写单元测试", True),
    ("User prefers concise answers", "User likes concise answers", True),
    (
        "User prefers reports written in English",
        "User still prefers reports written in English",
        True,
    ),
    (
        "The team uses PostgreSQL as the main database",
        "The team always uses PostgreSQL as the main database",
        True,
    ),
    ("User drinks green tea every morning", "Every morning the user drinks green tea", True),
    (
        "Commit messages follow the Conventional Commits format",
        "Commit messages should follow the Conventional Commits format",
        True,
    ),
    ("User works at a fintech startup", "User works at a fintech startup", True),
    # contradictions: the same attribute with another value
    ("以后默认用英文回答", "以后默认用中文回答", False),
    ("以后技术问题默认用中文，并先给结论", "以后默认用英文回答", False),
    ("用户住在杭州", "用户住在上海", False),
    ("用户最喜欢的编程语言是 Python", "用户最喜欢的编程语言是 Go", False),
    ("团队沟通用飞书", "团队沟通用钉钉", False),
    ("前端统一使用 HTMX", "前端统一使用 React", False),
    ("用户是后端工程师", "用户是前端工程师", False),
    ("周报每周五提交", "月报每月底提交", False),
    ("User prefers concise answers", "User prefers detailed answers", False),
    ("User prefers reports written in English", "User prefers reports written in Chinese", False),
    ("Every pull request needs two approvals", "Every pull request needs one approval", False),
    (
        "The team uses PostgreSQL as the main database",
        "The team uses MySQL as the main database",
        False,
    ),
    # negations
    ("用户喜欢喝绿茶", "用户不喜欢喝绿茶", False),
    ("User likes spicy food", "User does not like spicy food", False),
    ("用户喜欢喝绿茶", "没错，用户不喜欢喝绿茶", False),
    ("以后默认用英文回答", "没错，以后默认用中文回答", False),
    # a new detail is new information
    ("用户住在杭州", "用户住在杭州西湖区，通勤骑自行车", False),
    (
        "User drinks green tea every morning",
        "User drinks green tea every morning without sugar",
        False,
    ),
    # related, different facts
    ("用户养了一只叫豆豆的猫", "用户周末喜欢爬山", False),
    ("用户对花生过敏", "用户对海鲜过敏", False),
    ("User plays the piano every evening", "User plays the guitar every evening", False),
    # one Han character is the whole difference
    ("用户养了一只狗", "用户养了一只猫", False),
    ("用户喜欢吃鱼", "用户喜欢吃肉", False),
    ("用户喜欢喝龙井茶", "用户喜欢猫", False),
    ("用户住在上海", "用户住在京", False),
)
DEDUP_FLOORS = tuple(round(0.30 + step / 100, 2) for step in range(66))  # 0.30 … 0.95


@dataclass(frozen=True)
class DedupRow:
    floor: float
    recall: float  # duplicates recognised
    false_merge_rate: float  # non-duplicates wrongly taken for duplicates

    @property
    def youden(self) -> float:
        return self.recall - self.false_merge_rate


@dataclass(frozen=True)
class DedupCalibration:
    rows: tuple[DedupRow, ...]
    # Cosine alone at each floor, for comparison: why the content-word check is needed.
    cosine_only: tuple[DedupRow, ...]
    similarities: tuple[float, ...]

    @property
    def recommended(self) -> float:
        """The middle of the widest run of floors with the best J: the content-word check does
        most of the work, so the floor sits where it has the most room on either side."""
        best = max(round(r.youden, 6) for r in self.rows)
        runs: list[list[DedupRow]] = [[]]
        for r in self.rows:
            if round(r.youden, 6) == best:
                runs[-1].append(r)
            elif runs[-1]:
                runs.append([])
        widest = max(runs, key=len)
        return widest[(len(widest) - 1) // 2].floor

    def row(self, floor: float) -> DedupRow:
        return next(r for r in self.rows if math.isclose(r.floor, floor))


def calibrate_dedup(
    *,
    embed: Callable[[list[str]], list[list[float]]],
    is_duplicate: Callable[[str, str, float, float], bool],
    floors: Sequence[float] = DEDUP_FLOORS,
) -> DedupCalibration:
    """Score ``DEDUP_PAIRS`` with ``embed`` and the duplicate rule at every floor."""
    existing = embed([e for e, _, _ in DEDUP_PAIRS])
    candidates = embed([c for _, c, _ in DEDUP_PAIRS])
    sims = tuple(cosine(e, c) for e, c in zip(existing, candidates, strict=True))
    labels = [d for _, _, d in DEDUP_PAIRS]
    positives = sum(labels)
    negatives = len(labels) - positives

    def row(floor: float, decide: Callable[[int], bool]) -> DedupRow:
        hits = [decide(i) for i in range(len(labels))]
        return DedupRow(
            floor=floor,
            recall=sum(h and d for h, d in zip(hits, labels, strict=True)) / positives,
            false_merge_rate=sum(h and not d for h, d in zip(hits, labels, strict=True))
            / negatives,
        )

    def by_rule(floor: float) -> Callable[[int], bool]:
        return lambda i: is_duplicate(DEDUP_PAIRS[i][0], DEDUP_PAIRS[i][1], sims[i], floor)

    def bycosine(floor: float) -> Callable[[int], bool]:
        return lambda i: sims[i] >= floor

    rows = tuple(row(f, by_rule(f)) for f in floors)
    cosine_only = tuple(row(f, bycosine(f)) for f in floors)
    return DedupCalibration(rows=rows, cosine_only=cosine_only, similarities=sims)
