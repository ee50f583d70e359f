"""Recall reads an entity's scope, normalised name and pinyin readings from columns of their own.

The entity channel compares each entity's name — NFKC, lower case, runs of white space as one
(0003's expression) — with the query's spans and their one-slip variants. For a Latin word the
variants are hundreds, and the planner then reads every entity row of the scope rather than
probing the name index; the expression detoasted each row's whole payload to get its name,
links included (thousands of memory ids for a common name): 3-5 ms of every search of a
20,000-memory scope (docs/benchmarks.md, "The embedded server"); the pinyin readings (0011)
the same, and the scope when the planner reads the table. Stored generated columns hold the
three beside the row, so reading them never touches the payload; their indexes take the place
of 0003's and 0011's expression indexes. Mem0 names its columns on insert and select, so it
never sees them.
"""

from django.db import migrations

NAME = r"regexp_replace(lower(normalize(payload->>'data', NFKC)), '\s+', ' ', 'g')"
OLD_PINYIN_INDEX = (
    "CREATE INDEX IF NOT EXISTS poco_memories_entities_pinyin_readings_idx "
    "ON poco_memories_entities USING gin ((payload->>'user_id'), (payload->'pinyin')) "
    "WHERE payload ? 'pinyin'"
)


class Migration(migrations.Migration):
    dependencies = [("memories", "0016_entity_names_only")]

    operations = [
        migrations.RunSQL(
            "ALTER TABLE poco_memories_entities "
            "ADD COLUMN IF NOT EXISTS recall_scope text "
            "GENERATED ALWAYS AS (payload->>'user_id') STORED, "
            f"ADD COLUMN IF NOT EXISTS recall_name text GENERATED ALWAYS AS ({NAME}) STORED, "
            "ADD COLUMN IF NOT EXISTS recall_pinyin jsonb "
            "GENERATED ALWAYS AS (payload->'pinyin') STORED",
            "ALTER TABLE poco_memories_entities DROP COLUMN IF EXISTS recall_scope, "
            "DROP COLUMN IF EXISTS recall_name, "
            "DROP COLUMN IF EXISTS recall_pinyin",
        ),
        migrations.RunSQL(
            "CREATE INDEX IF NOT EXISTS poco_memories_entities_recall_name_idx "
            "ON poco_memories_entities (recall_scope, recall_name)",
            "DROP INDEX IF EXISTS poco_memories_entities_recall_name_idx",
        ),
        migrations.RunSQL(
            "CREATE INDEX IF NOT EXISTS poco_memories_entities_recall_pinyin_idx "
            "ON poco_memories_entities USING gin (recall_scope, recall_pinyin) "
            "WHERE recall_pinyin IS NOT NULL",
            "DROP INDEX IF EXISTS poco_memories_entities_recall_pinyin_idx",
        ),
        migrations.RunSQL(
            "DROP INDEX IF EXISTS poco_memories_entities_pinyin_readings_idx", OLD_PINYIN_INDEX
        ),
        migrations.RunSQL(
            "DROP INDEX IF EXISTS poco_memories_entities_name_idx",
            "CREATE INDEX IF NOT EXISTS poco_memories_entities_name_idx ON poco_memories_entities "
            f"((payload->>'user_id'), ({NAME}))",
        ),
    ]
