"""Is this deployment fit to serve memories?

``cheap_checks`` (database, extensions, tables, vector width) run on every ``GET /ready`` and
never start Mem0. ``full_checks`` add what an upgrade must verify before it goes live: indexes,
pending migrations, the embedder's real output width, Chinese and English NLP loadable
offline, and every Mem0 internal the engine relies on (``manage.py memory_preflight``).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connection, connections

from memories.engine.internals import Check, run_check

MEMORY_TABLES = ("poco_memories", "poco_memories_entities")
# Recall's keyword counts (migration 0006), kept by triggers on poco_memories.
COUNT_TABLES = ("poco_memories_term_df", "poco_memories_scope_size")
DJANGO_TABLES = (
    "django_migrations",
    "memories_auditevent",
    "memories_memorysettings",
    "memories_deletionmark",
)
EXTENSIONS = ("vector", "pg_trgm", "btree_gin")
# The indexes recall, lists, adds and deletes rely on (memories/migrations/0001, 0003, 0006, 0008,
# 0010, 0014, 0019).
INDEXES = (
    "poco_memories_hnsw_idx",
    "poco_memories_text_lemmatized_idx",
    "poco_memories_user_id_idx",
    "poco_memories_scope_key_idx",
    "poco_memories_scope_terms_idx",
    "poco_memories_name_bigrams_idx",
    "poco_memories_data_hash_idx",
    "poco_memories_data_trgm_idx",
    "poco_memories_created_idx",
    "poco_memories_entities_hnsw_idx",
    "poco_memories_entities_user_id_idx",
    "poco_memories_entities_links_idx",
    "poco_memories_entities_key_idx",
    "poco_memories_entities_recall_name_idx",
    "poco_memories_entities_words_idx",
    "poco_memories_second_hnsw_idx",
)


def _scalar_rows(query: str, params: list[Any]) -> list[tuple[Any, ...]]:
    with connection.cursor() as cursor:
        cursor.execute(query, params)
        return list(cursor.fetchall())


def _database() -> str:
    version = _scalar_rows("SHOW server_version", [])[0][0]
    return f"PostgreSQL {version}"


def _extensions() -> str:
    found = dict(
        _scalar_rows(
            "SELECT extname, extversion FROM pg_extension WHERE extname = ANY(%s)",
            [list(EXTENSIONS)],
        )
    )
    missing = [name for name in EXTENSIONS if name not in found]
    if missing:
        raise RuntimeError(f"missing extension(s): {', '.join(missing)}")
    return ", ".join(f"{name} {found[name]}" for name in EXTENSIONS)


def _tables() -> str:
    names = [*MEMORY_TABLES, *COUNT_TABLES, *DJANGO_TABLES]
    rows = _scalar_rows(
        "SELECT name FROM unnest(%s::text[]) AS name WHERE to_regclass(name) IS NULL", [names]
    )
    if rows:
        raise RuntimeError("missing table(s): " + ", ".join(str(r[0]) for r in rows))
    return ", ".join(names)


def vector_widths() -> dict[str, int | None]:
    """The declared ``vector(N)`` width of each memory table (None when undeclared)."""
    widths: dict[str, int | None] = {}
    for table in MEMORY_TABLES:
        rows = _scalar_rows(
            "SELECT atttypmod FROM pg_attribute WHERE attrelid = to_regclass(%s) "
            "AND attname = 'vector' AND NOT attisdropped",
            [table],
        )
        widths[table] = int(str(rows[0][0])) if rows and int(str(rows[0][0])) > 0 else None
    return widths


def _dimension() -> str:
    configured = int(settings.EMBEDDING_DIMS)
    widths = vector_widths()
    wrong = {table: width for table, width in widths.items() if width != configured}
    if wrong:
        found = ", ".join(f"{t} vector({w})" for t, w in wrong.items())
        raise RuntimeError(
            f"{found} but the configured embedder {settings.EMBEDDING_MODEL} gives "
            f"{configured}: finish or revert memory_reembed, or fix POCO_EMBEDDING_*"
        )
    return f"vector({configured}) = {settings.EMBEDDING_MODEL}"


def second_vector_width() -> int | None:
    """The declared width of the memories' second vector (None when undeclared)."""
    rows = _scalar_rows(
        "SELECT atttypmod FROM pg_attribute WHERE attrelid = to_regclass('poco_memories') "
        "AND attname = 'second_vector' AND NOT attisdropped",
        [],
    )
    return int(str(rows[0][0])) if rows and int(str(rows[0][0])) > 0 else None


def second_coverage() -> tuple[int, int]:
    """(memories with a second vector of the configured model, all memories)."""
    rows = _scalar_rows(
        "SELECT count(*) FILTER (WHERE second_vector IS NOT NULL AND second_model = %s), "
        "count(*) FROM poco_memories",
        [settings.SECOND_MODEL],
    )
    return int(rows[0][0]), int(rows[0][1])


