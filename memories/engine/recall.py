"""Recall's three channels as one SQL statement over Mem0's own tables (one round trip).

* **vector** — pgvector cosine similarity (``1 - (vector <=> q)``, Mem0's score, negatives read
  as 0), best first; ``min_score`` is this channel's floor (seed 000 §5).
* **keyword** — PostgreSQL full text with the ``simple`` configuration over the jieba/spaCy
  tokens Mem0 stores in ``payload.text_lemmatized`` (its GIN index).  Any query term may match
  (Mem0 ANDs them all, so one extra word hid the memory).  Terms are weighted by BM25's idf
  within the scope; a memory counts as keyword evidence only when its matched terms carry at
  least ``keyword_min_coverage`` of the query's idf weight, and in a larger scope a term found
  in more than ``keyword_max_share`` of the memories counts for nothing.  A term that names an
  attribute (owner, launch date, tech stack: ``nlp.ATTRIBUTE_WORDS``) matches any word of
  its attribute, in either language.
* **entity** — memories linked in ``poco_memories_entities`` to an entity whose normalised text
  (NFKC, lower case, single spaces) equals a span of the query — or, at half weight, a Latin
  word of the query with one typing slip undone — or whose stored pinyin (青鸟 → ``qingniao``)
  equals a run of the query's Latin words, plus memories whose text holds a name the query
  puts in quotes.  Entities linked to fewer memories weigh more.

Every row carries the memory's cosine similarity to the query: fusion breaks ties with it.

Filters and the scope apply inside every channel, before its ``LIMIT``; so does liveness: a
superseded or expired memory (or one past its ``valid_until`` that the sweep has not marked
yet) is never recalled.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from psycopg import sql

from memories.types import Channel, ChannelHit, SearchFilters

# Below this many memories in a scope, document frequency says nothing about commonness: the
# generic-word list (memories.engine.nlp.GENERIC_TERMS) guards small scopes instead.
KEYWORD_DF_MIN_SCOPE = 20
# A name one typing slip away from the query's word ("Kestral" for "Kestrel") is evidence, but
# less than the name itself.
MISSPELLING_WEIGHT = 0.5


@dataclass(frozen=True)
class ChannelQuery:
    """Everything the channels need, computed from the query text once."""

    scope_key: str
    vector: list[float]
    terms: list[tuple[str, ...]]  # each term with the forms that match it (nlp.keyword_terms)
    grams: list[str]
    quoted: list[str]
    misspellings: list[str]
    pinyin: list[str]
    filters: SearchFilters
    vector_floor: float
    keyword_min_coverage: float
    keyword_max_share: float
    pool: int


def _lexeme(term: str) -> str:
    """A tsquery literal for one term (quoted, so operators inside it are text)."""
    return "'" + term.replace("\\", "\\\\").replace("'", "''") + "'"


_TIME_FILTERS: tuple[tuple[str, str, str], ...] = (
    ("created_after", "created_at", ">="),
    ("created_before", "created_at", "<"),
    ("updated_after", "updated_at", ">="),
    ("updated_before", "updated_at", "<"),
)


def live_condition(alias: str) -> str:
    """SQL: the memory ``alias`` is active and not past its ``valid_until``. Rows written before
    governance have neither field and are live."""
    return (
        f"coalesce({alias}.payload->>'status', 'active') = 'active' "
        f"AND ({alias}.payload->>'valid_until' IS NULL "
        f"OR ({alias}.payload->>'valid_until')::timestamptz > now())"
    )


def _filters(filters: SearchFilters) -> tuple[str, dict[str, Any]]:
    """SQL conditions on ``m.payload`` (named parameters, shared by every channel)."""
    clauses: list[str] = [live_condition("m")]
    params: dict[str, Any] = {}
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


_VECTOR = """
SELECT 'vector', v.id, v.content, v.category, v.strength, v.strength FROM (
    SELECT m.id, m.payload->>'data' AS content,
           coalesce(m.payload->>'category', 'fact') AS category,
           greatest(0, 1 - (m.vector <=> %(vector)s::vector)) AS strength
    FROM {memories} m
    WHERE m.payload->>'user_id' = %(scope)s{filters}
    ORDER BY m.vector <=> %(vector)s::vector
    LIMIT %(pool)s
) v
WHERE v.strength >= %(vector_floor)s
"""

# Document frequencies are counted over the whole scope (filters only choose what is returned),
# so a filter never makes a common word look rare.
_KEYWORD_CTES = """
kw_terms AS (
    SELECT t.term, to_tsquery('simple', t.lexeme) AS tsq
    FROM unnest(%(kw_terms)s::text[], %(kw_lexemes)s::text[]) AS t(term, lexeme)
),
kw_scope AS (
    SELECT count(*)::float8 AS n FROM {memories} WHERE payload->>'user_id' = %(scope)s
),
kw_candidates AS (
    SELECT m.id, to_tsvector('simple', m.payload->>'text_lemmatized') AS tsv
    FROM {memories} m
    WHERE m.payload->>'user_id' = %(scope)s
      AND to_tsvector('simple', m.payload->>'text_lemmatized') @@ to_tsquery('simple', %(kw_any)s)
),
kw_matches AS (
    SELECT c.id, t.term FROM kw_candidates c JOIN kw_terms t ON c.tsv @@ t.tsq
),
kw_idf AS (
    SELECT t.term,
           count(x.id) / greatest(s.n, 1) AS share,
           ln(1 + (s.n - count(x.id) + 0.5) / (count(x.id) + 0.5)) AS idf
    FROM kw_terms t CROSS JOIN kw_scope s LEFT JOIN kw_matches x ON x.term = t.term
    GROUP BY t.term, s.n
),
kw_ranked AS (
    SELECT x.id, sum(i.idf) / (SELECT sum(idf) FROM kw_idf) AS coverage
    FROM kw_matches x JOIN kw_idf i ON i.term = x.term
    WHERE i.share <= %(kw_max_share)s OR (SELECT n FROM kw_scope) < %(kw_min_scope)s
    GROUP BY x.id
)
"""

_KEYWORD = """
SELECT 'keyword', m.id, m.payload->>'data', coalesce(m.payload->>'category', 'fact'), k.coverage,
       greatest(0, 1 - (m.vector <=> %(vector)s::vector))
