"""Operator tooling inside the one door to Mem0: the SDK internals check for
``memory_preflight``, payload patches for ``migrate_memory_payload``, the entity rebuild, and
the shadow-column re-embedding for ``memory_reembed``.

Everything here touches Mem0's tables or internals, so it lives in ``memories.engine``; the
rest of the project calls these functions and sees only our values.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from psycopg import sql

from memories.engine.adapter import Mem0Adapter, NoSessionStore
from memories.engine.base import backend

# Every Mem0 internal the adapter relies on, with the parameters it passes.
ENTITY_HELPERS = {
    "_link_entities_for_memory": ["memory_id", "text", "filters"],
    "_remove_memory_from_entity_store": ["memory_id", "filters"],
    "_upsert_entity": ["entity_text", "entity_type", "memory_id", "filters"],
}
SHADOW_COLUMN = "vector_next"


@dataclass(frozen=True)
class Check:
    """One finding of an operator check (``memories.ops.preflight``)."""

    name: str
    ok: bool
    detail: str = ""


def run_check(name: str, probe: Callable[[], str]) -> Check:
    """``probe`` returns what it found or raises what is wrong."""
    try:
        return Check(name, True, probe())
    except Exception as exc:  # noqa: BLE001 - a failing probe is the finding, not a crash
        return Check(name, False, f"{type(exc).__name__}: {exc}")


def check_internals(engine: Mem0Adapter) -> list[Check]:
    """Probe every SDK internal the adapter touches; each failure names what changed."""
    memory = engine._memory

    def version() -> str:
        from importlib.metadata import version as dist_version

        found = dist_version("mem0ai")
        if found != "2.2.1":
            raise RuntimeError(f"mem0ai {found}; the adapter was verified against 2.2.1")
        return found

    def helpers() -> str:
        for name, params in ENTITY_HELPERS.items():
            method = getattr(memory, name, None)
            if method is None:
                raise RuntimeError(f"Memory.{name} is gone")
            found = list(inspect.signature(method).parameters)
            if found != params:
                raise RuntimeError(f"Memory.{name}{tuple(found)} changed, expected {params}")
        return ", ".join(ENTITY_HELPERS)

    def session_store() -> str:
        # Mem0's history/messages store must be ours, which keeps nothing on any node.
        if not isinstance(memory.db, NoSessionStore):
            raise RuntimeError(f"Memory.db is {type(memory.db).__name__}, not NoSessionStore")
        return "NoSessionStore (no history or message context kept)"

    def nlp_routing() -> str:
        from mem0.memory import main as mem0_main
        from mem0.utils import spacy_models

        from memories.language import nlp

        routed = (
            mem0_main.lemmatize_for_bm25 is nlp.lemmatize_for_bm25
            and mem0_main.extract_entities is nlp.extract_entities
            and mem0_main.extract_entities_batch is nlp.extract_entities_batch
        )
        if not routed:
            raise RuntimeError("mem0.memory.main NLP entry points are not ours")
        if spacy_models._nlp_full is None or spacy_models._ensure_model_available() is not None:
            raise RuntimeError("spaCy model not preloaded, or a download could be attempted")
        return "lemmatize_for_bm25, extract_entities(_batch), spaCy preloaded"

    def stores() -> str:
        if memory._entity_store is None:
            raise RuntimeError("the entity store was never touched")
        for store in (memory.vector_store, memory.entity_store):
            store.connection_pool.timeout  # noqa: B018 - the attribute must exist
            with store._get_cursor() as cur:
                cur.execute("SELECT 1")
        return f"{memory.collection_name}, {engine.entity_collection}"

    return [
        run_check("mem0 version", version),
        run_check("mem0 entity helpers", helpers),
        run_check("mem0 session store", session_store),
        run_check("mem0 NLP routing", nlp_routing),
        run_check("mem0 vector/entity stores", stores),
    ]


def embedding_width(engine: Mem0Adapter) -> int:
    """How many numbers the configured embedder answers with (one real embedding)."""
    return len(engine.embed_query("偏好 preference"))


# --- payload migration -----------------------------------------------------------------------
def merge_payload(engine: Mem0Adapter, *, memory_id: str, fields: dict[str, Any]) -> None:
    """Add ``fields`` to one memory's payload in place: same id, same vector."""
    from psycopg.types.json import Jsonb

    table = sql.Identifier(engine._memory.collection_name)
    with backend("payload update"), engine._memory.vector_store._get_cursor(commit=True) as cur:
        cur.execute(
            sql.SQL("UPDATE {} SET payload = payload || %s WHERE id = %s").format(table),
            (Jsonb(fields), memory_id),
        )


