"""Search: the recall channels (``memories.recall``) run by the engine and fused by rank."""

from __future__ import annotations

import time

from django.conf import settings
from django.db import DatabaseError

from memories import metrics
from memories.engine import get_engine
from memories.engine.extraction.keys import stated_key
from memories.recall.fusion import asks_about_now, asks_about_past, fuse
from memories.recall.languages import Written, written_in
from memories.recall.listing import Listing, asked_to_list
from memories.recall.query import analyse
from memories.recall.tuning import MIN_CHANNEL_POOL
from memories.selectors.as_of import with_validity
from memories.selectors.asked import asked_first
from memories.selectors.overview import memories_pinned
from memories.types import (
    BackendError,
    Channel,
    ChannelHit,
    MemoryScope,
    SearchFilters,
    SearchResult,
)
from memories.usage import Use, count_use


def recall_channels(
    *,
    scope: MemoryScope,
    query: str,
    pool: int,
    min_score: float | None = None,
    filters: SearchFilters | None = None,
) -> dict[Channel, list[ChannelHit]]:
    """What each recall channel finds for ``query`` in ``scope``.

    Raises ``BackendError``; ``memory_search`` turns that into ``available=False``.
    """
    engine = get_engine()  # prepares jieba/spaCy before the query is analysed
    # The second model embeds the query on another thread while this one embeds it with the
    # first, analyses it and runs the first statement: search pays the slower, not the sum.
    # The meaning channel's floors per pair of languages (``memories.recall.languages``).
    language = written_in(query)
    meaning = engine.ask_meaning(
        query,
        floor=(
            settings.SECOND_MODEL_MIN_SCORE
            if language is Written.ZH
            else settings.SECOND_MODEL_EN_MIN_SCORE
        ),
        across_floor=settings.SECOND_MODEL_ACROSS_MIN_SCORE,
        language=language,
    )
    channel_query = analyse(
        query,
        scope_key=scope.key,
        vector=engine.embed_query(query),
        filters=filters or SearchFilters(),
        vector_floor=settings.SEARCH_MIN_SCORE if min_score is None else min_score,
        pool=pool,
    )
    return engine.recall(channel_query, meaning=meaning)


def memory_search(
    *,
    scope: MemoryScope,
    query: str,
    top_k: int | None = None,
    min_score: float | None = None,
    filters: SearchFilters | None = None,
    counted: bool = False,
) -> SearchResult:
    """Every recall channel fused by rank (``memories.recall.fusion``): answered only with
    evidence, ordered by every signal, newer first for a question about now.

    ``min_score`` is the vector channel's floor; the keyword and entity channels have their
    own.  No evidence in any channel is zero hits; an outage is ``available=False``.

    ``counted``: every hit returned is counted as recalled (``memories.usage``). The search
    doors (``/v1``, the user API, MCP, ``/mem0``) ask for it, so none can count differently or
    forget to; the console's search and the gate's measurements do not: what they find was
    given to no one.
    """
    started = time.perf_counter()
    limit = top_k or settings.SEARCH_TOP_K
    listing = asked_to_list(query)
    try:
        channels = recall_channels(
            scope=scope,
            query=query,
            pool=max(limit * 4, MIN_CHANNEL_POOL),
            min_score=min_score,
            filters=filters,
        )
        pinned = _pinned(scope, listing, filters)
    except BackendError as exc:
        metrics.search_failed.inc()
        return SearchResult(items=(), available=False, error_reason=str(exc))
    hits = fuse(
        channels,
        top_k=limit,
        newer_first=asks_about_now(query),
        present_first=not asks_about_past(query),
        stated=stated_key,
        listed=asked_first(query, channels.get(Channel.MEANING, ()), pinned=pinned),
    )
    if filters is not None and filters.as_of is not None:
        hits = with_validity(hits)  # what was true then says when each fact held
    metrics.search_latency.observe(time.perf_counter() - started)
    metrics.search_hits.observe(len(hits))
    if counted:
        count_use(scope=scope, memory_ids=[hit.id for hit in hits], use=Use.RECALLED)
    return SearchResult(items=hits, available=True)


def _pinned(
    scope: MemoryScope, listing: Listing | None, filters: SearchFilters | None
) -> tuple[str, ...]:
    """The user's pinned memories, for a question about everything remembered of them (they
    come first); none for an answer ``as_of`` an instant, where pins, which say what to use
    now, take no places (as in ``memories.context``)."""
    if listing is None or not listing.everything or (filters and filters.as_of):
        return ()
    try:
        return tuple(record.id for record in memories_pinned(scope=scope))
    except DatabaseError as exc:  # an outage like any other channel's, never a quiet answer
        raise BackendError(f"pinned memories: {type(exc).__name__}") from exc


def memory_attribution(*, memory_id: str) -> str | None:
    """Who Mem0 attributed a stored fact to (``user`` / ``assistant``), None when unset."""
    return get_engine().attribution(memory_id=memory_id)
