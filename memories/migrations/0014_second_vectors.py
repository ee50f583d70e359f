"""A second vector per memory, from recall's second model (``memories.engine.second``).

* ``second_vector`` — the memory's text embedded by the second model (``passage:`` for e5), of
  that model's width (384 for the bundled multilingual-e5-small; a remote model's
  ``POCO_SECOND_MODEL_DIMS``, fixed when this migration runs: ``manage.py memory_second_vectors
  --rebuild`` changes it later). Kept inline like the first vector (migration 0005) and indexed
  by HNSW of its own, for the meaning channel's scoped nearest-neighbour search.
* ``second_model`` — the name of the model that wrote it: a row of another model is not read by
  search and is embedded again by the backfill.

Both stay NULL until the memory is embedded (an import leaves them to the queue's backfill job,
and search uses whatever is filled). Mem0's own INSERT and UPDATE name their columns, so it never
notices them. A trigger keeps them honest: an UPDATE that changes the text without writing a
new second vector clears the old one, so a stale vector can never answer for a corrected memory
(Mem0's ``update`` re-embeds only its own vector; the adapter writes the second one after it,
and the backfill catches any path that did not).
"""

from django.conf import settings
from django.db import migrations

DIMS = int(settings.SECOND_MODEL_DIMS) or 384

CLEAR_FUNCTION = """
CREATE OR REPLACE FUNCTION poco_memories_clear_second_vector() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.payload->>'data' IS DISTINCT FROM OLD.payload->>'data'
       AND NEW.second_vector IS NOT DISTINCT FROM OLD.second_vector THEN
        NEW.second_vector := NULL;
        NEW.second_model := NULL;
    END IF;
    RETURN NEW;
END
$$
"""


class Migration(migrations.Migration):
    dependencies = [("memories", "0013_staff_view_audit")]

    operations = [
        migrations.RunSQL(
            f"ALTER TABLE poco_memories ADD COLUMN IF NOT EXISTS second_vector vector({DIMS}), "
            "ADD COLUMN IF NOT EXISTS second_model text",
            "ALTER TABLE poco_memories DROP COLUMN IF EXISTS second_vector, "
            "DROP COLUMN IF EXISTS second_model",
        ),
        migrations.RunSQL(
            "ALTER TABLE poco_memories ALTER COLUMN second_vector SET STORAGE MAIN",
            migrations.RunSQL.noop,
        ),
        migrations.RunSQL(
            "CREATE INDEX IF NOT EXISTS poco_memories_second_hnsw_idx ON poco_memories "
            "USING hnsw (second_vector vector_cosine_ops)",
            "DROP INDEX IF EXISTS poco_memories_second_hnsw_idx",
        ),
        migrations.RunSQL(
            CLEAR_FUNCTION, "DROP FUNCTION IF EXISTS poco_memories_clear_second_vector()"
        ),
        migrations.RunSQL(
            "CREATE TRIGGER poco_memories_clear_second_vector BEFORE UPDATE ON poco_memories "
            "FOR EACH ROW EXECUTE FUNCTION poco_memories_clear_second_vector()",
            "DROP TRIGGER IF EXISTS poco_memories_clear_second_vector ON poco_memories",
        ),
    ]