def remove_payload_fields(engine: Mem0Adapter, *, memory_id: str, fields: Sequence[str]) -> None:
    """Drop ``fields`` from one memory's payload in place, as an older version wrote it (the
    upgrade gate's old-data check)."""
    table = sql.Identifier(engine._memory.collection_name)
    with backend("payload update"), engine._memory.vector_store._get_cursor(commit=True) as cur:
        cur.execute(
            sql.SQL("UPDATE {} SET payload = payload - %s::text[] WHERE id = %s").format(table),
            (list(fields), memory_id),
        )


def backup_entities(engine: Mem0Adapter, *, suffix: str) -> str:
    """Copy the entity table to ``<table>_backup_<suffix>`` and return that name."""
    source = engine.entity_collection
    backup = f"{source}_backup_{suffix}"
    with backend("entity backup"), engine._memory.entity_store._get_cursor(commit=True) as cur:
        cur.execute(
            sql.SQL("CREATE TABLE {} AS TABLE {}").format(
                sql.Identifier(backup), sql.Identifier(source)
            )
        )
    return backup


def clear_entities(engine: Mem0Adapter) -> None:
    table = sql.Identifier(engine.entity_collection)
    with backend("entity reset"), engine._memory.entity_store._get_cursor(commit=True) as cur:
        cur.execute(sql.SQL("DELETE FROM {}").format(table))


def link_entities(engine: Mem0Adapter, *, memory_id: str, text: str, scope_key: str) -> None:
    with backend("entity link"):
        engine._memory._link_entities_for_memory(memory_id, text, {"user_id": scope_key})


# --- re-embedding beside the old vectors -----------------------------------------------------
def build_embedder(*, model: str, dims: int, base_url: str, api_key: str) -> Any:
    """An embedder for ``memory_reembed``: the bundled one, or an OpenAI-compatible endpoint."""
    from memories.engine import bootstrap

    bootstrap.prepare()
    if not base_url:
        from memories.engine.embedder import LocalSentenceEmbedder

        return LocalSentenceEmbedder()
    from mem0.configs.embeddings.base import BaseEmbedderConfig
    from mem0.embeddings.openai import OpenAIEmbedding

    return OpenAIEmbedding(
        BaseEmbedderConfig(
            model=model,
            embedding_dims=dims,
            openai_base_url=base_url,
            api_key=api_key or "not-needed",
        )
    )


def _tables(engine: Mem0Adapter) -> list[str]:
    return [engine._memory.collection_name, engine.entity_collection]


def vector_width(engine: Mem0Adapter, *, table: str, column: str = "vector") -> int | None:
    """The declared width of ``table.column`` (``vector(N)``), None without the column."""
    with backend("schema read"), engine._memory.vector_store._get_cursor() as cur:
        cur.execute(
            "SELECT format_type(atttypid, atttypmod) FROM pg_attribute "
            "WHERE attrelid = to_regclass(%s) AND attname = %s AND NOT attisdropped",
            (table, column),
        )
        row = cur.fetchone()
    if row is None:
        return None
    text = str(row[0])
    return int(text[text.index("(") + 1 : -1]) if "(" in text else None


INVALIDATE = "poco_reembed_invalidate"


def shadow_prepare(engine: Mem0Adapter, *, dims: int) -> None:
    """Add the shadow column to both tables, and a trigger that forgets a row's shadow vector
    whenever its live vector changes (an update re-embeds the text: the shadow is stale). A
    shadow column of another width belongs to an abandoned run towards another target and is
    dropped first."""
    with backend("shadow column"), engine._memory.vector_store._get_cursor(commit=True) as cur:
        cur.execute(
            sql.SQL(
                "CREATE OR REPLACE FUNCTION {}() RETURNS trigger LANGUAGE plpgsql AS "
                "$$ BEGIN NEW.{} := NULL; RETURN NEW; END $$"
            ).format(sql.Identifier(INVALIDATE), sql.Identifier(SHADOW_COLUMN))
        )
        for table in _tables(engine):
            width = vector_width(engine, table=table, column=SHADOW_COLUMN)
            if width is not None and width != dims:
                _drop_shadow(cur, table)
            cur.execute(
                sql.SQL("ALTER TABLE {} ADD COLUMN IF NOT EXISTS {} vector({})").format(
                    sql.Identifier(table), sql.Identifier(SHADOW_COLUMN), sql.Literal(dims)
                )
            )
            # Inline, like the column it replaces (migration 0005): the swap keeps these values.
            cur.execute(
                sql.SQL("ALTER TABLE {} ALTER COLUMN {} SET STORAGE MAIN").format(
                    sql.Identifier(table), sql.Identifier(SHADOW_COLUMN)
                )
            )
            _drop_invalidate_trigger(cur, table)
            cur.execute(
                sql.SQL(
                    "CREATE TRIGGER {} BEFORE UPDATE OF vector ON {} FOR EACH ROW "
                    "WHEN (NEW.vector IS DISTINCT FROM OLD.vector) EXECUTE FUNCTION {}()"
                ).format(
                    sql.Identifier(INVALIDATE), sql.Identifier(table), sql.Identifier(INVALIDATE)
                )
            )


