"""What recall's keyword channel needs at scale, kept up to date by the database.

Recall filtered every channel on ``payload->>'user_id'``, matched keywords against
``to_tsvector('simple', payload->>'text_lemmatized')`` and counted, for every query term, the
memories of the scope holding it (BM25's document frequency). At 20,000 memories in a scope a
query with a common word read thousands of rows and recomputed their tsvectors: ~100–200 ms.

* ``scope_key`` and ``terms`` — generated, stored columns: ``payload->>'user_id'`` and the
  ``simple`` tsvector of Mem0's ``text_lemmatized`` (jieba/spaCy tokens). Mem0's INSERT and
  UPDATE name their columns, so it never notices. A GIN index on ``(scope_key, terms)``
  (``btree_gin``) finds a scope's memories holding a term without touching other scopes' rows.
* ``poco_memories_term_df`` (scope, term, how many of the scope's memories hold it) and
  ``poco_memories_scope_size`` (scope, how many memories) — kept exact by statement-level
  triggers on every INSERT, UPDATE, DELETE and TRUNCATE of ``poco_memories`` (one aggregated upsert per
  statement, so a batch import or a delete-user costs one statement, not one per row). A term's
  row is deleted when no memory of the scope holds it any more, and a scope's when it is empty:
  deleting a memory leaves none of its words behind.

Mem0's own expression indexes stay: its search (``make bench`` and ``make eval`` compare with it)
and its own queries still use them.
"""

from django.contrib.postgres.operations import BtreeGinExtension
from django.db import migrations

TRIGGER_FUNCTION = """
CREATE OR REPLACE FUNCTION poco_memories_count_terms() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'TRUNCATE' THEN
        TRUNCATE poco_memories_term_df, poco_memories_scope_size;
        RETURN NULL;
    END IF;
    -- Most updates (status, expiry, links, vectors) leave every row's scope and terms alone.
    -- (Nested: a transition table an event does not have cannot even be named.)
    IF TG_OP = 'UPDATE' THEN
        IF NOT EXISTS (
            SELECT 1 FROM old_rows o JOIN new_rows n ON n.id = o.id
            WHERE o.scope_key IS DISTINCT FROM n.scope_key OR o.terms IS DISTINCT FROM n.terms
        ) THEN
            RETURN NULL;
        END IF;
    END IF;
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        UPDATE poco_memories_term_df d SET df = d.df - g.n
        FROM (
            SELECT o.scope_key, t.term, count(*) AS n
            FROM old_rows o CROSS JOIN LATERAL unnest(tsvector_to_array(o.terms)) AS t(term)
            WHERE o.scope_key IS NOT NULL GROUP BY 1, 2
        ) g
        WHERE d.scope_key = g.scope_key AND d.term = g.term;
        UPDATE poco_memories_scope_size s SET n = s.n - g.n
        FROM (
            SELECT scope_key, count(*) AS n FROM old_rows
            WHERE scope_key IS NOT NULL GROUP BY 1
        ) g
        WHERE s.scope_key = g.scope_key;
    END IF;
    IF TG_OP IN ('UPDATE', 'INSERT') THEN
        INSERT INTO poco_memories_term_df AS d (scope_key, term, df)
        SELECT n.scope_key, t.term, count(*)
        FROM new_rows n CROSS JOIN LATERAL unnest(tsvector_to_array(n.terms)) AS t(term)
        WHERE n.scope_key IS NOT NULL GROUP BY 1, 2
        ON CONFLICT (scope_key, term) DO UPDATE SET df = d.df + EXCLUDED.df;
        INSERT INTO poco_memories_scope_size AS s (scope_key, n)
        SELECT scope_key, count(*) FROM new_rows WHERE scope_key IS NOT NULL GROUP BY 1
        ON CONFLICT (scope_key) DO UPDATE SET n = s.n + EXCLUDED.n;
    END IF;
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        DELETE FROM poco_memories_term_df d
        WHERE d.df <= 0 AND d.scope_key IN (SELECT DISTINCT scope_key FROM old_rows);
        DELETE FROM poco_memories_scope_size s
        WHERE s.n <= 0 AND s.scope_key IN (SELECT DISTINCT scope_key FROM old_rows);
    END IF;
    RETURN NULL;
END
$$
"""

