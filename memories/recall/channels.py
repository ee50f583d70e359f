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
  (NFKC, lower case, single spaces) equals a span of the query — or, at half weight, a Latin
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
  (``memories.recall.fusion``).  The query's
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

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from psycopg import sql

from memories.instants import read_instant
from memories.recall.languages import Written, written_in
from memories.recall.live import live_condition, scope_condition, valid_at_condition
from memories.recall.tuning import KEYWORD_DF_MIN_SCOPE, MISSPELLING_WEIGHT
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

    def floor_for(self, content: str) -> float:
        """The floor of evidence over a memory holding ``content``."""
        if self.across_floor is None or self.language is None:
            return self.floor
        return self.floor if written_in(content) == self.language else self.across_floor


def _lexeme(term: str) -> str:
    """A tsquery literal for one term (quoted, so operators inside it are text)."""
    return "'" + term.replace("\\", "\\\\").replace("'", "''") + "'"


def _contains(name: str) -> str:
    """A LIKE pattern for text holding ``name`` (its wildcards escaped): the trigram index on the
    memories' normalised text (migration 0006) answers it; ``strpos`` read every row."""
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


_VECTOR = """
SELECT 'vector', v.id, v.content, v.category, v.strength, v.strength, false, v.created_at FROM (
    SELECT m.id, m.payload->>'data' AS content, m.payload->>'created_at' AS created_at,
           coalesce(m.payload->>'category', 'fact') AS category,
           greatest(0, 1 - (m.vector <=> %(vector)s::vector)) AS strength
    FROM {memories} m
    WHERE {m_in_scope}{filters}
    ORDER BY m.vector <=> %(vector)s::vector
    LIMIT %(pool)s
) v
WHERE v.strength >= %(vector_floor)s
"""

# Document frequencies count the whole scope (filters only choose what is returned), so a filter
# never makes a common word look rare. They and the scope's size come from the tables the
# database keeps exact on every write (migration 0006), not from reading the memories.
_KEYWORD_CTES = """
kw_form_df AS (
    -- A form the parser splits into several lexemes ("gpt-4") takes its rarest lexeme's count,
    -- an upper bound of the memories holding the whole phrase.
    SELECT f.ord, f.form,
           CASE WHEN count(d.df) < count(*) THEN 0 ELSE min(d.df) END AS df
    FROM unnest(%(kw_form_terms)s::int[], %(kw_forms)s::text[]) AS f(ord, form)
    CROSS JOIN LATERAL unnest(tsvector_to_array(to_tsvector('simple', f.form))) AS l(lexeme)
    LEFT JOIN poco_memories_term_df d ON d.scope_key = %(scope)s AND d.term = l.lexeme
    GROUP BY f.ord, f.form
),
kw_slip_df AS (
    -- A word no memory of the scope holds and no dictionary knows ("kestral") is a typing slip:
    -- it stands for the words one edit away from it that memories hold (terms.keyword_slips).
    SELECT s.ord, s.form, d.df
    FROM unnest(%(kw_slip_terms)s::int[], %(kw_slip_forms)s::text[]) AS s(ord, form)
    JOIN poco_memories_term_df d ON d.scope_key = %(scope)s AND d.term = s.form AND d.df > 0
    WHERE NOT EXISTS (SELECT 1 FROM kw_form_df f WHERE f.ord = s.ord AND f.df > 0)
),
kw_terms AS (
    SELECT t.ord, t.term, coalesce(s.lexeme, t.lexeme) AS lexeme,
           to_tsquery('simple', coalesce(s.lexeme, t.lexeme)) AS tsq
    FROM unnest(%(kw_terms)s::text[], %(kw_lexemes)s::text[])
         WITH ORDINALITY AS t(term, lexeme, ord)
    LEFT JOIN (  -- slips are letters only: no quoting needed
        SELECT ord, '(' || string_agg(form, ' | ') || ')' AS lexeme FROM kw_slip_df GROUP BY ord
    ) s ON s.ord = t.ord
),
kw_scope AS (
    SELECT coalesce((SELECT n FROM poco_memories_scope_size WHERE scope_key = %(scope)s), 0)::float8
           AS n
),
kw_bounds AS (
    -- A term matched by several forms (an attribute's words, a word and its translations) is
    -- held by at least its commonest form's memories and at most the sum of its forms' counts.
    SELECT ord, count(*) AS forms, max(df) AS lower,
           least(sum(df), (SELECT n FROM kw_scope)) AS upper
    FROM (SELECT ord, df FROM kw_form_df UNION ALL SELECT ord, df FROM kw_slip_df) AS forms
    GROUP BY ord
),
kw_df AS (
    -- The sum, an upper bound, never overstates a weight; but one memory often holds several
    -- words of one attribute ("due … rollout"), and the sum can make the term look too common
    -- to count when it is not.  Only then are its memories counted, through the GIN index and
    -- no further than the share that decides.
    SELECT b.ord, (CASE
        WHEN b.forms > 1 AND s.n >= %(kw_min_scope)s
             AND b.lower <= %(kw_max_share)s * s.n AND b.upper > %(kw_max_share)s * s.n
        THEN (SELECT count(*) FROM (
                  SELECT 1 FROM {memories} m JOIN kw_terms t ON t.ord = b.ord
                  WHERE {m_in_scope} AND m.terms @@ t.tsq
                  LIMIT floor(%(kw_max_share)s * s.n)::int + 1) AS held)
        ELSE b.upper END)::float8 AS df
    FROM kw_bounds b CROSS JOIN kw_scope s
),
kw_idf AS (
    SELECT t.term, t.lexeme, t.tsq, coalesce(f.df, 0) AS df,
           coalesce(f.df, 0) / greatest(s.n, 1) AS share,
           -- A word no memory holds weighs what the rarest held word weighs: it still says the
           -- query asks for more than a memory holds, but BM25's idf at df = 0 is an
           -- extrapolation that made one unknown word outweigh any word found.
           ln(1 + (s.n - greatest(f.df, 1) + 0.5) / (greatest(f.df, 1) + 0.5)) AS idf
    FROM kw_terms t CROSS JOIN kw_scope s LEFT JOIN kw_df f ON f.ord = t.ord
),
kw_total AS (
    SELECT sum(idf) AS total FROM kw_idf
),
kw_useful AS (
    -- The terms that can count: held by some memory and, in a larger scope, not so common that
    -- they say nothing; ``upto`` sums the weights up to each term, weakest first.
    SELECT i.*, sum(i.idf) OVER (ORDER BY i.idf, i.term ROWS UNBOUNDED PRECEDING) AS upto,
           {kw_is_name} AS is_name
    FROM kw_idf i
    WHERE i.df > 0
      AND (i.share <= %(kw_max_share)s OR (SELECT n FROM kw_scope) < %(kw_min_scope)s)
),
kw_candidates AS MATERIALIZED (
    -- MaxScore: the weakest terms whose weights together stay under the coverage floor cannot
    -- lift a memory over it alone, so only memories holding one of the other ("essential")
    -- terms are read — through the (scope_key, terms) GIN index.
    SELECT m.id, m.terms, m.vector <=> %(vector)s::vector AS distance
    FROM {memories} m
    WHERE {m_in_scope}
      AND m.terms @@ (
          SELECT to_tsquery('simple', string_agg(u.lexeme, ' | '))
          FROM kw_useful u CROSS JOIN kw_total k
          WHERE u.upto >= %(kw_min_coverage)s * k.total
      )
),
kw_ranked AS (
    -- ``names_only``: every term the memory matched is a name the entity channel looked up.
    SELECT c.id, c.distance, sum(u.idf) / (SELECT total FROM kw_total) AS coverage,
           bool_and(u.is_name) AS names_only
    FROM kw_candidates c JOIN kw_useful u ON c.terms @@ u.tsq
    GROUP BY c.id, c.distance
)
"""

