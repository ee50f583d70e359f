"""The labelled retrieval set of `make eval` (docs/retrieval.md).

Four scopes of a few dozen memories each — a Chinese user, an English user, a user who mixes
both, and a second Chinese user whose topics overlap the first (so scope isolation is measured
too): projects, preferences, verified conclusions (longer memories, ``CONCLUSIONS``) and
everyday filler.  The same scopes grown by 30 projects each (``grown_memories``) are also asked
about three of those projects (``grown_queries``).  Every query names its kind and the memories
that answer it (any of them is a hit); negatives name none and must answer nothing.

Kinds: ``zh``, ``en``, ``mixed`` (Chinese and English in one query), ``paraphrase`` (other words,
same meaning), ``short_name`` (a bare code name or person), ``typo`` (a misspelt word or
name), ``cross_language`` (asked in the other language), ``indirect`` (asks for advice that one
stored memory should shape, sharing no word or name with it), ``negative`` (nothing relevant
stored; some in the same advisory style).

Memories are referred to by a short key; ``memories`` holds ``scope -> key -> text``.  The data
lives in ``eval.labelled``, one module per subject; this module puts it together.
"""

from __future__ import annotations

from eval.labelled.across import CROSS_MEMORIES, CROSS_NEGATIVES, CROSS_QUERIES
from eval.labelled.grown import grown_queries, projects_by_scope
from eval.labelled.indirect import INDIRECT_MEMORIES, INDIRECT_NEGATIVES, INDIRECT_QUERIES
from eval.labelled.queries import NEGATIVES
from eval.labelled.queries import QUERIES as _SCOPE_QUERIES
from eval.labelled.scopes import (
    CONCLUSIONS,
    EN_PREFERENCES,
    EN_PROJECTS,
    FILLER,
    MIXED_PREFERENCES,
    MIXED_PROJECTS,
    ZH2_PREFERENCES,
    ZH2_PROJECTS,
    ZH_PREFERENCES,
    ZH_PROJECTS,
    en_project_memories,
    zh_project_memories,
)
from eval.labelled.shape import Query
from eval.labelled.shape import q as _q

__all__ = [
    "INDIRECT_NEGATIVES",
    "KINDS",
    "QUERIES",
    "Query",
    "grown_memories",
    "grown_queries",
    "memories",
]

KINDS = (
    "zh",
    "en",
    "mixed",
    "paraphrase",
    "short_name",
    "typo",
    "cross_language",
    "indirect",
    "negative",
)


def memories() -> dict[str, dict[str, str]]:
    scopes: dict[str, dict[str, str]] = {"zh": {}, "en": {}, "mixed": {}, "zh2": {}}
    for scope, projects in (("zh", ZH_PROJECTS), ("mixed", MIXED_PROJECTS), ("zh2", ZH2_PROJECTS)):
        for project in projects:
            scopes[scope].update(zh_project_memories(*project))
    for project in EN_PROJECTS:
        scopes["en"].update(en_project_memories(*project))
    scopes["zh"].update(ZH_PREFERENCES)
    scopes["en"].update(EN_PREFERENCES)
    scopes["mixed"].update(MIXED_PREFERENCES)
    scopes["zh2"].update(ZH2_PREFERENCES)
    for scope, conclusions in CONCLUSIONS.items():
        scopes[scope].update(conclusions)
    for scope, facts in INDIRECT_MEMORIES.items():
        scopes[scope].update(facts)
    for scope, facts in CROSS_MEMORIES.items():
        scopes[scope].update(facts)
    # Everyday facts make each scope a realistic size and give negatives something to miss.
    for scope, facts in FILLER.items():
        for n, text in enumerate(facts):
            scopes[scope][f"{scope}_filler_{n}"] = text
    return scopes


def grown_memories() -> dict[str, dict[str, str]]:
    """``memories()`` with 30 more projects in every scope (90 memories each)."""
    scopes = memories()
    for scope, projects in projects_by_scope().items():
        said = en_project_memories if scope == "en" else zh_project_memories
        for project in projects:
            scopes[scope].update(said(*project))
    return scopes


QUERIES: list[Query] = [
    *_SCOPE_QUERIES,
    *INDIRECT_QUERIES,
    *CROSS_QUERIES,
    *(
        _q(scope, "negative", text)
        for negatives in (NEGATIVES, INDIRECT_NEGATIVES, CROSS_NEGATIVES)
        for scope, texts in negatives.items()
        for text in texts
    ),
]
