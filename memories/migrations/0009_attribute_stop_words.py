"""Keywords of English memories keep "due" and "own".

spaCy lists both as stop words, so Mem0's lemmas (``payload.text_lemmatized``) dropped them and
"When is Kestrel due?" could only ask for "kestrel". ``memories.language.nlp.english_bm25`` keeps
an attribute word now; this adds the word to the lemmas of English memories written before
whose text holds it. The generated ``terms`` column and the term counts (migration 0006's
triggers) follow the UPDATE. Chinese and mixed texts go through jieba, which kept them.
"""

from django.db import migrations

# nlp.ATTRIBUTE_WORDS ∩ spaCy's English stop words (spacy 3.8), frozen for this migration.
WORDS = ("due", "own")

ADD_WORD = r"""
UPDATE poco_memories
SET payload = jsonb_set(
    payload, '{text_lemmatized}',
    to_jsonb(concat_ws(' ', nullif(payload->>'text_lemmatized', ''), %(word)s::text)))
WHERE payload->>'data' !~ '[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]'
  AND lower(payload->>'data') ~ ('\m' || %(word)s || '\M')
  AND NOT terms @@ to_tsquery('simple', %(word)s)
"""


def add_words(apps, schema_editor):
    with schema_editor.connection.cursor() as cur:
        for word in WORDS:
            cur.execute(ADD_WORD, {"word": word})


class Migration(migrations.Migration):
    dependencies = [("memories", "0008_write_path_indexes")]

    operations = [migrations.RunPython(add_words, migrations.RunPython.noop)]
