"""The SQL of the keyword and entity channels (``memories.recall.channels`` composes it with the
vector and meaning channels into one statement).

Placeholders in braces are filled by ``channels.channel_statement``: ``{memories}`` and
``{entities}`` (Mem0's tables), ``{m_in_scope}`` / ``{q_in_scope}`` (the scope test of an alias),
``{filters}`` (the request's filters and liveness) and ``{kw_is_name}``.
"""

# Document frequencies count the whole scope (filters only choose what is returned), so a filter
# never makes a common word look rare. They and the scope's size come from the tables the
# database keeps exact on every write (migration 0006), not from reading the memories.
KEYWORD_CTES = """
kw_forms AS (
    -- Each term's forms, less the translations that name an entity of the scope: there the
    -- word is a name ("jest" of 笑话 where Jest is the test runner), not the term translated.
    SELECT f.ord, f.form, f.lexeme, f.n
    FROM unnest(%(kw_form_terms)s::int[], %(kw_forms)s::text[], %(kw_form_lexemes)s::text[])
         WITH ORDINALITY AS f(ord, form, lexeme, n)
    WHERE f.form <> ALL(ARRAY(
        SELECT t.form FROM unnest(%(kw_translated)s::text[]) AS t(form)
        WHERE EXISTS (SELECT 1 FROM {entities} e
                      WHERE e.recall_scope = %(scope)s AND e.recall_name = t.form)
    ))
),
kw_form_df AS (
    -- A form the parser splits into several lexemes ("gpt-4") takes its rarest lexeme's count,
    -- an upper bound of the memories holding the whole phrase.
    SELECT f.ord, f.form,
           CASE WHEN count(d.df) < count(*) THEN 0 ELSE min(d.df) END AS df
    FROM kw_forms f
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
    SELECT t.ord, t.term, coalesce(s.lexeme, f.lexeme) AS lexeme,
           to_tsquery('simple', coalesce(s.lexeme, f.lexeme)) AS tsq
    FROM unnest(%(kw_terms)s::text[]) WITH ORDINALITY AS t(term, ord)
    JOIN (  -- the term's forms as one tsquery: (部署 | deploy | deployment)
        SELECT ord, '(' || string_agg(lexeme, ' | ' ORDER BY n) || ')' AS lexeme
        FROM kw_forms GROUP BY ord
    ) f ON f.ord = t.ord
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
KEYWORD_IS_NAME = "EXISTS (SELECT 1 FROM en_direct d WHERE to_tsvector('simple', d.name) @@ i.tsq)"

KEYWORD = """
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
ENTITY_CTES = """
en_direct AS MATERIALIZED (
    -- ``recall_scope``, ``recall_name`` (NFKC, lower case, one space between words, accents
    -- folded: migration 0021) and ``recall_pinyin`` are read without the payload and its links
    -- (migration 0017).
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

# A name the query puts in quotes, one such part each (``{n}``: its number): the memories whose
# normalised text holds it, found through the index of their character bigrams (migration 0019)
# — the name's own bigrams are a constant the planner folds, so it reads how rare they are —
# and kept by the pattern.
ENTITY_QUOTED = """
        UNION ALL
        SELECT q.id, 1.0 FROM {memories} q
        WHERE {q_in_scope}
          AND poco_name_bigrams(lower(normalize(q.payload->>'data', NFKC)))
              @> poco_name_bigrams(%(en_quoted_name_{n})s::text)
          AND lower(normalize(q.payload->>'data', NFKC)) LIKE %(en_quoted_{n})s"""

ENTITY = """
SELECT 'entity', m.id, m.payload->>'data', coalesce(m.payload->>'category', 'fact'),
       w.weight, greatest(0, 1 - (m.vector <=> %(vector)s::vector)), false,
       m.payload->>'created_at'
FROM (
    SELECT e.id, sum(e.weight) AS weight FROM (
        SELECT link.mid::uuid AS id, named.weight
        FROM (SELECT * FROM en_weighted OFFSET 0) named
        CROSS JOIN LATERAL jsonb_array_elements_text(named.links) AS link(mid){quoted}
    ) e
    GROUP BY e.id
    ORDER BY weight DESC, e.id
) w
JOIN {memories} m ON m.id = w.id AND {m_in_scope}
WHERE true{filters}
ORDER BY w.weight DESC, w.id
LIMIT %(pool)s
"""
