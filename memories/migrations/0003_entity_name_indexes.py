"""Indexes for the entity lookups that run on every add and every search.

* ``poco_memories_entities_key_idx``: linking a new memory's entities looks them up by the
  scope and Mem0's normalised text (``memories.engine.entities.NAME_KEY_SQL``) instead of
  listing the scope's entity rows.
* ``poco_memories_entities_name_idx``: recall's entity channel compares the NFKC-normalised
  name with the query's spans (``memories.recall.channels``), per scope.
"""

from django.db import migrations

KEY = r"regexp_replace(btrim(lower(payload->>'data')), '\s+', ' ', 'g')"
NAME = r"regexp_replace(lower(normalize(payload->>'data', NFKC)), '\s+', ' ', 'g')"


class Migration(migrations.Migration):
    dependencies = [("memories", "0002_deletion_marks")]

    operations = [
        migrations.RunSQL(
            "CREATE INDEX IF NOT EXISTS poco_memories_entities_key_idx ON poco_memories_entities "
            f"((payload->>'user_id'), ({KEY}))",
            "DROP INDEX IF EXISTS poco_memories_entities_key_idx",
        ),
        migrations.RunSQL(
            "CREATE INDEX IF NOT EXISTS poco_memories_entities_name_idx ON poco_memories_entities "
            f"((payload->>'user_id'), ({NAME}))",
            "DROP INDEX IF EXISTS poco_memories_entities_name_idx",
        ),
    ]