# A keyword term is a name when an entity the query names is called by it (or holds it as a
# word: "maya" of "maya chen"); a memory that matched nothing else has the entity channel's
# evidence, not a second piece of its own (``ChannelHit.names_only``).
_KEYWORD_IS_NAME = "EXISTS (SELECT 1 FROM en_direct d WHERE to_tsvector('simple', d.name) @@ i.tsq)"

_KEYWORD = """
SELECT 'keyword', m.id, m.payload->>'data', coalesce(m.payload->>'category', 'fact'), k.coverage,
       greatest(0, 1 - k.distance), k.names_only, m.payload->>'created_at'
FROM (
    SELECT * FROM kw_ranked WHERE coverage >= %(kw_min_coverage)s
    ORDER BY coverage DESC, distance, id
) k
JOIN {memories} m ON m.id = k.id
WHERE true{filters}
ORDER BY k.coverage DESC, k.distance, k.id
LIMIT %(pool)s
"""

# The entities the query names: by equality with a span, its pinyin, or (at a lower weight) one
# typing slip; ``exact`` marks the first two.
_ENTITY_CTES = """
en_direct AS MATERIALIZED (
    -- ``recall_scope``, ``recall_name`` (NFKC, lower case, one space between words) and
    -- ``recall_pinyin`` are read without the payload and its links (migration 0017).
    SELECT en.id, en.recall_name AS name, en.payload->'linked_memory_ids' AS links,
           (en.recall_name = ANY(%(en_grams)s::text[])
            OR en.recall_pinyin ?| %(en_pinyin)s::text[]) AS exact
    FROM {entities} en
    WHERE en.recall_scope = %(scope)s
      AND (en.recall_name = ANY(%(en_grams)s::text[])
           OR en.recall_name = ANY(%(en_fuzzy)s::text[])
           OR en.recall_pinyin ?| %(en_pinyin)s::text[])
),
en_named AS (
    -- Each name the query names, with every entity that is it: the entity itself and, for a
    -- name of Latin letters and digits, the entities whose name holds it as whole words in
    -- order ("Project Kestrel" for "Kestrel", or for "Kestral" at the misspelling's weight;
    -- the (user_id, words) GIN index of migration 0010).
    SELECT d.name AS grp, d.links,
           CASE WHEN d.exact THEN 1.0 ELSE %(en_fuzzy_weight)s END AS factor
    FROM en_direct d
    UNION ALL
    SELECT d.name, wider.payload->'linked_memory_ids',
           CASE WHEN d.exact THEN 1.0 ELSE %(en_fuzzy_weight)s END
    FROM en_direct d
    JOIN {entities} wider
      ON wider.payload->>'user_id' = %(scope)s
     AND to_tsvector('simple', wider.payload->>'data') @@ phraseto_tsquery('simple', d.name)
    WHERE d.name ~ '^[a-z0-9]+( [a-z0-9]+)*$'  -- words the parser keeps whole ("c++" is "c")
      AND wider.id <> d.id
),
en_weighted AS (
    -- A name linked to fewer memories weighs more; weights are computed per entity before its
    -- links are expanded.
    SELECT links, factor / greatest(sum(jsonb_array_length(links)) OVER (PARTITION BY grp), 1)
           AS weight
    FROM en_named
)
"""

