"""Mem0Adapter: the only code that talks to Mem0.

It takes plain values (scope keys, ids, text, metadata dicts), returns our own types and raises
only ``BackendError`` / ``CleanupError``.  Every Mem0 internal it touches (entity helpers,
``db.connection``/``db._lock``, history/messages columns, result shapes, the pool timeout) is
covered by ``tests/memories/test_sdk_contract.py`` (seed 000 §12.1).
"""

from __future__ import annotations

import contextlib
import json
import logging
import sqlite3
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, quote, urlencode, urlsplit, urlunsplit

from memories.engine.recall import ChannelQuery, channel_hits, channel_statement
from memories.types import BackendError, Channel, ChannelHit, CleanupError

logger = logging.getLogger(__name__)

HISTORY_COLUMNS = {"id", "memory_id", "old_memory", "new_memory", "event"}
MESSAGES_COLUMNS = {"id", "session_scope", "role", "content"}
# How long a call waits for a database connection before it is an outage, not a hang.
POOL_TIMEOUT_SECONDS = 5.0


@dataclass(frozen=True)
class ExtractedFact:
    id: str
    text: str
    event: str


@dataclass(frozen=True)
class HistoryText:
    """The text a Mem0 history row keeps (``old_memory`` → ``new_memory``)."""

    row_id: str
    memory_id: str
    old_text: str
    new_text: str


@contextlib.contextmanager
def _backend(operation: str) -> Iterator[None]:
    try:
        yield
    except (BackendError, LookupError):
        raise
    except Exception as exc:  # noqa: BLE001 - every SDK/driver failure is a backend failure
        logger.warning("memory backend failed during %s: %s", operation, type(exc).__name__)
        raise BackendError(f"{operation} failed: {type(exc).__name__}") from exc


def session_scope(scope_key: str) -> str:
    """Mem0's key for a user's implicit message context (``_build_session_scope``)."""
    return f"user_id={scope_key}"


