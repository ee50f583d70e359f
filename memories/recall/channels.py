"""Recall's three channels as one SQL statement over Mem0's own tables (one round trip).

* **vector** — pgvector cosine similarity (``1 - (vector <=> q)``, Mem0's score, negatives read
  as 0), best first; ``min_score`` is this channel's floor.
* **keyword** — PostgreSQL full text with the ``simple`` configuration over the jieba/spaCy
  tokens Mem0 stores in ``payload.text_lemmatized``, as the generated, GIN-indexed ``terms``
  column (migration 0006).  Any query term may match
  (Mem0 ANDs them all, so one extra word hid the memory).  Terms are weighted by BM25's idf
  within the scope; a memory counts as keyword evidence only when its matched terms carry at
  least ``keyword_min_coverage`` of the query's idf weight, and in a larger scope a term found
  in more than ``keyword_max_share`` of the memories counts for nothing.  A term that names an
  attribute (owner, launch date, tech stack: ``nlp.ATTRIBUTE_WORDS``) matches any word of
  its attribute, in either language.  A Latin word no memory holds and no dictionary knows
  stands for the held words one typing slip away (``terms.keyword_slips``); a word no memory
  holds weighs what the rarest held word weighs.  A hit whose matched terms are all names the
  entity channel looked up is marked ``names_only``: fusion counts it there, once.
* **entity** — memories linked in ``poco_memories_entities`` to an entity whose normalised text
  (NFKC, lower case, single spaces, accents folded: ``nlp.recall_name``) equals a span of the
  query (or of its simplified spelling) — or, at half weight, a Latin
  word of the query with one typing slip undone — or one of whose stored pinyin readings
  (青鸟 → ``qingniao``; 太行 → ``taixing``, ``taihang``…) equals a run of the query's Latin
  words, plus memories whose text holds a name the query puts in quotes.  Entities linked to
  fewer memories weigh more.

* **meaning** — the second model's vector (``second_vector``, migration 0014;
  ``memories.engine.second``): cosine similarity under that model, over the memories whose
  second vector it wrote, best first, from its HNSW index; its own floor per pair of languages
  (``SECOND_MODEL_MIN_SCORE`` and the others: ``MeaningQuery.floor_for``).  It returns the
  ``pool`` nearest memories whatever their cosine, those under the floor marked
  ``under_floor``: not evidence, they only take part in the order of an answer that has some
  (``memories.recall.fusion``).  A memory in the other language than the question is evidence
  under the across floor too when the cross-language score accepts it
  (``memories.recall.hubness``; its vector is read for it: ``across_candidates``).  The query's
  second embedding is computed while the first statement runs, so the channel is usually a
  second, short statement after it (``meaning_statement``); when the embedding is ready before
  the first statement, the channel joins it (``channel_statement`` with ``meaning``, read by
  ``folded_hits``).

Every row carries the memory's cosine similarity to the query: fusion breaks ties with it.

Filters and the scope (the generated ``scope_key`` column) apply inside every channel, before
its ``LIMIT``; so does liveness: a superseded or expired memory (or one past its
``valid_until`` that the sweep has not marked yet) is never recalled — unless the search asks
``as_of`` an instant, when validity at that instant takes liveness's place. The rules come from
``memories.recall.live``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from psycopg import sql

from memories.instants import read_instant
from memories.recall.hubness import Asked
from memories.recall.languages import Written, written_in
from memories.recall.lexical import (
    ENTITY,
    ENTITY_CTES,
    ENTITY_QUOTED,
    KEYWORD,
    KEYWORD_CTES,
    KEYWORD_IS_NAME,
)
from memories.recall.live import live_condition, scope_condition, valid_at_condition
from memories.recall.tuning import ACROSS_LOWEST, KEYWORD_DF_MIN_SCOPE, MISSPELLING_WEIGHT
from memories.types import Channel, ChannelHit, SearchFilters


@dataclass(frozen=True)
class ChannelQuery:
    """Everything the channels need, computed from the query text once."""

    scope_key: str
    vector: list[float]
    terms: list[tuple[str, ...]]  # each term with the forms that match it (terms.keyword_terms)
    slips: list[tuple[int, str]]  # (term number, a word one typing slip away: terms.keyword_slips)
    grams: list[str]
    quoted: list[str]
    misspellings: list[str]
    pinyin: list[str]
    filters: SearchFilters
    vector_floor: float
    keyword_min_coverage: float
    keyword_max_share: float
    pool: int
    # The forms of ``terms`` that are dictionary translations (``terms.translated_forms``): one
    # that names an entity of the scope is a name there, not a translation, and matches nothing.
    translated: list[str] = dataclasses.field(default_factory=list)


@dataclass(frozen=True)
class MeaningQuery:
    """The query under the second model: its vector, the model that made it, the floor of its
    evidence over a memory in the question's own language (``floor``) and in the other one
    (``across_floor``; ``memories.recall.languages``)."""

    model: str
    vector: list[float]
    floor: float
    across_floor: float | None = None  # None: ``floor`` for every memory
    language: Written | None = None  # the question's
    # The question's side of the cross-language score (``memories.recall.hubness``): a memory
    # in the other language under ``across_floor`` is evidence too when that score accepts it.
    across: Asked | None = None

    def floor_for(self, content: str) -> float:
        """The floor of evidence over a memory holding ``content``."""
        if self.across_floor is None or self.language is None:
            return self.floor
        return self.floor if written_in(content) == self.language else self.across_floor


def _lexeme(term: str) -> str:
    """A tsquery literal for one term (quoted, so operators inside it are text)."""
    return "'" + term.replace("\\", "\\\\").replace("'", "''") + "'"


def _contains(name: str) -> str:
    """A LIKE pattern for text holding ``name`` (its wildcards escaped): the index of the
    memories' character bigrams (migration 0019) finds the texts holding every bigram of the
    name, the pattern keeps those holding them side by side."""
    escaped = name.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


_TIME_FILTERS: tuple[tuple[str, str, str], ...] = (
    ("created_after", "created_at", ">="),
    ("created_before", "created_at", "<"),
    ("updated_after", "updated_at", ">="),
    ("updated_before", "updated_at", "<"),
)


# The scope test of each alias the statements give the memory table (``memories.recall.live``).
_IN_SCOPE = {
    "m_in_scope": sql.SQL(scope_condition("m", "%(scope)s")),
    "q_in_scope": sql.SQL(scope_condition("q", "%(scope)s")),
}


def _filters(filters: SearchFilters) -> tuple[str, dict[str, Any]]:
    """SQL conditions on ``m.payload`` (named parameters, shared by every channel)."""
    clauses: list[str] = [live_condition("m")]
    params: dict[str, Any] = {}
    if filters.as_of is not None:
        # What was true then: superseded and expired memories whose validity covered it.
        clauses = [valid_at_condition("m", "%(f_as_of)s")]
        params["f_as_of"] = filters.as_of
    if filters.memory_key:
        clauses.append("m.payload->>'memory_key' = %(f_memory_key)s")
        params["f_memory_key"] = filters.memory_key
    if filters.category:
        clauses.append("coalesce(m.payload->>'category', 'fact') = %(f_category)s")
        params["f_category"] = filters.category
    if filters.source:
        clauses.append("coalesce(m.payload->>'source', 'manage') = %(f_source)s")
        params["f_source"] = filters.source
    for name, field, op in _TIME_FILTERS:
        value: datetime | None = getattr(filters, name)
        if value is not None:
            # Mem0 writes ISO strings with an offset: compare instants, never strings.
            clauses.append(f"(m.payload->>'{field}')::timestamptz {op} %(f_{name})s")
            params[f"f_{name}"] = value
    return "".join(f" AND {c}" for c in clauses), params


# The payload's fields are read outside the ``LIMIT``: PostgreSQL computes a subquery's select
# list for every row it sorts, and a scope read through its index (a few thousand memories) sorts
# them all; only ``pool`` rows reach the outer select (1.5-2 ms of a 2,000-memory scope's
# statement, docs/benchmarks.md).
_VECTOR = """
SELECT 'vector', v.id, v.payload->>'data', coalesce(v.payload->>'category', 'fact'),
       v.strength, v.strength, false, v.payload->>'created_at' FROM (
    SELECT m.id, m.payload, greatest(0, 1 - (m.vector <=> %(vector)s::vector)) AS strength
    FROM {memories} m
    WHERE {m_in_scope}{filters}
    ORDER BY m.vector <=> %(vector)s::vector
    LIMIT %(pool)s
) v
WHERE v.strength >= %(vector_floor)s
"""


def channel_statement(
    query: ChannelQuery, *, memories: str, entities: str, meaning: MeaningQuery | None = None
) -> tuple[sql.Composed, dict[str, Any]]:
    """The statement for every channel that has something to look for, and its parameters.

    With ``meaning`` (the query's second embedding, when it is ready before the statement
    runs) the meaning channel joins the others in the same statement (``folded_hits`` reads
    it): what ``meaning_statement`` would have answered, one round trip sooner."""
    filters, params = _filters(query.filters)
    params |= {"scope": query.scope_key, "pool": query.pool}
    tables = {"memories": sql.Identifier(memories), "entities": sql.Identifier(entities)}
    parts = [_VECTOR]
    params |= {"vector": str(query.vector), "vector_floor": query.vector_floor}
    ctes: list[str] = []
    names = query.grams or query.quoted or query.misspellings or query.pinyin
    if names:  # first: the keyword channel asks which of its terms are names the query names
        ctes.append(ENTITY_CTES)
        parts.append(ENTITY)
        params |= {
            "en_grams": query.grams,
            "en_pinyin": query.pinyin,
            "en_fuzzy": query.misspellings,
            "en_fuzzy_weight": MISSPELLING_WEIGHT,
        }
        for number, name in enumerate(query.quoted):
            params |= {
                f"en_quoted_{number}": _contains(name),
                f"en_quoted_name_{number}": name,
            }
    if query.terms:
        ctes.append(KEYWORD_CTES)
        parts.append(KEYWORD)
        params |= {
            "kw_terms": [forms[0] for forms in query.terms],
            "kw_form_terms": [n for n, forms in enumerate(query.terms, 1) for _ in forms],
            "kw_forms": [form for forms in query.terms for form in forms],
            "kw_form_lexemes": [_lexeme(form) for forms in query.terms for form in forms],
            "kw_translated": query.translated,
            "kw_slip_terms": [number for number, _ in query.slips],
            "kw_slip_forms": [form for _, form in query.slips],
            "kw_max_share": query.keyword_max_share,
            "kw_min_scope": KEYWORD_DF_MIN_SCOPE,
            "kw_min_coverage": query.keyword_min_coverage,
        }
    if meaning is not None:
        parts.append(_MEANING_CHANNEL)
        params |= _meaning_params(meaning)
    union = " UNION ALL ".join(f"({part})" for part in parts)
    body = ("WITH " + ",".join(ctes) if ctes else "") + union
    is_name = KEYWORD_IS_NAME if names else "false"
    quoted = "".join(ENTITY_QUOTED.replace("{n}", str(n)) for n in range(len(query.quoted)))
    return (
        sql.SQL(body.replace("{quoted}", quoted)).format(
            filters=sql.SQL(filters), kw_is_name=sql.SQL(is_name), **tables, **_IN_SCOPE
        ),
        params,
    )


def _margin(strength: float, floor: float) -> float:
    """How far ``strength`` clears ``floor`` on a channel whose best is 1.0, in [0, 1]."""
    return max(0.0, min(1.0, (strength - floor) / (1.0 - floor))) if floor < 1.0 else 0.0


def channel_hits(
    rows: list[tuple[Any, ...]], query: ChannelQuery
) -> dict[Channel, list[ChannelHit]]:
    """Rows of the statement, grouped by channel, strongest first within each.  An entity hit
    counts from any link (its floor is 0; a weight is at most 1 per name)."""
    floors = {
        Channel.VECTOR: query.vector_floor,
        Channel.KEYWORD: query.keyword_min_coverage,
        Channel.ENTITY: 0.0,
    }
    found: dict[Channel, list[ChannelHit]] = {c: [] for c in floors}
    for channel, memory_id, content, category, strength, similarity, names_only, created in rows:
        hit = ChannelHit(
            channel=Channel(channel),
            id=str(memory_id),
            content=str(content or ""),
            category=str(category or "fact"),
            strength=float(strength),
            similarity=float(similarity),
            margin=_margin(float(strength), floors[Channel(channel)]),
            names_only=bool(names_only),
            created_at=read_instant(created),
        )
        found[hit.channel].append(hit)
    for hits in found.values():
        hits.sort(key=lambda h: (-h.strength, h.id))
    return found


_MEANING_CHANNEL = """
SELECT 'meaning', v.id, v.payload->>'data', coalesce(v.payload->>'category', 'fact'), v.strength,
       greatest(0, 1 - (v.vector <=> %(vector)s::vector)), false, v.payload->>'created_at' FROM (
    SELECT m.id, m.vector, m.payload,
           greatest(0, 1 - (m.second_vector <=> %(meaning)s::vector)) AS strength
    FROM {memories} m
    WHERE {m_in_scope} AND m.second_model = %(meaning_model)s{filters}
    ORDER BY m.second_vector <=> %(meaning)s::vector
    LIMIT %(pool)s
) v
"""


def _meaning_params(meaning: MeaningQuery) -> dict[str, Any]:
    return {"meaning": str(meaning.vector), "meaning_model": meaning.model}


def meaning_statement(
    query: ChannelQuery, meaning: MeaningQuery, *, memories: str
) -> tuple[sql.Composed, dict[str, Any]]:
    """The meaning channel alone."""
    filters, params = _filters(query.filters)
    params |= _meaning_params(meaning) | {
        "scope": query.scope_key,
        "pool": query.pool,
        "vector": str(query.vector),
    }
    return (
        sql.SQL(_MEANING_CHANNEL).format(
            filters=sql.SQL(filters), memories=sql.Identifier(memories), **_IN_SCOPE
        ),
        params,
    )


def across_candidates(rows: list[tuple[Any, ...]], meaning: MeaningQuery) -> list[str]:
    """The meaning rows' memories that only the cross-language score can make evidence: in the
    other language than the question, under the across floor, over ``ACROSS_LOWEST``."""
    if meaning.across is None or meaning.across_floor is None:
        return []
    return [
        str(memory_id)
        for _, memory_id, content, _, strength, *_ in rows
        if ACROSS_LOWEST <= float(strength) < meaning.across_floor
        and written_in(str(content or "")) != meaning.across.language
    ]


def meaning_hits(
    rows: list[tuple[Any, ...]],
    found: dict[Channel, list[ChannelHit]],
    meaning: MeaningQuery,
    accepted: frozenset[str] = frozenset(),
) -> dict[Channel, list[ChannelHit]]:
    """``found`` with the meaning channel's rows added as its hits: the scope's nearest
    memories under the second model, over their floor (evidence) or under it (``under_floor``:
    they take part in the order of an answer only), each against the floor of its pair of
    languages (``MeaningQuery.floor_for``). ``accepted``: memories in the other language that
    the cross-language score made evidence under their floor (``across_candidates``)."""
    channel = []
    for _, memory_id, content, category, strength, first_similarity, _, created in rows:
        floor = meaning.floor_for(str(content or ""))
        channel.append(
            ChannelHit(
                channel=Channel.MEANING,
                id=str(memory_id),
                content=str(content or ""),
                category=str(category or "fact"),
                strength=float(strength),
                similarity=float(first_similarity),
                margin=_margin(float(strength), floor),
                names_only=False,
                under_floor=float(strength) < floor and str(memory_id) not in accepted,
                created_at=read_instant(created),
            )
        )
    channel.sort(key=lambda h: (-h.strength, h.id))
    return {**found, Channel.MEANING: channel}


def folded_hits(
    rows: list[tuple[Any, ...]],
    query: ChannelQuery,
    meaning: MeaningQuery,
    accepted: frozenset[str] = frozenset(),
) -> dict[Channel, list[ChannelHit]]:
    """Rows of ``channel_statement`` run with ``meaning``: the same hits as ``channel_hits``
    followed by ``meaning_hits``."""
    found = channel_hits([row for row in rows if row[0] != "meaning"], query)
    return meaning_hits([row for row in rows if row[0] == "meaning"], found, meaning, accepted)