TRIGGERS = {
    "INSERT": "REFERENCING NEW TABLE AS new_rows",
    "UPDATE": "REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows",
    "DELETE": "REFERENCING OLD TABLE AS old_rows",
    "TRUNCATE": "",
}


def _trigger(event: str, referencing: str) -> migrations.RunSQL:
    name = f"poco_memories_count_terms_{event.lower()}"
    return migrations.RunSQL(
        f"CREATE TRIGGER {name} AFTER {event} ON poco_memories {referencing}"
        " FOR EACH STATEMENT EXECUTE FUNCTION poco_memories_count_terms()",
        f"DROP TRIGGER IF EXISTS {name} ON poco_memories",
    )


class Migration(migrations.Migration):
    dependencies = [("memories", "0005_inline_vectors_and_liveness_statistics")]

    operations = [
        BtreeGinExtension(),
        migrations.RunSQL(
            "ALTER TABLE poco_memories "
            "ADD COLUMN IF NOT EXISTS scope_key text "
            "GENERATED ALWAYS AS (payload->>'user_id') STORED, "
            "ADD COLUMN IF NOT EXISTS terms tsvector "
            "GENERATED ALWAYS AS (to_tsvector('simple', coalesce(payload->>'text_lemmatized', ''))) "
            "STORED",
            "ALTER TABLE poco_memories DROP COLUMN IF EXISTS scope_key, "
            "DROP COLUMN IF EXISTS terms",
        ),
        migrations.RunSQL(
            "CREATE INDEX IF NOT EXISTS poco_memories_scope_key_idx ON poco_memories (scope_key)",
            "DROP INDEX IF EXISTS poco_memories_scope_key_idx",
        ),
        migrations.RunSQL(
            "CREATE INDEX IF NOT EXISTS poco_memories_scope_terms_idx ON poco_memories "
            "USING gin (scope_key, terms)",
            "DROP INDEX IF EXISTS poco_memories_scope_terms_idx",
        ),
        # Recall's names in quotes: a substring of the memory's normalised text.
        migrations.RunSQL(
            "CREATE INDEX IF NOT EXISTS poco_memories_name_text_trgm_idx ON poco_memories "
            "USING gin ((lower(normalize(payload->>'data', NFKC))) gin_trgm_ops)",
            "DROP INDEX IF EXISTS poco_memories_name_text_trgm_idx",
        ),
        migrations.RunSQL(
            "CREATE TABLE poco_memories_term_df ("
            "scope_key text NOT NULL, term text NOT NULL, df integer NOT NULL, "
            "PRIMARY KEY (scope_key, term))",
            "DROP TABLE IF EXISTS poco_memories_term_df",
        ),
        migrations.RunSQL(
            "CREATE TABLE poco_memories_scope_size (scope_key text PRIMARY KEY, n integer NOT NULL)",
            "DROP TABLE IF EXISTS poco_memories_scope_size",
        ),
        migrations.RunSQL(TRIGGER_FUNCTION, "DROP FUNCTION IF EXISTS poco_memories_count_terms()"),
        *(_trigger(event, referencing) for event, referencing in TRIGGERS.items()),
        # What is stored already.
        migrations.RunSQL(
            "INSERT INTO poco_memories_term_df (scope_key, term, df) "
            "SELECT m.scope_key, t.term, count(*) FROM poco_memories m "
            "CROSS JOIN LATERAL unnest(tsvector_to_array(m.terms)) AS t(term) "
            "WHERE m.scope_key IS NOT NULL GROUP BY 1, 2",
            migrations.RunSQL.noop,
        ),
        migrations.RunSQL(
            "INSERT INTO poco_memories_scope_size (scope_key, n) "
            "SELECT scope_key, count(*) FROM poco_memories WHERE scope_key IS NOT NULL GROUP BY 1",
            migrations.RunSQL.noop,
        ),
        migrations.RunSQL("ANALYZE poco_memories", migrations.RunSQL.noop),
    ]
