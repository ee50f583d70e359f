"""Mem0Adapter: the only code that talks to Mem0.

It takes plain values (scope keys, ids, text, metadata dicts), returns our own types and raises
only ``BackendError`` / ``CleanupError``.  Every Mem0 internal it touches (entity helpers,
the methods Mem0 calls on its history/messages store, result shapes, the stores' pool) is
covered by ``tests/memories/engine/test_sdk_contract.py``.

Mem0 keeps a history of every change and each user's recent messages in a SQLite file of the
process that wrote them. With several nodes, text corrected through one node would stay in that
node's file, out of reach of a deletion through another. So Mem0 gets ``NoSessionStore``
instead: it keeps nothing. The product's history is the PostgreSQL audit trail, and every
extraction is given its messages explicitly (no implicit context carries over).
"""

from __future__ import annotations

import contextlib
import logging
import threading
from typing import Any
from urllib.parse import parse_qsl, quote, urlencode, urlsplit, urlunsplit

from memories.engine.searching import RecentQueries, Searching
from memories.engine.second_vectors import CLOSE_WAITS_FOR_SECOND
from memories.engine.writes import Writes

logger = logging.getLogger(__name__)


class NoSessionStore:
    """Mem0's history/messages store (``Memory.db``, a ``SQLiteManager``) that keeps nothing.

    ``Memory.history()`` answers ``[]`` and extraction sees no earlier messages, which is what
    our flows want anyway: ingest passes each job's messages explicitly, and one job's context
    must never feed another's (nor another node's)."""

    def add_history(self, *args: Any, **kwargs: Any) -> None:
        return None

    def batch_add_history(self, records: list[dict[str, Any]]) -> None:
        return None

    def get_history(self, memory_id: str) -> list[dict[str, Any]]:
        return []

    def save_messages(self, messages: list[dict[str, Any]], session_scope: str) -> None:
        return None

    def get_last_messages(self, session_scope: str, limit: int = 10) -> list[dict[str, Any]]:
        return []

    def reset(self) -> None:
        return None

    def close(self) -> None:
        return None


class Mem0Adapter(Writes, Searching):
    """One Mem0 ``Memory`` behind our types: writes (``memories.engine.writes``), recall
    (``searching``), second vectors (``second_vectors``) and the entity index
    (``entity_index``), on one connection pool."""

    def __init__(self, memory: Any, *, embedding_model: str, pool: Any) -> None:
        self._memory = memory
        self.embedding_model = embedding_model
        self.entity_collection = f"{memory.collection_name}_entities"
        # Second vectors that writes left to be stored once computed (store_second_vectors).
        self._storing = set()
        self._storing_lock = threading.Lock()
        # This engine's recent query vectors: a new engine (another embedder) starts empty.
        self._recent_queries = RecentQueries(size=1024)
        # Touch the lazily created entity store now: Mem0 skips entity clean-up on delete
        # while it has never been used in this process.
        _ = memory.entity_store
        for store in (memory.vector_store, memory.entity_store):
            # Mem0 gives each store a pool of its own (shrunk only every ten minutes): both
            # share ours, so the engine's connections have one bound.
            own = store.connection_pool
            store.connection_pool = pool
            own.close()
        # Mem0's entity helpers list the whole scope per entity (memories.engine.entities);
        # add, update and delete inside Mem0 call these two names, so ours replace them on
        # this instance, with Mem0's signatures and its "never break the primary write" rule.
        memory._link_entities_for_memory = self._link_entities_for_memory
        memory._remove_memory_from_entity_store = self._remove_memory_from_entity_store
        # Mem0's batch linking for infer=True adds asks for every entity of the scope by text
        # once per add; it only ever calls ``.get(name)`` on the answer.
        memory._existing_entities_by_text = self._existing_entities_by_text

    def close(self) -> None:
        """Close the engine's connections once the second vectors its writes left are stored
        (a process that writes and then closes, like `make run`'s demo memory before it serves,
        would otherwise lose them to a closed pool); after ``CLOSE_WAITS_FOR_SECOND`` seconds
        what is left is the backfill's."""
        if not self.second_vectors_stored(timeout=CLOSE_WAITS_FOR_SECOND):
            logger.warning("closing with second vectors still to store: left to the backfill")
        with contextlib.suppress(Exception):
            self._memory.vector_store.connection_pool.close()  # the entity store's too


_engine: Mem0Adapter | None = None
_engine_lock = threading.Lock()


def build_engine(*, connection_string: str) -> Mem0Adapter:
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
        # Mem0 opens its SQLite store before we can swap it: in memory, so no file is made.
        "history_db_path": ":memory:",
        "custom_instructions": EXTRACTION_RULES,
    }
    memory = Memory.from_config(config)
    memory.db.close()
    memory.db = NoSessionStore()
    return Mem0Adapter(
        memory, embedding_model=settings.EMBEDDING_MODEL, pool=engine_pool(connection_string)
    )


def engine_pool(connection_string: str) -> Any:
    """The process's one pool for Mem0's statements: bounded, and it gives idle connections
    back like Django's (settings, "Connections")."""
    from django.conf import settings
    from psycopg_pool import ConnectionPool

    from infra.db import BoundedConnection

    pool = ConnectionPool(
        conninfo=connection_string,
        connection_class=BoundedConnection,
        name="engine",
        min_size=1,
        max_size=settings.ENGINE_POOL_SIZE,
        timeout=settings.DB_POOL_TIMEOUT,
        max_idle=settings.DB_POOL_MAX_IDLE,
        # Checked before it is handed out, like Django's (settings): a restarted server
        # leaves the pool holding dead connections.
        check=ConnectionPool.check_connection,
        kwargs={} if settings.DB_PREPARED_STATEMENTS else {"prepare_threshold": None},
        open=False,
    )
    pool.open(wait=False)
    return pool


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
            from django.db import connection

            name = str(connection.settings_dict["NAME"])
            _engine = build_engine(connection_string=connection_string_for(name))
        return _engine


def reset_engine() -> None:
    """Drop the process-wide adapter (tests switch databases; workers re-fork)."""
    global _engine
    with _engine_lock:
        if _engine is not None:
            _engine.close()
        _engine = None
