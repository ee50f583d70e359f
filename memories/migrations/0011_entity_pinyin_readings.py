"""Every pinyin reading of Chinese entity names, for recall's entity channel.

0007 indexed one reading per all-Han name, pypinyin's likeliest: 太行 as "taixing", the surname
曾 as "ceng", where people write Taihang and Zeng.  ``payload.pinyin`` is now the list of a
name's readings (``memories.language.pinyin.pinyin_readings``); this writes it on every all-Han
entity row (none, or a string, before) and indexes the list per scope, so the entity channel's
``?|`` test is answered by the index in the same statement as before.
"""

import json

from django.db import migrations

OLD_INDEX = (
    "CREATE INDEX IF NOT EXISTS poco_memories_entities_pinyin_idx ON poco_memories_entities "
    "((payload->>'user_id'), (payload->>'pinyin')) WHERE payload ? 'pinyin'"
)
INDEX = (
    "CREATE INDEX IF NOT EXISTS poco_memories_entities_pinyin_readings_idx "
    "ON poco_memories_entities USING gin ((payload->>'user_id'), (payload->'pinyin')) "
    "WHERE payload ? 'pinyin'"
)
BATCH = 500


def store_readings(apps, schema_editor):
    from memories.language.pinyin import pinyin_readings

    with schema_editor.connection.cursor() as cur:
        cur.execute(
            "SELECT id::text, payload->>'data' FROM poco_memories_entities "
            "WHERE payload->>'data' ~ '[\\u3400-\\u9fff]'"
        )
        rows = [
            (json.dumps(readings), entity_id)
            for entity_id, name in cur.fetchall()
            if (readings := pinyin_readings(name))
        ]
        for start in range(0, len(rows), BATCH):
            chunk = rows[start : start + BATCH]
            cur.execute(
                "UPDATE poco_memories_entities e "
                "SET payload = e.payload || jsonb_build_object('pinyin', k.readings::jsonb) "
                "FROM unnest(%s::text[], %s::uuid[]) AS k(readings, id) WHERE e.id = k.id",
                ([r for r, _ in chunk], [i for _, i in chunk]),
            )


def store_first_reading(apps, schema_editor):
    """Back to 0007's shape: the likeliest reading, as a string."""
    with schema_editor.connection.cursor() as cur:
        cur.execute(
            "UPDATE poco_memories_entities "
            "SET payload = payload || jsonb_build_object('pinyin', payload->'pinyin'->>0) "
            "WHERE jsonb_typeof(payload->'pinyin') = 'array'"
        )


class Migration(migrations.Migration):
    dependencies = [("memories", "0010_entity_name_words")]

    operations = [
        migrations.RunSQL("DROP INDEX IF EXISTS poco_memories_entities_pinyin_idx", OLD_INDEX),
        migrations.RunPython(store_readings, store_first_reading),
        migrations.RunSQL(INDEX, "DROP INDEX IF EXISTS poco_memories_entities_pinyin_readings_idx"),
    ]