def _drop_invalidate_trigger(cur: Any, table: str) -> None:
    """Stop forgetting the table's shadow vectors when its live ones change."""
    cur.execute(
        sql.SQL("DROP TRIGGER IF EXISTS {} ON {}").format(
            sql.Identifier(INVALIDATE), sql.Identifier(table)
        )
    )


def _drop_invalidate_function(cur: Any) -> None:
    """Drop the trigger function (once no table's trigger uses it)."""
    cur.execute(sql.SQL("DROP FUNCTION IF EXISTS {}()").format(sql.Identifier(INVALIDATE)))


def _drop_shadow(cur: Any, table: str) -> None:
    _drop_invalidate_trigger(cur, table)
    cur.execute(
        sql.SQL("ALTER TABLE {} DROP COLUMN IF EXISTS {}").format(
            sql.Identifier(table), sql.Identifier(SHADOW_COLUMN)
        )
    )


def shadow_abort(engine: Mem0Adapter) -> None:
    """Forget a re-embedding that will not be swapped in: the live vectors never changed."""
    with backend("shadow abort"), engine._memory.vector_store._get_cursor(commit=True) as cur:
        for table in _tables(engine):
            _drop_shadow(cur, table)
        _drop_invalidate_function(cur)


def shadow_exists(engine: Mem0Adapter) -> bool:
    return all(
        vector_width(engine, table=table, column=SHADOW_COLUMN) is not None
        for table in _tables(engine)
    )


def shadow_counts(engine: Mem0Adapter) -> tuple[int, int]:
    """(rows still without a shadow vector, all rows) over both tables."""
    todo = total = 0
    with backend("shadow count"), engine._memory.vector_store._get_cursor() as cur:
        for table in _tables(engine):
            cur.execute(
                sql.SQL("SELECT count(*) FILTER (WHERE {} IS NULL), count(*) FROM {}").format(
                    sql.Identifier(SHADOW_COLUMN), sql.Identifier(table)
                )
            )
            row = cur.fetchone()
            todo, total = todo + int(row[0]), total + int(row[1])
    return todo, total


def shadow_fill_batch(engine: Mem0Adapter, *, embedder: Any, batch: int) -> int:
    """Embed the next ``batch`` rows (by id) that have no shadow vector yet; returns how many.
    Rows done are never redone, so an interrupted run resumes where it stopped."""
    done = 0
    store = engine._memory.vector_store
    for table in _tables(engine):
        with backend("shadow read"), store._get_cursor() as cur:
            cur.execute(
                sql.SQL(
                    "SELECT id, payload->>'data' FROM {} WHERE {} IS NULL ORDER BY id LIMIT %s"
                ).format(sql.Identifier(table), sql.Identifier(SHADOW_COLUMN)),
                (batch - done,),
            )
            rows = cur.fetchall()
        if not rows:
            continue
        vectors = _embed_all(embedder, [str(text or "") for _, text in rows])
        with backend("shadow write"), store._get_cursor(commit=True) as cur:
            cur.executemany(
                sql.SQL("UPDATE {} SET {} = %s::vector WHERE id = %s").format(
                    sql.Identifier(table), sql.Identifier(SHADOW_COLUMN)
                ),
                [
                    (str(list(vector)), row_id)
                    for vector, (row_id, _) in zip(vectors, rows, strict=True)
                ],
            )
        done += len(rows)
        if done >= batch:
            break
    return done


def _embed_all(embedder: Any, texts: Sequence[str]) -> list[list[float]]:
    with backend("embed"):
        return [[float(x) for x in v] for v in embedder.embed_batch(list(texts), "add")]


