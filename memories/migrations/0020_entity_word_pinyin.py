"""A Chinese name of several words also reads, in pinyin, as each of its words.

Chinese text's noun runs join a name to the noun before it: "用户的项目青鸟使用 Go 和 React" links
the entity 项目青鸟 ("project Qingniao"), and no entity 青鸟. Its stored readings were those of
the whole name ("xiangmuqingniao"), so "Qingniao" — or any question around it — named nothing.
``memories.language.pinyin.pinyin_readings`` now adds the readings of each word of two
characters or more that jieba cuts the name into; this rewrites ``payload.pinyin`` of the rows
whose readings grow (``recall_pinyin``, migration 0017, follows the payload).  Backwards it
leaves the longer lists: they are readings of the same names, and 0011's code reads any list.
"""

import json
from typing import Any

from django.db import migrations

BATCH = 500


def store_word_readings(apps: Any, schema_editor: Any) -> None:
    from memories.language.pinyin import pinyin_readings

    with schema_editor.connection.cursor() as cur:
        cur.execute(
            "SELECT id::text, payload->>'data', payload->'pinyin' FROM poco_memories_entities "
            "WHERE payload->>'data' ~ '[\\u3400-\\u9fff]'"
        )
        rows = []
        for entity_id, name, stored in cur.fetchall():
            readings = pinyin_readings(name)
            if isinstance(stored, str):
                stored = json.loads(stored)
            if readings and readings != stored:
                rows.append((json.dumps(readings), entity_id))
        for start in range(0, len(rows), BATCH):
            chunk = rows[start : start + BATCH]
            cur.execute(
                "UPDATE poco_memories_entities e "
                "SET payload = e.payload || jsonb_build_object('pinyin', k.readings::jsonb) "
                "FROM unnest(%s::text[], %s::uuid[]) AS k(readings, id) WHERE e.id = k.id",
                ([r for r, _ in chunk], [i for _, i in chunk]),
            )


class Migration(migrations.Migration):
    dependencies = [("memories", "0019_quoted_name_bigrams")]

    operations = [migrations.RunPython(store_word_readings, migrations.RunPython.noop)]
