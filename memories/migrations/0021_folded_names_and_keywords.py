"""Recall compares names and keywords with their accents folded, and keywords in simplified script.

People type names without their accents: "Tomas" found nothing of "User's manager is Tomás
Alvarez", "Charite" nothing of "…pediatrician at Charité". And a question in traditional
characters (天樞項目的負責人是誰) asked for words no simplified memory holds.

* ``recall_name`` (migration 0017), the entity channel's name, is now folded as
  ``memories.language.nlp.recall_name`` folds the query's spans: NFKD, combining diacritical
  marks (U+0300–U+036F) dropped, composed again. The generated column is added again with the
  new expression, which computes it for every row, and its index is built again.
* ``payload.text_lemmatized`` is what ``nlp.lemmatize_for_bm25`` makes now: accents folded, and
  a Chinese text cut by jieba from its simplified spelling (``memories.language.script``). An
  English memory's lemmas are folded as they are (the tokeniser folds spaCy's lemmas, so no
  spaCy pass is needed); a text with Han characters whose folded spelling differs is tokenised
  again (with the engine's jieba, so only when there is one). Only rows whose tokens change
  are written; the ``terms`` column and the term counts (0006's triggers) follow the UPDATE.

Backwards the column gets 0017's expression again; the tokens stay folded (the same words, as
older code can read them).
"""

from typing import Any

from django.db import migrations

NAME = r"regexp_replace(lower(normalize(payload->>'data', NFKC)), '\s+', ' ', 'g')"
FOLDED_NAME = (
    f"normalize(regexp_replace(normalize({NAME}, NFKD), '[\\u0300-\\u036f]', '', 'g'), NFC)"
)
INDEX = (
    "CREATE INDEX IF NOT EXISTS poco_memories_entities_recall_name_idx "
    "ON poco_memories_entities (recall_scope, recall_name)"
)


def _name_column(expression: str) -> str:
    return (
        "ALTER TABLE poco_memories_entities DROP COLUMN IF EXISTS recall_name, "
        f"ADD COLUMN recall_name text GENERATED ALWAYS AS ({expression}) STORED"
    )


def fold_stored_keywords(apps: Any, schema_editor: Any) -> None:
    from memories.language import nlp, script
    from memories.ops import keywords

    with schema_editor.connection.cursor() as cur:
        cur.execute(
            "SELECT id::text, payload->>'data', payload->>'text_lemmatized' FROM poco_memories "
            "WHERE payload->>'text_lemmatized' IS NOT NULL AND payload->>'data' IS NOT NULL"
        )
        rows = cur.fetchall()
        changed: list[tuple[str, str]] = []
        retokenise: list[tuple[str, str, str]] = []
        for memory_id, text, lemmas in rows:
            if nlp.has_han(text):
                if nlp.fold_accents(text) != text or script.simplified(text) != text:
                    retokenise.append((memory_id, text, lemmas))
            elif (folded := nlp.fold_accents(lemmas)) != lemmas:
                changed.append((folded, memory_id))
        if retokenise:
            changed += keywords.tokenised_again(retokenise)
        keywords.write_tokens(cur, changed)


class Migration(migrations.Migration):
    dependencies = [("memories", "0020_entity_word_pinyin")]

    operations = [
        migrations.RunSQL([_name_column(FOLDED_NAME), INDEX], [_name_column(NAME), INDEX]),
        migrations.RunPython(fold_stored_keywords, migrations.RunPython.noop),
        migrations.RunSQL("ANALYZE poco_memories_entities", migrations.RunSQL.noop),
    ]
