"""The keywords of stored memories, after three rules of ``nlp.lemmatize_for_bm25`` changed.

- A light verb is dropped however it is inflected ("goes", "took": ``nlp.LIGHT_VERBS``).
- A work term's phrasing made only of stop words ("on call", "one on one", "move out") is kept
  whole, where spaCy dropped each word.
- A Chinese verb-object word split by a count or an aspect (值一次班, 请了三天假) is stored as the
  word too (值班, 请假).

This tokenises again the memories whose text can hold one — English text with an inflected light
verb or one of those phrases, Han text with a count or an aspect — with the engine's jieba and
spaCy, and writes only those whose tokens change (``memories.ops.keywords``). Backwards it
changes nothing (older code reads the tokens as words like any other).
"""

from typing import Any

from django.db import migrations

# An inflected light verb, a stop phrase (``nlp.stop_phrases``) in any inflection, or a count /
# an aspect the separated verb rule reads.
CANDIDATES = (
    r"(?i)\m(?:goes|going|went|gone|gets|getting|got|gotten|makes|making|takes|taking|took|taken"
    r"|gives|giving|gave|given|puts|putting|having|being|doing)\M"
    r"|\mon[ -]call\M|\mone[ -]on[ -]one\M|\mmov\w*[ -]out\M"
    r"|[了过一二两三四五六七八九十几半0-9][次回趟遍下天个场顿]|一下|[了过]个"
)


def light_verbs_stop_phrases_and_separated_verbs(apps: Any, schema_editor: Any) -> None:
    from memories.ops import keywords

    with schema_editor.connection.cursor() as cur:
        rows = keywords.memories_matching(cur, CANDIDATES)
        if rows:
            keywords.write_tokens(cur, keywords.tokenised_again(rows))


class Migration(migrations.Migration):
    dependencies = [("memories", "0024_weekly_day_keywords")]

    operations = [
        migrations.RunPython(
            light_verbs_stop_phrases_and_separated_verbs, migrations.RunPython.noop
        )
    ]
