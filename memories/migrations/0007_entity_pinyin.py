"""The pinyin of Chinese entity names, for recall's entity channel.

``memories.engine.entities`` stores ``payload.pinyin`` on every new all-Han entity row, so a
query that writes a Chinese name in Latin letters ("Qingniao", "Wang Lei") finds the name's
memories in the same indexed statement as the name itself (``memories.recall.channels``).  This
migration indexed the single reading stored then and filled it in for rows written before;
0011 now stores every reading of every such row and replaces this index, so the filling step
is gone (it would be done again there).
"""

from django.db import migrations

INDEX = (
    "CREATE INDEX IF NOT EXISTS poco_memories_entities_pinyin_idx ON poco_memories_entities "
    "((payload->>'user_id'), (payload->>'pinyin')) WHERE payload ? 'pinyin'"
)


class Migration(migrations.Migration):
    dependencies = [("memories", "0006_scope_and_terms_columns")]

    operations = [
        migrations.RunSQL(INDEX, "DROP INDEX IF EXISTS poco_memories_entities_pinyin_idx"),
    ]
