"""Rank fusion of recall's channels (docs/retrieval.md has the formula and the evaluation).

Each channel ranks the memories it has evidence for on its own scale (cosine, keyword
coverage, entity weight); those scales are not comparable, so they are never added.  Reciprocal
rank fusion combines ranks only:

    score(m) = Σ_c w_c / (K + rank_c(m))  /  (Σ_c w_c / (K + 1))

summed over the channels that ranked ``m`` (rank 1 is a channel's best).  The divisor is the
score of a memory ranked first by every channel asked, so the score lies in (0, 1], means the
same thing on every query and grows with relevance.

**Two decisions, kept apart.**  *Whether to answer*: a question is answered only when some
channel found a memory over its floor (evidence); the floors are calibrated so that an
off-topic question finds none.  *What order*: once answered, the candidates are ranked by every
signal together — each channel's evidence at weight 1, and the second model's own ranking of
the scope's nearest memories, over and under its floor alike, as one more channel
(``ORDER_WEIGHT``, ``ORDER_DEPTH`` deep) — and ``top_k`` is filled from that order.  The second
model ranks better than any floor lets it: its floor must keep off-topic questions unanswered,
and so it dropped the right memory of many answered ones (advice a stored fact should shape, a
later turn saying a plan moved, a memory in the other language).  A memory that no channel
found over its floor is ``related`` (``metadata.match``), whatever its place.

**Newer first.**  A question about now ("现在", "now", "in the end": ``asks_about_now``) ranks
the newer of the answer's first candidates first: their order is fused with their order by
``created_at`` (``NEWER_FIRST_WEIGHT``, ``NEWER_FIRST_DEPTH``).  The memories an answer's first
places hold are about the question's subject, and when they say different things the later one
says how it is now — the turn that says the plan moved, not the plan.  A superseded memory is
never recalled at all (``memories.recall.live``), so a memory key's older value cannot compete.

**The present before its past.**  A question that does not ask about the past (``asks_about_past``:
"去年", "以前", "last year", "used to" …) ranks a memory stating a past value of a memory key —
"用户去年在阿里工作", which the extractor keys nothing for — below the memory stating the key's
current value ("用户在字节跳动工作", ``profile.employer``) when both are among the answer's
first ``PRESENT_FIRST_DEPTH`` candidates: the current value takes the past one's place, the past
one stays right below it.  The key is read from each memory's text by the extractor's own key
rules (``stated``: ``keys.stated_key``), not from e5: e5 puts "用户在公司附近租房" and
"用户住在杭州" nearer "我在哪家公司上班" than the current employer, and the two employers no nearer
each other than to them.  A past state with no current value beside it keeps its place; no
score rises down the answer.

**A list asked for.**  A question that asks to enumerate a kind of the user's memories ("我手上有
哪些项目", "What are my preferences?": ``memories.recall.listing``) has the kind's memories as
its evidence, ``listed`` in the list's order: they are one more channel of the fusion and take
the answer's first places in that order, whatever else has evidence after them; no score rises
down the answer.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence

from memories.instants import service_day
from memories.language.past import PAST_TIME
from memories.recall.tuning import (
    NEWER_FIRST_DEPTH,
    NEWER_FIRST_MARGIN,
    NEWER_FIRST_WEIGHT,
    ORDER_DEPTH,
    ORDER_WEIGHT,
    PRESENT_FIRST_DEPTH,
    RRF_K,
)
from memories.types import Channel, ChannelHit, SearchHit

ALL_CHANNELS = tuple(Channel)

# Words that ask how something is now, after whatever changed ("咖啡馆现在定在哪天开业",
# "Which framework does the Android client use in the end?").
_NOW = re.compile(
    r"现在|目前|如今|眼下|最后|最终|最新|后来|\b(?:now|currently|these days|in the end|"
    r"latest|finally|eventually|any more|anymore)\b",
    re.IGNORECASE,
)


def asks_about_now(query: str) -> bool:
    """Whether ``query`` asks how something is now (newer first)."""
    return bool(_NOW.search(query))


# Asking in the past tense without a time word ("Where did I work?", "What was my role?").
_PAST_ASKED_EN = re.compile(r"\b(?:did|was|were|had) (?:i|we)\b|\bwas my\b", re.IGNORECASE)


def asks_about_past(query: str) -> bool:
    """Whether ``query`` asks how something was ("我去年在哪家公司", "以前", "Where did I work
    last year?") and not how it is now ("我以前在阿里，现在在哪"): its past states keep the
    channels' order (the present before its past)."""
    if asks_about_now(query):
        return False
    return bool(PAST_TIME.search(query) or _PAST_ASKED_EN.search(query))


# The memory key whose value a memory's text states, and whether a past one
# (``memories.engine.extraction.keys.stated_key``; recall sits below the engine, so it is given).
StatedKey = Callable[[str], tuple[str, bool]]


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
    newer_first: bool = False,
    present_first: bool = False,
    stated: StatedKey | None = None,
    listed: Sequence[str] = (),
) -> tuple[SearchHit, ...]:
    """The ``top_k`` memories of an answer, best first; none when no channel has evidence
    (above).  A tie goes to the memory whose best evidence clears its channel's floor by more
    (``ChannelHit.margin``: first in the keyword channel with every word asked beats first in
    the vector channel at its floor), then to the higher cosine.  ``listed``: the memories a
    question asking for a list enumerates (``memories.recall.listing``), from the meaning
    channel's rows, first and in that order.  ``present_first`` with ``stated``: a past value
    of a memory key comes after the key's current value (above)."""
    # Only the channels that were asked count: without a second model (or with it off for
    # this search) "first everywhere" is first in the other three.
    use = tuple(c for c in use if c in channels)
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
    nearest = {h.id: h for h in channels.get(Channel.MEANING, ())} if Channel.MEANING in use else {}
    listed = [i for i in dict.fromkeys(listed) if i in nearest]
    for rank, memory_id in enumerate(listed, start=1):
        fused[memory_id] = fused.get(memory_id, 0.0) + 1.0 / (RRF_K + rank)
        first.setdefault(memory_id, nearest[memory_id])
        margin.setdefault(memory_id, 0.0)
    if not fused:
        return ()
    evidence = set(fused)
    weight = float(bool(listed))
    if Channel.MEANING in use:
        # The second model's ranking, over and under its floor alike: its floor says whether
        # a question is about this memory, not which of the memories near it comes first.
        weight += ORDER_WEIGHT
        for rank, hit in _ranked(channels[Channel.MEANING][:ORDER_DEPTH]):
            fused[hit.id] = fused.get(hit.id, 0.0) + ORDER_WEIGHT / (RRF_K + rank)
            first.setdefault(hit.id, hit)
            margin.setdefault(hit.id, 0.0)
    best = max(len(use) + weight, 1.0) / (RRF_K + 1)
    order = sorted(fused, key=lambda i: (-fused[i], -margin[i], -first[i].similarity, i))
    if newer_first:
        order = _newer_first(order, channels, use)
    moved = False
    if present_first and stated is not None:
        ranked, order = order, _present_first(order, first, stated)
        moved = order != ranked
    if listed:
        enumerated = set(listed)
        order = listed + [i for i in order if i not in enumerated]
    hits: list[SearchHit] = []
    for memory_id in order[:top_k]:
        score = round(min(1.0, fused[memory_id] / best), 4)
        hits.append(
            SearchHit(
                id=memory_id,
                content=first[memory_id].content,
                score=min(score, hits[-1].score) if (listed or moved) and hits else score,
                category=first[memory_id].category,
                related=memory_id not in evidence,
            )
        )
    return tuple(hits)