class Mem0Adapter:
    def __init__(self, memory: Any, *, embedding_model: str) -> None:
        self._memory = memory
        self.embedding_model = embedding_model
        self.entity_collection = f"{memory.collection_name}_entities"
        # Touch the lazily created entity store now: Mem0 skips entity clean-up on delete
        # while it has never been used in this process (shared/DECISIONS.md).
        _ = memory.entity_store
        for store in (memory.vector_store, memory.entity_store):
            pool = getattr(store, "connection_pool", None)
            if pool is not None:
                pool.timeout = POOL_TIMEOUT_SECONDS

    # --- writes ------------------------------------------------------------------------------
    def add_fact(self, *, scope_key: str, text: str, metadata: dict[str, Any]) -> str:
        """Store exactly one fact as given (infer=False) and link its entities."""
        with _backend("add"):
            result = self._memory.add(
                [{"role": "user", "content": text}],
                user_id=scope_key,
                metadata=metadata,
                infer=False,
            )
            rows = result.get("results", [])
            if len(rows) != 1:
                raise BackendError(f"add stored {len(rows)} rows instead of one")
            memory_id = str(rows[0]["id"])
            # infer=False links no entities; the seed wants explicit adds indexed too.
            self._memory._link_entities_for_memory(memory_id, text, {"user_id": scope_key})
            return memory_id

    def extract(
        self,
        *,
        scope_key: str,
        messages: list[dict[str, str]],
        metadata: dict[str, Any],
        instructions: str | None = None,
    ) -> list[ExtractedFact]:
        """Run Mem0's fact extraction (infer=True) and return what it added."""
        with _backend("extract"):
            result = self._memory.add(
                messages, user_id=scope_key, metadata=metadata, infer=True, prompt=instructions
            )
            return [
                ExtractedFact(id=str(r["id"]), text=str(r["memory"]), event=str(r["event"]))
                for r in result.get("results", [])
            ]

    def attribution(self, *, memory_id: str) -> str | None:
        """Who a stored fact is attributed to (``get().attributed_to``), None when unset."""
        with _backend("get"):
            got = self._memory.get(memory_id)
        if got is None:
            raise LookupError(memory_id)
        value = got.get("attributed_to")
        return str(value) if value else None

    def update_fact(self, *, memory_id: str, text: str, metadata: dict[str, Any]) -> None:
        """Keep the id, re-embed, relink entities (Mem0 does both when the text changes)."""
        with _backend("update"):
            self._memory.update(memory_id, text=text, metadata=metadata)

    def set_metadata(self, *, memory_id: str, metadata: dict[str, Any]) -> None:
        with _backend("update metadata"):
            self._memory.update(memory_id, metadata=metadata)

    def patch_payload(self, *, memory_id: str, fields: dict[str, Any]) -> None:
        """Merge governance fields (status, superseded_by, valid_until…) into one row's payload.

        Not through ``Memory.update``: that re-embeds the text and writes a history row holding
        it, for a change that touches neither the text nor the vector."""
        with _backend("update metadata"), self._memory.vector_store._get_cursor(commit=True) as cur:
            cur.execute(
                f'UPDATE "{self._memory.collection_name}" '
                "SET payload = payload || %s::jsonb WHERE id = %s",
                (json.dumps(fields, ensure_ascii=False), memory_id),
            )
            if cur.rowcount != 1:
                raise LookupError(memory_id)

    def delete_fact(self, *, memory_id: str, scope_key: str) -> None:
        """Delete a memory and everything derived from it.

        Raises ``LookupError`` when there is nothing to delete, ``BackendError`` when the main
        row could not be deleted, ``CleanupError`` when it is gone but residue remains.
        """
        with _backend("delete preflight"):
            self._check_sqlite_schema()  # an incompatible history table must stop us first
        try:
            with _backend("delete"):
                self._memory.delete(memory_id)
        except ValueError as exc:
            raise LookupError(memory_id) from exc
        except BackendError:
            # Mem0 deletes the vector before writing history: if it failed after that point,
            # the memory is gone and only the clean-up is left to do (seed 000 §12.3).
            if self._row_exists(memory_id):
                raise
        self._cleanup_after_delete(memory_id=memory_id, scope_key=scope_key)

    def _row_exists(self, memory_id: str) -> bool:
        with _backend("get"):
            return self._memory.vector_store.get(vector_id=memory_id) is not None

    def _cleanup_after_delete(self, *, memory_id: str, scope_key: str) -> None:
        try:
            self._memory._remove_memory_from_entity_store(memory_id, {"user_id": scope_key})
            self.purge_history(memory_ids=[memory_id])
            residue = self.entity_links(memory_id=memory_id)
        except Exception as exc:  # noqa: BLE001
            raise CleanupError(f"post-delete clean-up failed: {type(exc).__name__}") from exc
        if residue:
            raise CleanupError(f"{residue} entity link(s) left after delete")

    # --- Mem0's SQLite side --------------------------------------------------------------------
    @property
    def _db(self) -> Any:
        return self._memory.db

    def _columns(self, table: str) -> set[str]:
        rows = self._db.connection.execute(f"PRAGMA table_info({table})").fetchall()
        return {row[1] for row in rows}

    def _check_sqlite_schema(self) -> None:
        with self._db._lock:
            missing = (HISTORY_COLUMNS - self._columns("history")) | (
                MESSAGES_COLUMNS - self._columns("messages")
            )
        if missing:
            raise BackendError(f"Mem0 history.db is incompatible: missing {sorted(missing)}")

    def _sqlite(self, sql: str, params: tuple[Any, ...]) -> int:
        with self._db._lock:
            try:
                cursor = self._db.connection.execute(sql, params)
                self._db.connection.commit()
            except sqlite3.Error:
                self._db.connection.rollback()
                raise
            return int(cursor.rowcount)

    def purge_history(self, *, memory_ids: list[str]) -> int:
        """Physically delete Mem0's history rows (they keep old text forever)."""
        purged = 0
        for memory_id in memory_ids:
            purged += self._sqlite("DELETE FROM history WHERE memory_id = ?", (memory_id,))
        return purged

    def purge_messages(self, *, scope_key: str) -> int:
        """Forget the scope's implicit message context used by infer=True."""
        with _backend("purge messages"):
            return self._sqlite(
                "DELETE FROM messages WHERE session_scope = ?", (session_scope(scope_key),)
            )

    def history_texts(self) -> list[HistoryText]:
        """Every history row that still holds text, for re-checking it (``memory_rescan``)."""
        with _backend("read history"):
            self._check_sqlite_schema()
            with self._db._lock:
                rows = self._db.connection.execute(
                    "SELECT id, memory_id, old_memory, new_memory FROM history "
                    "WHERE coalesce(old_memory, '') != '' OR coalesce(new_memory, '') != ''"
                ).fetchall()
        return [
            HistoryText(
                row_id=str(row[0]),
                memory_id=str(row[1]),
                old_text=row[2] or "",
                new_text=row[3] or "",
            )
            for row in rows
        ]

    def scrub_history(self, *, old_text_of: list[str], new_text_of: list[str]) -> int:
        """Blank the old and/or new text of history rows, by row id; the rows stay (they say
        *that* something changed). Returns how many rows were touched."""
        touched: set[str] = set()
        with _backend("scrub history"):
            for column, row_ids in (("old_memory", old_text_of), ("new_memory", new_text_of)):
                for row_id in row_ids:
                    if self._sqlite(f"UPDATE history SET {column} = NULL WHERE id = ?", (row_id,)):
                        touched.add(row_id)
        return len(touched)

    def history_rows(self, *, memory_id: str) -> int:
        with self._db._lock:
            row = self._db.connection.execute(
                "SELECT count(*) FROM history WHERE memory_id = ?", (memory_id,)
            ).fetchone()
        return int(row[0])

    def message_rows(self, *, scope_key: str) -> int:
        with self._db._lock:
            row = self._db.connection.execute(
                "SELECT count(*) FROM messages WHERE session_scope = ?", (session_scope(scope_key),)
            ).fetchone()
        return int(row[0])

    # --- reads -------------------------------------------------------------------------------
    def entity_links(self, *, memory_id: str) -> int:
        """How many entity rows still link to ``memory_id``."""
        store = self._memory.entity_store
        with store._get_cursor() as cur:
            cur.execute(
                f'SELECT count(*) FROM "{self.entity_collection}" '
                "WHERE payload->'linked_memory_ids' ? %s",
                (memory_id,),
            )
            return int(cur.fetchone()[0])

    def embed_query(self, text: str) -> list[float]:
        """The query's vector from the configured embedder (recall's vector channel)."""
        with _backend("search"):
            return [float(x) for x in self._memory.embedding_model.embed(text, "search")]

    def recall(self, query: ChannelQuery) -> dict[Channel, list[ChannelHit]]:
        """Run every recall channel in one statement on Mem0's connection pool."""
        statement, params = channel_statement(
            query, memories=self._memory.collection_name, entities=self.entity_collection
        )
        with _backend("search"), self._memory.vector_store._get_cursor() as cur:
            cur.execute(statement, params)
            rows = cur.fetchall()
        return channel_hits(rows)

    def close(self) -> None:
        for store in (self._memory.vector_store, self._memory._entity_store):
            pool = getattr(store, "connection_pool", None)
            if pool is not None:
                with contextlib.suppress(Exception):
                    pool.close()


