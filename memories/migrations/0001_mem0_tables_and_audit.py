"""Extensions, Mem0's tables with every index it and we need, our audit and settings tables.

The vector width comes from the configured embedder (512 for the bundled USE v3).  Mem0 creates
the same tables lazily with ``CREATE TABLE IF NOT EXISTS``; creating them here makes the schema
reviewed code and lets the read-only models work before the SDK ever starts.
"""

import django.utils.timezone
import pgvector.django
from django.conf import settings
from django.contrib.postgres.operations import CreateExtension, TrigramExtension
from django.db import migrations, models

DIMS = int(settings.EMBEDDING_DIMS)


def _mem0_table(name: str) -> list[migrations.RunSQL]:
    return [
        migrations.RunSQL(
            f'CREATE TABLE IF NOT EXISTS "{name}" (id uuid PRIMARY KEY, vector vector({DIMS}), payload jsonb)',
            f'DROP TABLE IF EXISTS "{name}"',
        ),
        migrations.RunSQL(
            f'CREATE INDEX IF NOT EXISTS "{name}_hnsw_idx" ON "{name}" USING hnsw (vector vector_cosine_ops)',
            f'DROP INDEX IF EXISTS "{name}_hnsw_idx"',
        ),
        migrations.RunSQL(
            f'CREATE INDEX IF NOT EXISTS "{name}_text_lemmatized_idx" ON "{name}" '
            f"USING gin (to_tsvector('simple', payload->>'text_lemmatized'))",
            f'DROP INDEX IF EXISTS "{name}_text_lemmatized_idx"',
        ),
        migrations.RunSQL(
            f'CREATE INDEX IF NOT EXISTS "{name}_user_id_idx" ON "{name}" ((payload->>\'user_id\'))',
            f'DROP INDEX IF EXISTS "{name}_user_id_idx"',
        ),
    ]


class Migration(migrations.Migration):
    initial = True
    dependencies: list[tuple[str, str]] = []

    operations = [
        CreateExtension("vector"),
        TrigramExtension(),
        *_mem0_table("poco_memories"),
        *_mem0_table("poco_memories_entities"),
        migrations.RunSQL(
            "CREATE INDEX IF NOT EXISTS poco_memories_data_trgm_idx ON poco_memories "
            "USING gin ((payload->>'data') gin_trgm_ops)",
            "DROP INDEX IF EXISTS poco_memories_data_trgm_idx",
        ),
        migrations.RunSQL(
            "CREATE INDEX IF NOT EXISTS poco_memories_created_idx ON poco_memories "
            "((payload->>'user_id'), (payload->>'created_at') DESC)",
            "DROP INDEX IF EXISTS poco_memories_created_idx",
        ),
        migrations.RunSQL(
            "CREATE INDEX IF NOT EXISTS poco_memories_entities_links_idx ON poco_memories_entities "
            "USING gin ((payload->'linked_memory_ids'))",
            "DROP INDEX IF EXISTS poco_memories_entities_links_idx",
        ),
        migrations.CreateModel(
            name="MemoryRow",
            fields=[
                ("id", models.UUIDField(primary_key=True, serialize=False)),
                ("vector", pgvector.django.VectorField()),
                ("payload", models.JSONField(default=dict)),
            ],
            options={
                "db_table": "poco_memories",
                "managed": False,
                "verbose_name": "记忆",
                "verbose_name_plural": "记忆",
            },
        ),
        migrations.CreateModel(
            name="EntityRow",
            fields=[
                ("id", models.UUIDField(primary_key=True, serialize=False)),
                ("vector", pgvector.django.VectorField()),
                ("payload", models.JSONField(default=dict)),
            ],
            options={
                "db_table": "poco_memories_entities",
                "managed": False,
                "verbose_name": "实体",
                "verbose_name_plural": "实体",
            },
        ),
        migrations.CreateModel(
            name="AuditEvent",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("memory_id", models.UUIDField(db_index=True)),
                ("tenant_id", models.CharField(max_length=64)),
                ("user_id", models.CharField(max_length=64)),
                (
                    "event",
                    models.CharField(
                        choices=[
                            ("ADD", "新增"),
                            ("UPDATE", "更新"),
                            ("DELETE", "删除"),
                            ("NOOP", "无变化"),
                        ],
                        max_length=8,
                    ),
                ),
                (
                    "actor_kind",
                    models.CharField(
                        choices=[
                            ("agent", "agent"),
                            ("user", "user"),
                            ("staff", "staff"),
                            ("system", "system"),
                        ],
                        max_length=16,
                    ),
                ),
                ("actor_id", models.CharField(blank=True, default="", max_length=128)),
                ("source", models.CharField(blank=True, default="", max_length=16)),
                ("run_id", models.CharField(blank=True, default="", max_length=128)),
                ("old_text", models.TextField(blank=True, default="")),
                ("new_text", models.TextField(blank=True, default="")),
                ("status", models.CharField(blank=True, default="", max_length=32)),
                (
                    "created_at",
                    models.DateTimeField(db_index=True, default=django.utils.timezone.now),
                ),
            ],
            options={
                "ordering": ["-created_at", "-id"],
                "verbose_name": "变更记录",
                "verbose_name_plural": "变更记录",
                "indexes": [
                    models.Index(
                        fields=["tenant_id", "user_id", "created_at"], name="audit_scope_time"
                    )
                ],
            },
        ),
        migrations.CreateModel(
            name="MemorySettings",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("tenant_id", models.CharField(max_length=64)),
                ("user_id", models.CharField(max_length=64)),
                ("memory_save_enabled", models.BooleanField(default=True)),
                ("memory_reference_enabled", models.BooleanField(default=True)),
                ("updated_at", models.DateTimeField(auto_now=True)),
            ],
            options={
                "verbose_name": "记忆设置",
                "verbose_name_plural": "记忆设置",
                "constraints": [
                    models.UniqueConstraint(
                        fields=("tenant_id", "user_id"), name="settings_one_per_scope"
                    )
                ],
            },
        ),
    ]