FROM kw_ranked k JOIN {memories} m ON m.id = k.id
WHERE k.coverage >= %(kw_min_coverage)s{filters}
ORDER BY k.coverage DESC, m.id
LIMIT %(pool)s
"""

_ENTITY = """
SELECT 'entity', m.id, m.payload->>'data', coalesce(m.payload->>'category', 'fact'),
       sum(e.weight), greatest(0, 1 - (m.vector <=> %(vector)s::vector))
FROM (
    SELECT link.mid::uuid AS id,
           CASE WHEN n.name = ANY(%(en_grams)s::text[])
                  OR en.payload->>'pinyin' = ANY(%(en_pinyin)s::text[])
                THEN 1.0 ELSE %(en_fuzzy_weight)s END
           / greatest(jsonb_array_length(en.payload->'linked_memory_ids'), 1) AS weight
    FROM {entities} en
    CROSS JOIN LATERAL (
        SELECT regexp_replace(lower(normalize(en.payload->>'data', NFKC)), '\\s+', ' ', 'g')
    ) AS n(name)
    CROSS JOIN LATERAL jsonb_array_elements_text(en.payload->'linked_memory_ids') AS link(mid)
    WHERE en.payload->>'user_id' = %(scope)s
      AND (n.name = ANY(%(en_grams)s::text[]) OR n.name = ANY(%(en_fuzzy)s::text[])
           OR (en.payload ? 'pinyin' AND en.payload->>'pinyin' = ANY(%(en_pinyin)s::text[])))
    UNION ALL
    SELECT q.id, 1.0 FROM {memories} q, unnest(%(en_quoted)s::text[]) AS name
    WHERE q.payload->>'user_id' = %(scope)s
      AND strpos(lower(normalize(q.payload->>'data', NFKC)), name) > 0
) e
JOIN {memories} m ON m.id = e.id AND m.payload->>'user_id' = %(scope)s
WHERE true{filters}
GROUP BY m.id, m.vector
ORDER BY sum(e.weight) DESC, m.id
LIMIT %(pool)s
"""


def channel_statement(
    query: ChannelQuery, *, memories: str, entities: str
) -> tuple[sql.Composed, dict[str, Any]]:
    """The statement for every channel that has something to look for, and its parameters."""
    filters, params = _filters(query.filters)
    params |= {"scope": query.scope_key, "pool": query.pool}
    tables = {"memories": sql.Identifier(memories), "entities": sql.Identifier(entities)}
    parts = [_VECTOR]
    params |= {"vector": str(query.vector), "vector_floor": query.vector_floor}
    ctes = ""
    if query.terms:
        lexemes = ["(" + " | ".join(_lexeme(f) for f in forms) + ")" for forms in query.terms]
        ctes = "WITH " + _KEYWORD_CTES
        parts.append(_KEYWORD)
        params |= {
            "kw_terms": [forms[0] for forms in query.terms],
            "kw_lexemes": lexemes,
            "kw_any": " | ".join(lexemes),
            "kw_max_share": query.keyword_max_share,
            "kw_min_scope": KEYWORD_DF_MIN_SCOPE,
            "kw_min_coverage": query.keyword_min_coverage,
        }
    if query.grams or query.quoted or query.misspellings or query.pinyin:
        parts.append(_ENTITY)
        params |= {
            "en_grams": query.grams,
            "en_pinyin": query.pinyin,
            "en_fuzzy": query.misspellings,
            "en_fuzzy_weight": MISSPELLING_WEIGHT,
            "en_quoted": query.quoted,
        }
    body = ctes + " UNION ALL ".join(f"({part})" for part in parts)
    return sql.SQL(body).format(filters=sql.SQL(filters), **tables), params


def channel_hits(rows: list[tuple[Any, ...]]) -> dict[Channel, list[ChannelHit]]:
    """Rows of the statement, grouped by channel, strongest first within each."""
    found: dict[Channel, list[ChannelHit]] = {c: [] for c in Channel}
    for channel, memory_id, content, category, strength, similarity in rows:
        hit = ChannelHit(
            channel=Channel(channel),
            id=str(memory_id),
            content=str(content or ""),
            category=str(category or "fact"),
            strength=float(strength),
            similarity=float(similarity),
        )
        found[hit.channel].append(hit)
    for hits in found.values():
        hits.sort(key=lambda h: (-h.strength, h.id))
    return found