_engine: Mem0Adapter | None = None
_engine_lock = threading.Lock()


def build_engine(*, connection_string: str, history_db_path: str) -> Mem0Adapter:
    """One Mem0 ``Memory`` from settings (the default is fully offline)."""
    from django.conf import settings

    from memories.engine import bootstrap

    bootstrap.prepare()
    from mem0 import Memory

    if settings.EMBEDDING_BASE_URL:
        embedder: dict[str, Any] = {
            "provider": "openai",
            "config": {
                "model": settings.EMBEDDING_MODEL,
                "embedding_dims": settings.EMBEDDING_DIMS,
                "openai_base_url": settings.EMBEDDING_BASE_URL,
                "api_key": settings.EMBEDDING_API_KEY or "not-needed",
            },
        }
    else:
        embedder = {"provider": bootstrap.LOCAL_EMBEDDER_PROVIDER, "config": {}}
    if settings.LLM_BASE_URL:
        llm: dict[str, Any] = {
            "provider": "openai",
            "config": {
                "model": settings.LLM_MODEL,
                "openai_base_url": settings.LLM_BASE_URL,
                "api_key": settings.LLM_API_KEY or "not-needed",
                "temperature": 0.0,
            },
        }
    else:
        llm = {"provider": bootstrap.RULES_LLM_PROVIDER, "config": {}}
    from memories.engine.extractor import EXTRACTION_RULES

    config = {
        "vector_store": {
            "provider": "pgvector",
            "config": {
                "connection_string": connection_string,
                "collection_name": settings.MEM0_COLLECTION,
                "embedding_model_dims": settings.EMBEDDING_DIMS,
                "hnsw": True,
            },
        },
        "embedder": embedder,
        "llm": llm,
        "history_db_path": history_db_path,
        "custom_instructions": EXTRACTION_RULES,
    }
    memory = Memory.from_config(config)
    return Mem0Adapter(memory, embedding_model=settings.EMBEDDING_MODEL)


def connection_string_for(database_name: str) -> str:
    """Mem0's libpq URL: Django's server and database, iterative HNSW scans on."""
    from django.conf import settings

    parts = urlsplit(settings.DATABASE_URL)
    query = dict(parse_qsl(parts.query))
    query["options"] = settings.PG_SESSION_OPTIONS
    query.setdefault("connect_timeout", "5")
    return urlunsplit(
        (parts.scheme, parts.netloc, "/" + database_name, urlencode(query, quote_via=quote), "")
    )


def get_engine() -> Mem0Adapter:
    """The process-wide adapter, built on first use against Django's current database."""
    global _engine
    with _engine_lock:
        if _engine is None:
            from django.conf import settings
            from django.db import connection

            name = str(connection.settings_dict["NAME"])
            _engine = build_engine(
                connection_string=connection_string_for(name),
                history_db_path=str(settings.MEM0_DIR / f"history-{name}.db"),
            )
        return _engine


def reset_engine() -> None:
    """Drop the process-wide adapter (tests switch databases; workers re-fork)."""
    global _engine
    with _engine_lock:
        if _engine is not None:
            _engine.close()
        _engine = None