_ENTITY = """
SELECT 'entity', m.id, m.payload->>'data', coalesce(m.payload->>'category', 'fact'),
       w.weight, greatest(0, 1 - (m.vector <=> %(vector)s::vector)), false,
       m.payload->>'created_at'
FROM (
    SELECT e.id, sum(e.weight) AS weight FROM (
        SELECT link.mid::uuid AS id, named.weight
        FROM (SELECT * FROM en_weighted OFFSET 0) named
        CROSS JOIN LATERAL jsonb_array_elements_text(named.links) AS link(mid)
        UNION ALL
        SELECT q.id, 1.0 FROM {memories} q, unnest(%(en_quoted)s::text[]) AS pattern
        WHERE {q_in_scope}
          AND lower(normalize(q.payload->>'data', NFKC)) LIKE pattern
    ) e
    GROUP BY e.id
    ORDER BY weight DESC, e.id
) w
JOIN {memories} m ON m.id = w.id AND {m_in_scope}
WHERE true{filters}
ORDER BY w.weight DESC, w.id
LIMIT %(pool)s
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
        ctes.append(_ENTITY_CTES)
        parts.append(_ENTITY)
        params |= {
            "en_grams": query.grams,
            "en_pinyin": query.pinyin,
            "en_fuzzy": query.misspellings,
            "en_fuzzy_weight": MISSPELLING_WEIGHT,
            "en_quoted": [_contains(name) for name in query.quoted],
        }
    if query.terms:
        lexemes = ["(" + " | ".join(_lexeme(f) for f in forms) + ")" for forms in query.terms]
        ctes.append(_KEYWORD_CTES)
        parts.append(_KEYWORD)
        params |= {
            "kw_terms": [forms[0] for forms in query.terms],
            "kw_lexemes": lexemes,
            "kw_form_terms": [n for n, forms in enumerate(query.terms, 1) for _ in forms],
            "kw_forms": [form for forms in query.terms for form in forms],
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
    is_name = _KEYWORD_IS_NAME if names else "false"
    return (
        sql.SQL(body).format(
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
SELECT 'meaning', v.id, v.content, v.category, v.strength,
       greatest(0, 1 - (v.vector <=> %(vector)s::vector)), false, v.created_at FROM (
    SELECT m.id, m.vector, m.payload->>'data' AS content, m.payload->>'created_at' AS created_at,
           coalesce(m.payload->>'category', 'fact') AS category,
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


def meaning_hits(
    rows: list[tuple[Any, ...]],
    found: dict[Channel, list[ChannelHit]],
    meaning: MeaningQuery,
) -> dict[Channel, list[ChannelHit]]:
    """``found`` with the meaning channel's rows added as its hits: the scope's nearest
    memories under the second model, over their floor (evidence) or under it (``under_floor``:
    they take part in the order of an answer only), each against the floor of its pair of
    languages (``MeaningQuery.floor_for``)."""
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
                under_floor=float(strength) < floor,
                created_at=read_instant(created),
            )
        )
    channel.sort(key=lambda h: (-h.strength, h.id))
    return {**found, Channel.MEANING: channel}


def folded_hits(
    rows: list[tuple[Any, ...]], query: ChannelQuery, meaning: MeaningQuery
) -> dict[Channel, list[ChannelHit]]:
    """Rows of ``channel_statement`` run with ``meaning``: the same hits as ``channel_hits``
    followed by ``meaning_hits``."""
    found = channel_hits([row for row in rows if row[0] != "meaning"], query)
    return meaning_hits([row for row in rows if row[0] == "meaning"], found, meaning)