def _newer_first(
    order: list[str], channels: Mapping[Channel, Sequence[ChannelHit]], use: Sequence[Channel]
) -> list[str]:
    """``order`` with the memories of its first ``NEWER_FIRST_DEPTH`` that are about the
    question's subject — within ``NEWER_FIRST_MARGIN`` of the nearest memory's second-model
    cosine — re-ranked among their own places by RRF of their place and their place by
    ``created_at``, newest first; every other memory keeps its place (a newer fact about
    something else is no answer to "what is it now")."""
    if Channel.MEANING not in use:
        return order
    near = {hit.id: hit for hit in channels[Channel.MEANING]}
    nearest = max((hit.strength for hit in near.values()), default=0.0)
    head = order[:NEWER_FIRST_DEPTH]
    movable = [
        i
        for i in head
        if i in near
        and near[i].created_at is not None
        and near[i].strength >= nearest - NEWER_FIRST_MARGIN
    ]
    if len(movable) < 2:
        return order
    # By the day each was stored, on the service's clock: memories of one day (one
    # conversation, one import) are not a before and an after, and share a rank.
    day = {i: service_day(near[i].created_at) for i in movable}
    if len(set(day.values())) < 2:
        return order
    place = {memory_id: rank for rank, memory_id in enumerate(head, start=1)}
    score = {i: 1.0 / (RRF_K + place[i]) for i in movable}
    newest = sorted(set(day.values()), reverse=True)
    recency = {i: 1 + newest.index(day[i]) for i in movable}  # dense: 1, 1, 2, 3, 3
    for memory_id in movable:
        score[memory_id] += NEWER_FIRST_WEIGHT / (RRF_K + recency[memory_id])
    moved = iter(sorted(movable, key=lambda i: (-score[i], recency[i])))
    taken = set(movable)
    return [next(moved) if i in taken else i for i in head] + order[NEWER_FIRST_DEPTH:]


def _present_first(
    order: list[str], first: Mapping[str, ChannelHit], stated: StatedKey
) -> list[str]:
    """``order`` with the current value of a memory key put right above the first past value of
    the same key among its first ``PRESENT_FIRST_DEPTH`` (above); every other memory keeps its
    order.  Keys are read only when one of those memories names a past time, which most
    answers' do not (the key rules take ~0.15 ms a memory)."""
    head = order[:PRESENT_FIRST_DEPTH]
    read: dict[str, tuple[str, bool]] = {}
    for memory_id in head:
        if PAST_TIME.search(first[memory_id].content):
            read[memory_id] = stated(first[memory_id].content)
    past = dict.fromkeys(key for key, was in read.values() if key and was)
    if not past:
        return order
    for memory_id in head:
        if memory_id not in read:
            read[memory_id] = stated(first[memory_id].content)
    for key in past:
        now = next((i for i in head if read[i] == (key, False)), None)
        before = next(i for i in head if read[i] == (key, True))
        if now is not None and head.index(now) > head.index(before):
            head.remove(now)
            head.insert(head.index(before), now)
    return head + order[PRESENT_FIRST_DEPTH:]