def _next_index(table: str) -> str:
    return f"{table}_hnsw_next"


def shadow_index(engine: Mem0Adapter) -> None:
    """Build the HNSW index of the shadow column before the swap, so the swap only renames."""
    with backend("shadow index"), engine._memory.vector_store._get_cursor(commit=True) as cur:
        for table in _tables(engine):
            cur.execute(
                sql.SQL(
                    "CREATE INDEX IF NOT EXISTS {} ON {} USING hnsw ({} vector_cosine_ops)"
                ).format(
                    sql.Identifier(_next_index(table)),
                    sql.Identifier(table),
                    sql.Identifier(SHADOW_COLUMN),
                )
            )


def shadow_swap(engine: Mem0Adapter, *, embedder: Any, model: str) -> int:
    """Make the shadow vectors the live ones, in one transaction.

    Both tables are locked against writers first; rows written or re-embedded since the fill
    (no shadow vector) are embedded inside the transaction, so none is left behind. The
    shadow index exists already, so the swap itself is drops and renames: readers wait a
    moment for the commit and see the old vectors before it, the new ones after it."""
    store = engine._memory.vector_store
    caught_up = 0
    shadow = sql.Identifier(SHADOW_COLUMN)
    with backend("swap"), store._get_cursor(commit=True) as cur:
        for table in _tables(engine):
            ident = sql.Identifier(table)
            cur.execute(sql.SQL("LOCK TABLE {} IN SHARE ROW EXCLUSIVE MODE").format(ident))
            cur.execute(
                sql.SQL("SELECT id, payload->>'data' FROM {} WHERE {} IS NULL").format(
                    ident, shadow
                )
            )
            late = cur.fetchall()
            if late:
                vectors = _embed_all(embedder, [str(text or "") for _, text in late])
                cur.executemany(
                    sql.SQL("UPDATE {} SET {} = %s::vector WHERE id = %s").format(ident, shadow),
                    [(str(v), row_id) for v, (row_id, _) in zip(vectors, late, strict=True)],
                )
                caught_up += len(late)
            live_index = sql.Identifier(f"{table}_hnsw_idx")
            next_index = sql.Identifier(_next_index(table))
            _drop_invalidate_trigger(cur, table)
            cur.execute(sql.SQL("DROP INDEX IF EXISTS {}").format(live_index))
            cur.execute(sql.SQL("ALTER TABLE {} DROP COLUMN vector").format(ident))
            cur.execute(sql.SQL("ALTER TABLE {} RENAME COLUMN {} TO vector").format(ident, shadow))
            cur.execute(
                sql.SQL(
                    "CREATE INDEX IF NOT EXISTS {} ON {} USING hnsw (vector vector_cosine_ops)"
                ).format(next_index, ident)
            )
            cur.execute(sql.SQL("ALTER INDEX {} RENAME TO {}").format(next_index, live_index))
        memories = sql.Identifier(engine._memory.collection_name)
        cur.execute(
            sql.SQL(
                "UPDATE {} SET payload = payload || jsonb_build_object('embedding_model', %s::text)"
            ).format(memories),
            (model,),
        )
        _drop_invalidate_function(cur)
    return caught_up


SECOND_INDEX = "poco_memories_second_hnsw_idx"


def second_rebuild(engine: Mem0Adapter, *, dims: int) -> None:
    """Give the second vector column another width (another second model): every second vector
    is dropped (search's meaning channel is empty until the backfill refills it) and the HNSW
    index is rebuilt for the new width. The first model's channels are untouched."""
    table = sql.Identifier(engine._memory.collection_name)
    with backend("second column"), engine._memory.vector_store._get_cursor(commit=True) as cur:
        cur.execute(sql.SQL("DROP INDEX IF EXISTS {}").format(sql.Identifier(SECOND_INDEX)))
        cur.execute(
            sql.SQL(
                "ALTER TABLE {} ALTER COLUMN second_vector TYPE vector({}) USING NULL, "
                "ALTER COLUMN second_vector SET STORAGE MAIN"
            ).format(table, sql.Literal(int(dims)))
        )
        cur.execute(sql.SQL("UPDATE {} SET second_model = NULL").format(table))
        cur.execute(
            sql.SQL("CREATE INDEX {} ON {} USING hnsw (second_vector vector_cosine_ops)").format(
                sql.Identifier(SECOND_INDEX), table
            )
        )
