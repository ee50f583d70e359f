"""Query analysis: what each channel looks for, read from the question once."""

from __future__ import annotations

from memories.language import nlp, pinyin
from memories.language.terms import (
    keyword_slips,
    keyword_terms,
    misspellings,
    translated_forms,
    typed_forms,
)
from memories.recall.channels import ChannelQuery
from memories.recall.tuning import KEYWORD_MAX_SHARE, KEYWORD_MIN_COVERAGE
from memories.types import SearchFilters


def analyse(
    query: str,
    *,
    scope_key: str,
    vector: list[float],
    filters: SearchFilters,
    vector_floor: float,
    pool: int,
) -> ChannelQuery:
    """The channels' query for ``query`` in one scope: its first-model ``vector``, the keyword
    terms with their translations, typed words and slips, the name spans, quoted names,
    misspellings and pinyin runs (``memories.language.nlp``)."""
    terms = keyword_terms(query)
    return ChannelQuery(
        scope_key=scope_key,
        vector=vector,
        terms=typed_forms(terms, query),
        translated=translated_forms(terms),
        slips=keyword_slips(terms),
        grams=nlp.name_grams(query),
        quoted=nlp.quoted_names(query),
        misspellings=misspellings(query),
        pinyin=pinyin.pinyin_grams(query),
        filters=filters,
        vector_floor=vector_floor,
        keyword_min_coverage=KEYWORD_MIN_COVERAGE,
        keyword_max_share=KEYWORD_MAX_SHARE,
        pool=pool,
    )
