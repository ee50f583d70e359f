"""Every scope's entity index re-derived with the extractor's rules of what a name is.

The extractor used to link words inside spreadsheet formulas (SUM, HYPERLINK), adjectives of
titles (Dark), pieces of names split at a space (VS, Code), generic words and acronyms (IP,
API keys, English summaries) and fragments of jieba's segmentation (和运维, 画图优先, 文档批量):
the topic heat map, the admin's entity page and recall's entity channel all read them.
``memories.language.names`` now keeps those out of new writes; this runs the extractor again over
every stored memory and makes each scope's index exactly what it finds
(``memories.engine.entities.relink_scope``): a row whose name is still found keeps its id,
spelling, vector and pinyin; junk rows go; names no row held (VS Code, GitHub Actions) are
embedded and inserted, so the embedder runs only for those.  Links are rebuilt from scratch,
so none points at a memory that is gone.  One scope at a time, inside the migration's
transaction.  Backwards it changes nothing: the junk cannot be told from the names again.
"""

from django.db import migrations

MEMORIES = "poco_memories"
ENTITIES = "poco_memories_entities"


def _embedder():
    """The configured embedder's batch call (the bundled one needs no engine)."""
    from django.conf import settings

    if not settings.EMBEDDING_BASE_URL:
        from memories.engine.embedder import encode

        return encode
    from memories.engine import get_engine

    model = get_engine()._memory.embedding_model  # before any row here is touched
    return lambda texts: model.embed_batch(texts, "add")


def relink_entities(apps, schema_editor):
    connection = schema_editor.connection
    with connection.cursor() as cur:
        cur.execute(
            f"SELECT payload->>'user_id' FROM {MEMORIES} "
            f"UNION SELECT payload->>'user_id' FROM {ENTITIES}"
        )
        scopes = sorted(key for (key,) in cur.fetchall() if key is not None)
    if not scopes:
        return
    from memories.engine import bootstrap

    bootstrap.prepare()
    from memories.engine import entities
    from memories.language import nlp

    embed = _embedder()
    with connection.connection.cursor() as cur:  # psycopg's, in the migration's transaction
        for scope_key in scopes:
            cur.execute(
                f"SELECT id::text, coalesce(payload->>'data', '') FROM {MEMORIES} "
                "WHERE payload->>'user_id' = %s ORDER BY id",
                (scope_key,),
            )
            rows = cur.fetchall()
            found = nlp.extract_entities_batch([text for _, text in rows])
            entities.relink_scope(
                cur,
                table=ENTITIES,
                scope_key=scope_key,
                links=[
                    (memory_id, names) for (memory_id, _), names in zip(rows, found, strict=True)
                ],
                embed_batch=embed,
            )


class Migration(migrations.Migration):
    dependencies = [("memories", "0015_memory_use")]

    operations = [migrations.RunPython(relink_entities, migrations.RunPython.noop)]
