"""The pinyin of Chinese entity names, for recall's entity channel (issue 9).

``memories.engine.entities`` stores ``payload.pinyin`` (青鸟 → ``qingniao``) on every new
all-Han entity row; this fills it in for rows written before and indexes it per scope, so a
query that writes a Chinese name in Latin letters ("Qingniao", "Wang Lei") finds the name's
memories in the same indexed statement as the name itself (``memories.engine.recall``).
"""

from django.db import migrations

INDEX = (
    "CREATE INDEX IF NOT EXISTS poco_memories_entities_pinyin_idx ON poco_memories_entities "
    "((payload->>'user_id'), (payload->>'pinyin')) WHERE payload ? 'pinyin'"
)
BATCH = 500


def pinyin_key(name: str) -> str | None:
    """The reading this migration stored: the likeliest one (0011 stores them all)."""
    from memories.engine.nlp import pinyin_readings

    return next(iter(pinyin_readings(name)), None)


def fill_pinyin(apps, schema_editor):
    connection = schema_editor.connection
    with connection.cursor() as cur:
        cur.execute(
            "SELECT id::text, payload->>'data' FROM poco_memories_entities "
            "WHERE NOT payload ? 'pinyin' AND payload->>'data' ~ '[\\u3400-\\u9fff]'"
        )
        keys = [(key, entity_id) for entity_id, name in cur.fetchall() if (key := pinyin_key(name))]
        for start in range(0, len(keys), BATCH):
            chunk = keys[start : start + BATCH]
            cur.execute(
                "UPDATE poco_memories_entities e "
                "SET payload = e.payload || jsonb_build_object('pinyin', k.key) "
                "FROM unnest(%s::text[], %s::uuid[]) AS k(key, id) WHERE e.id = k.id",
                ([k for k, _ in chunk], [i for _, i in chunk]),
            )


class Migration(migrations.Migration):
    dependencies = [("memories", "0006_scope_and_terms_columns")]

    operations = [
        migrations.RunPython(fill_pinyin, migrations.RunPython.noop),
        migrations.RunSQL(INDEX, "DROP INDEX IF EXISTS poco_memories_entities_pinyin_idx"),
    ]
