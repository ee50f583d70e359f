"""Keep an explicit add's cost flat as a scope grows.

* **Exact text lookup.** Every add asks whether a live memory of the scope already has exactly
  its text (``selectors.memories_live_by_text``). The only index on the text was the trigram
  GIN, which the planner used for equality: ~30 ms at 60,000 memories, growing with the table.
  A hash index on ``payload->>'data'`` answers it in ~0.1 ms (`EXPLAIN ANALYZE`: one index scan)
  and, unlike a btree, has no size limit for a 2,000-character Chinese text.
* **Entity payloads uncompressed.** A name linked to thousands of memories keeps their ids in
  one ``linked_memory_ids`` array (~100 KB at 2,500 links), rewritten whenever a memory links
  to it. Random UUIDs do not compress: pglz tried on every rewrite and gave up, half the cost
  of the update (20 -> 9 ms for three such names). ``STORAGE EXTERNAL`` skips the attempt;
  small payloads stay inline (``toast_tuple_target``, migration 0005).
"""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("memories", "0007_entity_pinyin")]

    operations = [
        migrations.RunSQL(
            "CREATE INDEX IF NOT EXISTS poco_memories_data_hash_idx ON poco_memories "
            "USING hash ((payload->>'data'))",
            "DROP INDEX IF EXISTS poco_memories_data_hash_idx",
        ),
        migrations.RunSQL(
            "ALTER TABLE poco_memories_entities ALTER COLUMN payload SET STORAGE EXTERNAL",
            "ALTER TABLE poco_memories_entities ALTER COLUMN payload SET STORAGE EXTENDED",
        ),
    ]
