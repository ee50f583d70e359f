"""The keywords of stored memories, after three rules of ``nlp.lemmatize_for_bm25`` changed.

- A word whose lemma is a stop word is one ("goes" was stored as "go", a term no question
  keeps).
- A work term's phrasing made only of stop words ("on call", "one on one", "move out") is kept
  whole, where it was dropped.
- A Chinese verb-object word split by a count or an aspect (值一次班, 请了三天假) is stored as the
  word too (值班, 请假).

This tokenises again the memories whose text can hold one — every memory without Han (the
first two rules read English) and those with Han that hold a count or an aspect — with the
engine's jieba and spaCy, and writes only those whose tokens change; the ``terms`` column and
the term counts (migration 0006's triggers) follow the UPDATE. Backwards it changes nothing
(older code reads the tokens as words like any other).
"""

from typing import Any

from django.db import migrations

BATCH = 500
# No Han at all, or a count / an aspect the separated verb rule reads.
CANDIDATES = (
    r"^[^\u3400-\u4dbf\u4e00-\u9fff]*$"
    r"|[了过一二两三四五六七八九十几半0-9][次回趟遍下天个场顿]|一下|[了过]个"
)


def stop_word_lemmas_and_separated_verbs(apps: Any, schema_editor: Any) -> None:
    from memories.language import nlp

    with schema_editor.connection.cursor() as cur:
        cur.execute(
            "SELECT id::text, payload->>'data', payload->>'text_lemmatized' FROM poco_memories "
            "WHERE payload->>'text_lemmatized' IS NOT NULL AND payload->>'data' ~ %s",
            [CANDIDATES],
        )
        rows = cur.fetchall()
        if not rows:
            return
        from memories.engine import bootstrap

        bootstrap.prepare()  # jieba with the engine's own words, spaCy's pipeline
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
    dependencies = [("memories", "0024_weekly_day_keywords")]

    operations = [
        migrations.RunPython(stop_word_lemmas_and_separated_verbs, migrations.RunPython.noop)
    ]
