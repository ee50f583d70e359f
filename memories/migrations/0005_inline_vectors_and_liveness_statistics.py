"""Keep each row's vector beside its payload, and let the planner see how many rows are live.

* **Inline vectors.** pgvector stores ``vector`` as ``EXTERNAL``: a 512-float vector (2 KB) is
  always moved out of line, so every distance of an exact scan fetched two TOAST chunks through
  the TOAST index. ``STORAGE MAIN`` and a ``toast_tuple_target`` of a whole page keep a row of
  vector + payload (~2.8 KB) in the heap; only a row larger than a page is still toasted. Rows
  already stored are rewritten once (the cast makes a fresh datum, which the new storage rule
  places inline).
* **Liveness statistics.** Every read filters on ``coalesce(payload->>'status', 'active')`` and
  ``payload->>'valid_until'`` (``memories.recall.channels.live_condition``). Without statistics on
  those expressions the planner guessed that 0.5 % of a scope was live, so for a scope of 20,000
  memories it preferred an exact scan of all of them to the HNSW index. Extended statistics on
  the two expressions give it the real fractions.
"""

from django.db import migrations

TABLES = ("poco_memories", "poco_memories_entities")


def _inline(table: str) -> list[migrations.RunSQL]:
    return [
        migrations.RunSQL(
            f'ALTER TABLE "{table}" SET (toast_tuple_target = 8160)',
            f'ALTER TABLE "{table}" RESET (toast_tuple_target)',
        ),
        migrations.RunSQL(
            f'ALTER TABLE "{table}" ALTER COLUMN vector SET STORAGE MAIN',
            f'ALTER TABLE "{table}" ALTER COLUMN vector SET STORAGE EXTERNAL',
        ),
        migrations.RunSQL(
            f'UPDATE "{table}" SET vector = vector::text::vector WHERE vector IS NOT NULL',
            migrations.RunSQL.noop,
        ),
    ]


class Migration(migrations.Migration):
    dependencies = [("memories", "0004_audit_changes")]

    operations = [
        *(operation for table in TABLES for operation in _inline(table)),
        migrations.RunSQL(
            "CREATE STATISTICS IF NOT EXISTS poco_memories_status_stat "
            "ON (coalesce(payload->>'status', 'active')) FROM poco_memories",
            "DROP STATISTICS IF EXISTS poco_memories_status_stat",
        ),
        migrations.RunSQL(
            "CREATE STATISTICS IF NOT EXISTS poco_memories_valid_until_stat "
            "ON ((payload->>'valid_until')) FROM poco_memories",
            "DROP STATISTICS IF EXISTS poco_memories_valid_until_stat",
        ),
        migrations.RunSQL("ANALYZE poco_memories", migrations.RunSQL.noop),
    ]
