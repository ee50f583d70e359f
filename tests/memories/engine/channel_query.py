"""The engine's recall channels asked directly, with every channel's bounds open, for the engine's
contract tests."""

from __future__ import annotations

from memories.language import nlp
from memories.language.terms import keyword_terms
from memories.recall.channels import ChannelQuery
from memories.types import SearchFilters


def open_channel_query(scope_key: str, vector: list[float], terms: str, names: str) -> ChannelQuery:
    """A query of ``scope_key`` by ``vector``, the keyword terms of ``terms`` and the name grams
    of ``names``: no vector floor, half the terms suffice, five hits a channel."""
    return ChannelQuery(
        scope_key=scope_key,
        vector=vector,
        terms=keyword_terms(terms),
        slips=[],
        grams=nlp.name_grams(names),
        quoted=[],
        misspellings=[],
        pinyin=[],
        filters=SearchFilters(),
        vector_floor=0.0,
        keyword_min_coverage=0.5,
        keyword_max_share=1.0,
        pool=5,
    )
