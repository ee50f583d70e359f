"""How often agents were given each memory (``MemoryUse``): counts and last times of recall and
injection, never a query.

A row goes with its memory: the services delete it with the memory and with delete-user, and
statement-level triggers on ``poco_memories`` delete the rows of whatever else deletes memories
(a staff tool, a provisional ingest fact, a TRUNCATE), so no count outlives its memory.
"""

from django.db import migrations, models

FORGET_USE = """
CREATE OR REPLACE FUNCTION poco_memories_forget_use() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'TRUNCATE' THEN
        TRUNCATE memories_memoryuse;
    ELSE
        DELETE FROM memories_memoryuse u USING old_rows o WHERE u.memory_id = o.id;
    END IF;
    RETURN NULL;
END
$$
"""


class Migration(migrations.Migration):
    dependencies = [
        ("memories", "0014_second_vectors"),
    ]

    operations = [
        migrations.CreateModel(
            name="MemoryUse",
            fields=[
                (
                    "memory_id",
                    models.UUIDField(primary_key=True, serialize=False, verbose_name="记忆"),
                ),
                ("tenant_id", models.CharField(max_length=64, verbose_name="租户")),
                ("user_id", models.CharField(max_length=64, verbose_name="用户")),
                (
                    "recalled_count",
                    models.PositiveIntegerField(default=0, verbose_name="被检索次数"),
                ),
                (
                    "last_recalled_at",
                    models.DateTimeField(blank=True, null=True, verbose_name="最近被检索"),
                ),
                (
                    "injected_count",
                    models.PositiveIntegerField(default=0, verbose_name="被注入次数"),
                ),
                (
                    "last_injected_at",
                    models.DateTimeField(blank=True, null=True, verbose_name="最近被注入"),
                ),
            ],
            options={
                "verbose_name": "使用统计",
                "verbose_name_plural": "使用统计",
                "indexes": [models.Index(fields=["tenant_id", "user_id"], name="memory_use_scope")],
            },
        ),
        migrations.RunSQL(FORGET_USE, "DROP FUNCTION IF EXISTS poco_memories_forget_use()"),
        migrations.RunSQL(
            "CREATE TRIGGER poco_memories_forget_use_delete AFTER DELETE ON poco_memories "
            "REFERENCING OLD TABLE AS old_rows "
            "FOR EACH STATEMENT EXECUTE FUNCTION poco_memories_forget_use()",
            "DROP TRIGGER IF EXISTS poco_memories_forget_use_delete ON poco_memories",
        ),
        migrations.RunSQL(
            "CREATE TRIGGER poco_memories_forget_use_truncate AFTER TRUNCATE ON poco_memories "
            "FOR EACH STATEMENT EXECUTE FUNCTION poco_memories_forget_use()",
            "DROP TRIGGER IF EXISTS poco_memories_forget_use_truncate ON poco_memories",
        ),
    ]
