"""Recall finds a name the query puts in quotes through the bigrams of the memory's text.

The entity channel matches a quoted name as a substring of the memory's normalised text
(``lower(normalize(data, NFKC)) LIKE '%name%'``). 0006 indexed that text with trigrams, but
most Chinese names are two characters (“灯塔”, “豆包”), and ``'%灯塔%'`` holds no whole trigram:
the index handed on every row of the table and PostgreSQL then read each memory of the scope —
60 ms of a search for a 2,000-memory user, 190-240 ms for a 20,000-memory one. Quoted names are
at least two characters (``nlp.quoted_names``), so every one of them holds a bigram: an index of
each memory's character bigrams, with its scope, answers every quoted name, Chinese or Latin,
and the ``LIKE`` keeps only the memories that hold the bigrams side by side. It replaces the
trigram index, which nothing else reads.
"""

from django.db import migrations

BIGRAMS = (
    "CREATE OR REPLACE FUNCTION poco_name_bigrams(t text) RETURNS text[] "
    "LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$ "
    "SELECT coalesce(array_agg(DISTINCT substr(t, i, 2)), '{}') "
    "FROM generate_series(1, length(t) - 1) AS i $$"
)
TRIGRAM_INDEX = (
    "CREATE INDEX IF NOT EXISTS poco_memories_name_text_trgm_idx ON poco_memories "
    "USING gin ((lower(normalize(payload->>'data', NFKC))) gin_trgm_ops)"
)


class Migration(migrations.Migration):
    dependencies = [("memories", "0018_staff_view_reason")]

    operations = [
        migrations.RunSQL(BIGRAMS, "DROP FUNCTION IF EXISTS poco_name_bigrams(text)"),
        migrations.RunSQL(
            "CREATE INDEX IF NOT EXISTS poco_memories_name_bigrams_idx ON poco_memories "
            "USING gin (scope_key, poco_name_bigrams(lower(normalize(payload->>'data', NFKC))))",
            "DROP INDEX IF EXISTS poco_memories_name_bigrams_idx",
        ),
        migrations.RunSQL("DROP INDEX IF EXISTS poco_memories_name_text_trgm_idx", TRIGRAM_INDEX),
    ]
