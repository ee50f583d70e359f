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


def weekly_day_keywords(apps: Any, schema_editor: Any) -> None:
    from memories.ops import keywords

    with schema_editor.connection.cursor() as cur:
        rows = keywords.memories_matching(cur, "每周[一二四天]")
        if rows:
            keywords.write_tokens(cur, keywords.tokenised_again(rows))


class Migration(migrations.Migration):
    dependencies = [("memories", "0023_entity_names_without_verbs")]

    operations = [migrations.RunPython(weekly_day_keywords, migrations.RunPython.noop)]
