"""The words of entity names, per scope, for recall's entity channel.

spaCy often keeps a head word with a name: "Project Kestrel is the billing rewrite" links the
entity "Project Kestrel", while "Maya Chen leads Kestrel" links "Kestrel". A query naming
Kestrel matched only the second by equality. ``memories.recall.channels`` now also takes the
entities whose name holds a name the query names, as whole words in order; this GIN index on
``(user_id, to_tsvector('simple', name))`` (``btree_gin``, migration 0006) answers that phrase
match per scope.
"""

from django.db import migrations

INDEX = (
    "CREATE INDEX IF NOT EXISTS poco_memories_entities_words_idx ON poco_memories_entities "
    "USING gin ((payload->>'user_id'), to_tsvector('simple', payload->>'data'))"
)


class Migration(migrations.Migration):
    dependencies = [("memories", "0009_attribute_stop_words")]

    operations = [
        migrations.RunSQL(INDEX, "DROP INDEX IF EXISTS poco_memories_entities_words_idx"),
    ]
