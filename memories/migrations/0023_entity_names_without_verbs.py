"""Every scope's entity index re-derived again, without the verb that follows a workplace.

jieba tags 工作 (and 供职, 读书, 上学, 生活, 效力) as a noun, so the run of nouns of
"用户在蓝鲸科技工作" was the topic 蓝鲸科技工作, and "用户去年在阿里工作" gave 阿里工作.
``memories.language.names`` now ends a run before such a verb (``ZH_PLACE_VERBS``) in new writes;
this runs migration 0016's re-derivation again for the memories stored before (the same
function: rows of names still found keep their id, vector and pinyin; only new names, 蓝鲸科技,
are embedded). Backwards it changes nothing.
"""

from importlib import import_module

from django.db import migrations


def relink_entities(apps, schema_editor):
    import_module("memories.migrations.0016_entity_names_only").relink_entities(apps, schema_editor)


class Migration(migrations.Migration):
    dependencies = [("memories", "0022_entity_names_without_roles")]

    operations = [migrations.RunPython(relink_entities, migrations.RunPython.noop)]
