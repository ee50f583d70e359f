"""Every scope's entity index re-derived again, with the rules that keep a name's neighbours out.

The extractor glued words to names and kept generic phrases: a role or kind before a Chinese
name (项目负责人赵敏, 客户顺丰), a unit, an adjective or a verb before an English one ("inch
MacBook Pro M3", "white Tesla Model", "contact Dana Whitfield"), a title's closing quote and
a second spelling without its hyphen, the area of a time zone ("Asia" of "Asia/Shanghai"),
generic phrases ("due end", "second time", "Verified conclusion", "rule", "User mentors") and a
jieba fragment that opens with a family name (西湖边夜).  ``memories.language.names`` keeps
those out of new writes; this runs migration 0016's re-derivation again (the same function:
rows of names still found keep their id, vector and pinyin; only new names are embedded).
Backwards it changes nothing.
"""

from importlib import import_module

from django.db import migrations


def relink_entities(apps, schema_editor):
    import_module("memories.migrations.0016_entity_names_only").relink_entities(apps, schema_editor)


class Migration(migrations.Migration):
    dependencies = [("memories", "0021_folded_names_and_keywords")]

    operations = [migrations.RunPython(relink_entities, migrations.RunPython.noop)]
