"""Rank fusion of recall's channels (docs/retrieval.md has the formula and the evaluation).

Each channel ranks the memories it has evidence for on its own scale (cosine, keyword
coverage, entity weight); those scales are not comparable, so they are never added.  Reciprocal
rank fusion combines ranks only:

    score(m) = Σ_c 1 / (K + rank_c(m))  /  (|channels| / (K + 1))

summed over the channels that found ``m`` (rank 1 is a channel's best).  The divisor is the
score of a memory ranked first by every channel asked, so the score lies in (0, 1], means the
same thing on every query (1.0 = first everywhere, 1/4 = first in one of four) and grows with
relevance.  A memory no channel found over its floor is not evidence.

**Related memories.**  Once an answer has evidence (the question is about something this
memory holds), the places left up to ``top_k`` go to the nearest memories by meaning that no
channel found over its floor (the meaning channel's ``under_floor`` hits, nearest first, no
further than ``RELATED_MARGIN`` from the nearest memory), after every piece of evidence and
scored below it.  Agents ask for advice a stored fact should shape
("帮我订个部门聚餐的馆子" → a colleague is vegetarian) and about earlier conversations in words
the answer does not repeat; the floors that keep an off-topic question unanswered drop such a
memory, while the second model ranks it near the top (docs/retrieval.md, "Related memories").
A question with no evidence anywhere still answers nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from memories.recall.tuning import RELATED_MARGIN, RRF_K
from memories.types import Channel, ChannelHit, SearchHit

ALL_CHANNELS = tuple(Channel)


def _ranked(hits: Sequence[ChannelHit]) -> Iterable[tuple[int, ChannelHit]]:
    """Competition ranks (1, 2, 2, 4): memories a channel cannot tell apart — three memories
    linked to the same entity — share a rank, so the order they came in decides nothing."""
    rank = 0
    previous: float | None = None
    for position, hit in enumerate(hits, start=1):
        if hit.strength != previous:
            rank, previous = position, hit.strength
        yield rank, hit


def fuse(
    channels: Mapping[Channel, Sequence[ChannelHit]],
    *,
    top_k: int,
    use: Iterable[Channel] = ALL_CHANNELS,
) -> tuple[SearchHit, ...]:
    """The ``top_k`` memories by fused rank, best first, then the related ones (above).  A tie
    goes to the memory whose best evidence clears its channel's floor by more
    (``ChannelHit.margin``: first in the keyword channel with every word asked beats first in
    the vector channel at its floor), then to the higher cosine."""
    # Only the channels that were asked count: without a second model (or with it off for
    # this search) "first everywhere" is first in the other three.
    use = tuple(c for c in use if c in channels)
    best = max(len(use), 1) / (RRF_K + 1)
    fused: dict[str, float] = {}
    first: dict[str, ChannelHit] = {}
    margin: dict[str, float] = {}
    named = {h.id for h in channels.get(Channel.ENTITY, ())} if Channel.ENTITY in use else set()
    for channel in use:
        # A keyword hit on the query's names alone is the entity hit of the same memory again.
        found = [
            h
            for h in channels.get(channel, ())
            if not h.under_floor and not (h.names_only and h.id in named)
        ]
        for rank, hit in _ranked(found):
            fused[hit.id] = fused.get(hit.id, 0.0) + 1.0 / (RRF_K + rank)
            first.setdefault(hit.id, hit)
            margin[hit.id] = max(margin.get(hit.id, 0.0), hit.margin)
    order = sorted(fused, key=lambda i: (-fused[i], -margin[i], -first[i].similarity, i))
    hits = [
        SearchHit(
            id=memory_id,
            content=first[memory_id].content,
            score=round(min(1.0, fused[memory_id] / best), 4),
            category=first[memory_id].category,
        )
        for memory_id in order[:top_k]
    ]
    return (*hits, *_related(channels, use, hits, top_k=top_k, best=best))


def _related(
    channels: Mapping[Channel, Sequence[ChannelHit]],
    use: Sequence[Channel],
    evidence: Sequence[SearchHit],
    *,
    top_k: int,
    best: float,
) -> list[SearchHit]:
    """The nearest memories by meaning under its floor, for the places ``evidence`` leaves up
    to ``top_k``, each within ``RELATED_MARGIN`` of the nearest memory's cosine; none when
    there is no evidence.  Each is scored at most half what its rank would earn in the meaning
    channel over the floor, and below the weakest evidence, so an answer's scores never rise
    down the list."""
    if not evidence or len(evidence) >= top_k or Channel.MEANING not in use:
        return []
    taken = {hit.id for hit in evidence}
    ceiling = evidence[-1].score
    related: list[SearchHit] = []
    meaning = channels.get(Channel.MEANING, ())
    nearest = max((h.strength for h in meaning), default=0.0)
    near = [
        h
        for h in meaning
        if h.under_floor and h.id not in taken and h.strength >= nearest - RELATED_MARGIN
    ]
    for rank, hit in enumerate(near[: top_k - len(evidence)], start=1):
        credit = 0.5 / (RRF_K + rank) / best
        ceiling = max(0.0001, min(round(credit, 4), round(ceiling - 0.0001, 4)))
        related.append(
            SearchHit(
                id=hit.id, content=hit.content, score=ceiling, category=hit.category, related=True
            )
        )
    return related