def _second_model() -> str:
    """The second model's column fits it, and how many memories it has embedded (recall uses
    whatever is filled; ``manage.py memory_second_vectors`` or the queue fill the rest)."""
    if settings.SECOND_MODEL == "off":
        return "off"
    configured = int(settings.SECOND_MODEL_DIMS)
    width = second_vector_width()
    if width != configured:
        raise RuntimeError(
            f"poco_memories second_vector({width}) but the second model "
            f"{settings.SECOND_MODEL} gives {configured}: run memory_second_vectors --rebuild, "
            "or fix POCO_SECOND_MODEL_*"
        )
    filled, total = second_coverage()
    share = f"{filled / total:.0%}" if total else "100%"
    return f"{settings.SECOND_MODEL} vector({configured}): {filled}/{total} memories ({share})"


def cheap_checks() -> list[Check]:
    """What ``/ready`` runs: no Mem0, no model, a few catalogue queries."""
    database = run_check("database", _database)
    if not database.ok:
        return [database]
    return [
        database,
        run_check("extensions", _extensions),
        run_check("tables", _tables),
        run_check("vector dimension", _dimension),
        run_check("second model", _second_model),
    ]


# --- the full preflight ----------------------------------------------------------------------
def _indexes() -> str:
    rows = _scalar_rows(
        "SELECT name FROM unnest(%s::text[]) AS name WHERE to_regclass(name) IS NULL",
        [list(INDEXES)],
    )
    if rows:
        raise RuntimeError("missing index(es): " + ", ".join(str(r[0]) for r in rows))
    return f"{len(INDEXES)} indexes"


def _migrations() -> str:
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connections[DEFAULT_DB_ALIAS])
    plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
    if plan:
        names = ", ".join(f"{m.app_label}.{m.name}" for m, _ in plan)
        raise RuntimeError(f"unapplied migration(s): {names}")
    return "all applied"


def _chinese_nlp() -> str:
    from memories.engine import bootstrap
    from memories.language import nlp

    bootstrap.prepare()
    lemmas = nlp.lemmatize_for_bm25("用户偏好在飞书里收周报")
    entities = nlp.extract_entities("用户在“飞书”里写周报")
    if "飞书" not in lemmas or not entities:
        raise RuntimeError(f"jieba gave {lemmas!r} and entities {entities!r}")
    return "jieba: tokens and quoted entities"


def _english_nlp() -> str:
    from memories.engine import bootstrap
    from memories.language import nlp

    bootstrap.prepare()
    lemmas = nlp.lemmatize_for_bm25("The user prefers running services")
    if "prefer" not in lemmas.split():
        raise RuntimeError(f"spaCy lemmas {lemmas!r}")
    return f"spaCy {nlp.ENGLISH_MODEL} (bundled wheel, no download)"


def _embedder() -> str:
    from memories.engine import get_engine
    from memories.engine.internals import embedding_width

    width = embedding_width(get_engine())
    if width != int(settings.EMBEDDING_DIMS):
        raise RuntimeError(
            f"{settings.EMBEDDING_MODEL} answered {width} numbers, configured "
            f"POCO_EMBEDDING_DIMS={settings.EMBEDDING_DIMS}"
        )
    return f"{settings.EMBEDDING_MODEL} answers {width} numbers"


def _second_embedder() -> str:
    from memories.engine import second

    model = second.configured()
    if model is None:
        return "off"
    width = len(model.queries(["偏好 preference"])[0])
    if width != int(settings.SECOND_MODEL_DIMS):
        raise RuntimeError(
            f"{model.name} answered {width} numbers, configured "
            f"POCO_SECOND_MODEL_DIMS={settings.SECOND_MODEL_DIMS}"
        )
    return f"{model.name} answers {width} numbers"


def _engine_checks() -> list[Check]:
    try:
        from memories.engine import get_engine
        from memories.engine.internals import check_internals

        engine = get_engine()
    except Exception as exc:  # noqa: BLE001
        return [Check("mem0 start", False, f"{type(exc).__name__}: {exc}")]
    return [Check("mem0 start", True, "Memory.from_config"), *check_internals(engine)]


def sdk_checks() -> list[Check]:
    """Mem0 starts and every SDK internal the engine relies on is still there (the part of the
    full preflight ``memory_gate verify`` repeats)."""
    return _engine_checks()


def full_checks() -> list[Check]:
    checks = cheap_checks()
    if not checks[0].ok:
        return checks
    checks += [
        run_check("indexes", _indexes),
        run_check("migrations", _migrations),
        run_check("NLP Chinese", _chinese_nlp),
        run_check("NLP English", _english_nlp),
    ]
    engine = _engine_checks()
    checks += engine
    if engine[0].ok:
        checks.append(run_check("embedder width", _embedder))
        checks.append(run_check("second model width", _second_embedder))
    return checks
