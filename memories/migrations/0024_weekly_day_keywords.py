"""The keywords of stored memories that name a weekly day jieba's dictionary lacked.

jieba cut "用户每周四晚上去上吉他课" as 每周 / 四, and a single character is no keyword, so the day
was lost: "What do I do on Thursdays?" (thursday → 周四) could not find it. ``nlp.WEEKLY_DAYS``
(每周一, 每周二, 每周四, 每周天) are now words of jieba's, so new writes keep 周四 and 每周四 beside
每周. This tokenises again the memories stored before whose text holds one, with the engine's
jieba, and writes only those whose tokens change; the ``terms`` column and the term counts
(migration 0006's triggers) follow the UPDATE. Backwards it changes nothing (older code reads
the extra tokens as words like any other).
"""

from typing import Any

from django.db import migrations

BATCH = 500


def weekly_day_keywords(apps: Any, schema_editor: Any) -> None:
    from memories.language import nlp

    with schema_editor.connection.cursor() as cur:
        cur.execute(
            "SELECT id::text, payload->>'data', payload->>'text_lemmatized' FROM poco_memories "
            "WHERE payload->>'text_lemmatized' IS NOT NULL AND payload->>'data' ~ %s",
            ["每周[一二四天]"],
        )
        rows = cur.fetchall()
        if not rows:
            return
        from memories.engine import bootstrap

        bootstrap.prepare()  # jieba with the engine's own words
        changed = [
            (tokens, memory_id)
            for memory_id, text, lemmas in rows
            if (tokens := nlp.lemmatize_for_bm25(text)) != lemmas
        ]
        for start in range(0, len(changed), BATCH):
            chunk = changed[start : start + BATCH]
            cur.execute(
                "UPDATE poco_memories m "
                "SET payload = jsonb_set(m.payload, '{text_lemmatized}', to_jsonb(k.tokens)) "
                "FROM unnest(%s::text[], %s::uuid[]) AS k(tokens, id) WHERE m.id = k.id",
                ([tokens for tokens, _ in chunk], [memory_id for _, memory_id in chunk]),
            )


class Migration(migrations.Migration):
    dependencies = [("memories", "0023_entity_names_without_verbs")]

    operations = [migrations.RunPython(weekly_day_keywords, migrations.RunPython.noop)]
