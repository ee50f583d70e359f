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
import hashlib
import json
import logging
import os
import threading
import uuid
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from urllib.parse import parse_qsl, quote, urlencode, urlsplit, urlunsplit

import psycopg
from psycopg import sql

from memories.engine import entities, second
from memories.language import nlp
from memories.recall.channels import (
    ChannelQuery,
    MeaningQuery,
    channel_hits,
    channel_statement,
    folded_hits,
    meaning_hits,
    meaning_statement,
)
from memories.recall.languages import Written
from memories.types import BackendError, Channel, ChannelHit, CleanupError

logger = logging.getLogger(__name__)

# Keys Mem0 never takes from caller metadata (``_strip_identity_keys``): the scope is ours.
IDENTITY_KEYS = {"user_id", "agent_id", "run_id", "actor_id"}


@dataclass(frozen=True)
class ExtractedFact:
    id: str
    text: str
    event: str


@dataclass(frozen=True)
class NewFact:
    """One fact for ``Mem0Adapter.add_many``: the admitted text and our metadata."""

    text: str
    metadata: dict[str, Any]


@dataclass(frozen=True)
class PreparedText:
    """What storing a text computes from the text alone (``Mem0Adapter.prepare``): the stored
    vector, the entities it links and Mem0's keyword lemmas. A writer computes it before it
    takes the scope's write lock, so concurrent adds of one scope embed and analyse in
    parallel and hold the lock only for the statements."""

    vector: list[float]
    entities: list[entities.Entity]
    lemmatized: str
    # The batch's second vectors, still being computed (None: the model is off, or an import
    # leaves them to the backfill).
    second: PendingSecond | None = None


class PendingSecond:
    """The second model's vectors of a batch of texts, computed on a thread of its own while
    the caller does the rest of the write (``Mem0Adapter.second_passages``)."""

    def __init__(self, model: str, texts: Sequence[str], future: Future[list[list[float]]]):
        self.model = model
        self._texts = list(texts)
        self._future = future
        self._vectors: dict[str, list[float]] | None = None

    def ready(self) -> bool:
        """Whether the vectors are computed (or the model failed): ``vector`` would not wait."""
        return self._future.done()

    def when_ready(self, then: Callable[[], None]) -> None:
        """Call ``then`` once the vectors are computed: at once, on this thread, when they
        already are, otherwise on the second model's thread as soon as they are."""
        self._future.add_done_callback(lambda _: then())

    def vector(self, text: str) -> list[float] | None:
        """The vector of ``text`` (waiting for it), or None when the model failed: the write
        goes on without it and the backfill fills it in later."""
        if self._vectors is None:
            try:
                vectors = self._future.result()
                if len(vectors) != len(self._texts):
                    raise BackendError(f"{len(vectors)} vectors for {len(self._texts)} texts")
                self._vectors = dict(zip(self._texts, vectors, strict=True))
            except Exception as exc:  # noqa: BLE001 - never worth a failed write
                logger.warning("second model failed, left to the backfill: %s", exc)
                self._vectors = {}
        return self._vectors.get(text)


# How many writes of a process may have answered before their second vectors are stored.
SECOND_VECTORS_BEHIND = 8
# How long closing the engine waits for them: past a remote model's two tries of 10 s.
CLOSE_WAITS_FOR_SECOND = 25.0


@dataclass(frozen=True)
class ScopeDeletion:
    """What ``Mem0Adapter.delete_scope`` removed, and what it could not prove gone."""

    memory_ids: list[str]
    residue: int


@contextlib.contextmanager
def _backend(operation: str) -> Iterator[None]:
    try:
        yield
    except (BackendError, LookupError):
        raise
    except Exception as exc:  # noqa: BLE001 - every SDK/driver failure is a backend failure
        logger.warning("memory backend failed during %s: %s", operation, type(exc).__name__)
        raise BackendError(f"{operation} failed: {type(exc).__name__}") from exc


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


class Mem0Adapter:
    def __init__(self, memory: Any, *, embedding_model: str, pool: Any) -> None:
        self._memory = memory
        self.embedding_model = embedding_model
        self.entity_collection = f"{memory.collection_name}_entities"
        # Second vectors that writes left to be stored once computed (store_second_vectors).
        self._storing: set[Future[int]] = set()
        self._storing_lock = threading.Lock()
        # This engine's recent query vectors: a new engine (another embedder) starts empty.
        self._recent_queries = _RecentQueries(size=1024)
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

    # --- the entity index (replacing Mem0's per-entity helpers) --------------------------------
    def _link_entities_for_memory(self, memory_id: str, text: str, filters: dict[str, Any]) -> None:
        try:
            self._link(filters.get("user_id") or "", [(memory_id, nlp.extract_entities(text))])
        except Exception as exc:  # noqa: BLE001 - Mem0's contract: linking never fails a write
            logger.warning("entity linking failed: %s", type(exc).__name__)

    def _link(self, scope_key: str, links: list[tuple[str, list[entities.Entity]]]) -> None:
        with self._memory.entity_store._get_cursor(commit=True) as cur:
            self._link_with(cur, scope_key, links)

    def _link_with(
        self,
        cur: Any,
        scope_key: str,
        links: list[tuple[str, list[entities.Entity]]],
        *,
        new_memories: bool = False,
    ) -> None:
        embedder = self._memory.embedding_model
        entities.link(
            cur,
            table=self.entity_collection,
            scope_key=scope_key,
            links=links,
            embed_batch=lambda texts: embedder.embed_batch(texts, "add"),
            new_memories=new_memories,
        )

    def _existing_entities_by_text(self, filters: dict[str, Any]) -> entities.IndexedEntities:
        return entities.IndexedEntities(
            self._memory.entity_store, table=self.entity_collection, filters=filters
        )

    def _remove_memory_from_entity_store(self, memory_id: str, filters: dict[str, Any]) -> None:
        try:
            with self._memory.entity_store._get_cursor(commit=True) as cur:
                entities.unlink(
                    cur,
                    table=self.entity_collection,
                    memory_ids=[memory_id],
                    scope_key=filters.get("user_id") or None,
                )
        except Exception as exc:  # noqa: BLE001 - Mem0's contract; delete_fact checks residue
            logger.warning("entity clean-up failed: %s", type(exc).__name__)

    # --- the second model (memories.engine.second) ---------------------------------------------
    @staticmethod
    def second_model() -> second.SecondModel | None:
        return second.configured()

    def second_passages(self, texts: Sequence[str]) -> PendingSecond | None:
        """Start embedding ``texts`` with the second model on a thread of its own (the C engine
        releases the GIL: it runs beside the first embedder, the analysis, the lock and the
        statements); None when it is off."""
        model = self.second_model()
        if model is None or not texts:
            return None
        pool = _second_threads("passage")
        return PendingSecond(model.name, texts, pool.submit(model.passages, texts))

    def store_second_vectors(
        self, pending: PendingSecond | None, *, written: Sequence[tuple[str, str]]
    ) -> Future[int]:
        """Store what ``pending`` computes for the memories ``written`` (id, text), which are
        committed already, as soon as it is computed: the write that started it answers without
        waiting for the second model (its first model and keyword terms are searchable at once;
        the meaning channel finds it a few tens of milliseconds later). The answer is how many
        were stored: none when the model is off or failed, or the store is down (the backfill
        fills them in), or a memory's text changed or it was deleted meanwhile. With more than
        ``SECOND_VECTORS_BEHIND`` writes' vectors still to store in this process, it waits for
        its own: the backlog never grows without bound."""
        stored: Future[int] = Future()
        if pending is None or not written:
            stored.set_result(0)
            return stored
        behind = self._storing_behind()
        with self._storing_lock:
            self._storing.add(stored)

        def store() -> None:
            count = 0
            try:
                rows = [(i, t, v) for i, t in written if (v := pending.vector(t)) is not None]
                count = self.write_second_vectors(rows, model=pending.model)
            except Exception as exc:  # noqa: BLE001 - the memory is stored; the backfill follows
                logger.warning("second vectors not stored, left to the backfill: %s", exc)
            finally:
                with self._storing_lock:
                    self._storing.discard(stored)
                stored.set_result(count)

        pending.when_ready(store)
        if behind:  # a writer faster than the second model keeps its pace
            stored.result()
        return stored

    def _storing_behind(self) -> bool:
        """Whether ``SECOND_VECTORS_BEHIND`` writes already wait for their vectors: the next
        write waits for its own (an add's INSERT then takes it; a correction stores it before
        it answers)."""
        with self._storing_lock:
            return len(self._storing) >= SECOND_VECTORS_BEHIND

    def second_vectors_stored(self, timeout: float | None = None) -> bool:
        """Wait until every second vector this process is still storing is stored (or given
        up); False when ``timeout`` seconds pass first. For ``close``, and for the tests and
        the evaluation, which ask once what they stored is searchable by meaning."""
        with self._storing_lock:
            storing = list(self._storing)
        _, late = wait(storing, timeout=timeout)
        return not late

    def write_second_vectors(
        self, rows: Sequence[tuple[str, str, list[float]]], *, model: str
    ) -> int:
        """Store second vectors by memory id, each only while the memory still holds the text
        it was embedded from (a correction meanwhile has its own; a deleted row is skipped)."""
        if not rows:
            return 0
        with _backend("second vectors"), self._memory.vector_store._get_cursor(commit=True) as cur:
            cur.execute(
                sql.SQL(
                    "UPDATE {t} m SET second_vector = r.v::vector, second_model = %s "
                    "FROM unnest(%s::uuid[], %s::text[], %s::text[]) AS r(i, d, v) "
                    "WHERE m.id = r.i AND m.payload->>'data' = r.d"
                ).format(t=sql.Identifier(self._memory.collection_name)),
                (
                    model,
                    [i for i, _, _ in rows],
                    [d for _, d, _ in rows],
                    [str(v) for *_, v in rows],
                ),
            )
            return int(cur.rowcount)

    def fill_second_vectors(self, memory_ids: Sequence[str]) -> int:
        """Embed these memories' current text with the second model and store it; 0 when it is
        off or failed (the backfill catches up)."""
        model = self.second_model()
        if model is None or not memory_ids:
            return 0
        with _backend("second vectors"), self._memory.vector_store._get_cursor() as cur:
            cur.execute(
                sql.SQL(
                    "SELECT id::text, payload->>'data' FROM {t} WHERE id = ANY(%s::uuid[])"
                ).format(t=sql.Identifier(self._memory.collection_name)),
                (list(memory_ids),),
            )
            found = [(str(i), str(text or "")) for i, text in cur.fetchall()]
        return self.store_second_vectors(
            self.second_passages([t for _, t in found]), written=found
        ).result()

    def second_backfill_batch(self, *, batch: int) -> int:
        """Embed up to ``batch`` memories that have no second vector of the configured model
        (oldest ids first; resumable by construction). Raises ``BackendError`` when the model
        fails, so the backfill stops instead of spinning."""
        model = self.second_model()
        if model is None:
            return 0
        table = sql.Identifier(self._memory.collection_name)
        with _backend("second vectors"), self._memory.vector_store._get_cursor() as cur:
            cur.execute(
                sql.SQL(
                    "SELECT id::text, payload->>'data' FROM {t} "
                    "WHERE second_vector IS NULL OR second_model IS DISTINCT FROM %s "
                    "ORDER BY id LIMIT %s"
                ).format(t=table),
                (model.name, batch),
            )
            todo = [(str(i), str(text or "")) for i, text in cur.fetchall()]
        if not todo:
            return 0
        with _backend("second vectors"):
            vectors = model.passages([text for _, text in todo])
        if len(vectors) != len(todo):
            raise BackendError(f"second model returned {len(vectors)} vectors for {len(todo)}")
        self.write_second_vectors(
            [(i, t, v) for (i, t), v in zip(todo, vectors, strict=True)], model=model.name
        )
        return len(todo)

    # --- writes ------------------------------------------------------------------------------
    def add_fact(self, *, scope_key: str, text: str, metadata: dict[str, Any]) -> str:
        """Store exactly one fact as given: ``add_many`` of one."""
        return self.add_many(scope_key, [NewFact(text=text, metadata=metadata)])[0]

    def prepare(
        self, texts: Sequence[str], *, second: PendingSecond | None = None
    ) -> list[PreparedText]:
        """Everything ``add_many`` needs from the texts themselves, in order: one embedder
        batch, one entity-extraction batch and the keyword lemmas; ``second`` (from
        ``second_passages``) goes along, and ``add_many`` stores its vectors with the rows. No
        database access."""
        if not texts:
            return []
        with _backend("embed"):
            vectors = self._memory.embedding_model.embed_batch(list(texts), "add")
            if len(vectors) != len(texts):
                raise BackendError(f"embedder returned {len(vectors)} vectors for {len(texts)}")
            found = nlp.extract_entities_batch(list(texts))
            return [
                PreparedText(
                    vector=[float(x) for x in vector],
                    entities=names,
                    lemmatized=nlp.lemmatize_for_bm25(text),
                    second=second,
                )
                for text, vector, names in zip(texts, vectors, found, strict=True)
            ]

    def add_many(
        self,
        scope_key: str,
        items: Sequence[NewFact],
        prepared: Sequence[PreparedText] | None = None,
    ) -> list[str]:
        """Store facts of one scope: one INSERT and one entity pass. Each row is what Mem0's
        ``add(infer=False)`` writes (the payload, the vector; the contract test compares them)
        plus our entity links, which Mem0 leaves out of an explicit add. No Mem0 history rows:
        nothing reads them but our purge, and their text would only be residue.

        Returns the new ids, in order. The caller holds the scope's write lock and has admitted
        the texts; ``prepared`` (from ``prepare``, in order) is computed here when not given."""
        if not items:
            return []
        with _backend("add"):
            if prepared is None:
                prepared = self.prepare([item.text for item in items])
            if len(prepared) != len(items):
                raise BackendError(f"{len(prepared)} prepared texts for {len(items)} facts")
            now = datetime.now(UTC).isoformat()
            ids = [str(uuid.uuid4()) for _ in items]
            payloads = [
                json.dumps(self._payload(scope_key, item, ready, now), ensure_ascii=False)
                for item, ready in zip(items, prepared, strict=True)
            ]
            # The second vectors computed meanwhile (beside the analysis, the lock, the
            # duplicate check) go into the same INSERT; the others are stored once computed,
            # after the INSERT commits, so that the add never waits for the second model.
            behind = self._storing_behind()
            seconds = [
                (ready.second.vector(item.text), ready.second.model)
                if ready.second and (ready.second.ready() or behind)
                else (None, "")
                for item, ready in zip(items, prepared, strict=True)
            ]
            with self._memory.vector_store._get_cursor(commit=True) as cur:
                cur.execute(
                    sql.SQL(
                        "INSERT INTO {t} (id, vector, payload, second_vector, second_model) "
                        "SELECT i, v::vector, p::jsonb, s::vector, nullif(m, '') FROM unnest("
                        "%s::uuid[], %s::text[], %s::text[], %s::text[], %s::text[]"
                        ") AS r(i, v, p, s, m)"
                    ).format(t=sql.Identifier(self._memory.collection_name)),
                    (
                        ids,
                        [str(ready.vector) for ready in prepared],
                        payloads,
                        [None if v is None else str(v) for v, _ in seconds],
                        [model if v is not None else "" for v, model in seconds],
                    ),
                )
                # In the insert's transaction: a fact is stored with its links or not at all.
                links = [(i, ready.entities) for i, ready in zip(ids, prepared, strict=True)]
                self._link_with(cur, scope_key, links, new_memories=True)
        later: dict[PendingSecond, list[tuple[str, str]]] = {}
        for i, item, ready, (vector, _) in zip(ids, items, prepared, seconds, strict=True):
            if ready.second is not None and vector is None:
                later.setdefault(ready.second, []).append((i, item.text))
        for pending, written in later.items():
            self.store_second_vectors(pending, written=written)
        return ids

    @staticmethod
    def _payload(scope_key: str, item: NewFact, prepared: PreparedText, now: str) -> dict[str, Any]:
        """Mem0 2.2.1's payload for ``add(messages, user_id=…, metadata=…, infer=False)``:
        ``_build_filters_and_metadata`` drops identity keys from our metadata and sets the
        scope, ``_add_to_vector_store`` adds the role, ``_create_memory`` the rest."""
        payload = {k: v for k, v in item.metadata.items() if k not in IDENTITY_KEYS}
        payload["user_id"] = scope_key
        payload["role"] = "user"
        payload["data"] = item.text
        payload["hash"] = hashlib.md5(item.text.encode()).hexdigest()
        payload.setdefault("created_at", now)
        # An import restores the time of the last change; a new memory has none but its birth.
        payload.setdefault("updated_at", payload["created_at"])
        payload["text_lemmatized"] = prepared.lemmatized
        return payload

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
            found = [
                ExtractedFact(id=str(r["id"]), text=str(r["memory"]), event=str(r["event"]))
                for r in result.get("results", [])
            ]
        # Mem0 wrote (or rewrote) these rows with its own vector only.
        self.fill_second_vectors([f.id for f in found if f.event in ("ADD", "UPDATE")])
        return found

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
        pending = self.second_passages([text])
        with _backend("update"):
            self._memory.update(memory_id, text=text, metadata=metadata)
        # Mem0's UPDATE changed the text, so the stored second vector was cleared (migration
        # 0014's trigger); the new one was embedded while Mem0 worked.
        self.store_second_vectors(pending, written=[(memory_id, text)])

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
        try:
            with _backend("delete"):
                self._memory.delete(memory_id)
        except ValueError as exc:
            raise LookupError(memory_id) from exc
        except BackendError:
            # If Mem0 failed after deleting the vector, the memory is gone and only the
            # clean-up is left to do.
            if self._row_exists(memory_id):
                raise
        self._cleanup_after_delete(memory_id=memory_id, scope_key=scope_key)

    def delete_scope(self, *, scope_key: str) -> ScopeDeletion:
        """Delete every memory of the scope and its whole entity index in one transaction
        (set-based: Mem0's delete is one row, a history write and a scan of the scope's
        entities per memory). Mem0 keeps no history here (``NoSessionStore``).

        Raises ``BackendError`` when nothing could be deleted; otherwise ``residue`` counts
        what is provably left (rows or links of the scope). The caller holds the scope's write
        lock."""
        tables = {
            "m": sql.Identifier(self._memory.collection_name),
            "e": sql.Identifier(self.entity_collection),
        }
        with _backend("delete scope"), self._memory.vector_store._get_cursor(commit=True) as cur:
            cur.execute(
                sql.SQL("DELETE FROM {m} WHERE payload->>'user_id' = %s RETURNING id::text").format(
                    **tables
                ),
                (scope_key,),
            )
            memory_ids = [str(row[0]) for row in cur.fetchall()]
            # Every entity of the scope links only memories of the scope, all gone now.
            cur.execute(
                sql.SQL("DELETE FROM {e} WHERE payload->>'user_id' = %s").format(**tables),
                (scope_key,),
            )
            # The triggers have counted the scope down to nothing; these make sure that no
            # word of the scope survives even if a count had drifted.
            for counts in ("poco_memories_term_df", "poco_memories_scope_size"):
                cur.execute(
                    sql.SQL("DELETE FROM {} WHERE scope_key = %s").format(sql.Identifier(counts)),
                    (scope_key,),
                )
        return ScopeDeletion(
            memory_ids=memory_ids, residue=self._scope_residue(scope_key, memory_ids)
        )

    def _scope_residue(self, scope_key: str, memory_ids: list[str]) -> int:
        """Rows, entity links and keyword counts (migration 0006) of the scope still present; an
        unanswerable check counts as one, since nothing may be reported clean that was not seen
        clean."""
        tables = {
            "m": sql.Identifier(self._memory.collection_name),
            "e": sql.Identifier(self.entity_collection),
        }
        self._merge_link_index()
        try:
            with self._memory.vector_store._get_cursor() as cur:
                cur.execute(
                    sql.SQL(
                        "SELECT (SELECT count(*) FROM {m} WHERE payload->>'user_id' = %(s)s)"
                        " + (SELECT count(*) FROM {e} WHERE payload->>'user_id' = %(s)s)"
                        # One GIN probe per deleted id (a `?|` of 20,000 ids made the planner
                        # test every entity row's array against all of them: minutes).
                        " + (SELECT count(*) FROM unnest(%(ids)s::text[]) AS gone(id)"
                        " WHERE EXISTS (SELECT 1 FROM {e}"
                        " WHERE payload->'linked_memory_ids' ? gone.id))"
                        " + (SELECT count(*) FROM poco_memories_term_df WHERE scope_key = %(s)s)"
                        " + (SELECT count(*) FROM poco_memories_scope_size WHERE scope_key = %(s)s)"
                    ).format(**tables),
                    {"s": scope_key, "ids": memory_ids},
                )
                left = int(cur.fetchone()[0])
            return left
        except Exception as exc:  # noqa: BLE001
            logger.warning("residue check after delete-scope failed: %s", type(exc).__name__)
            return 1

    def _merge_link_index(self) -> None:
        """Merge GIN's pending list of the link index. New links wait there until a vacuum
        merges them, and every probe of the index reads the whole list: the residue check's
        20,000 probes of 316 waiting pages took longer than a statement may (0.16 ms each;
        0.005 ms merged). Best effort: without it the probes are only slower."""
        index = sql.Literal(f"{self.entity_collection}_links_idx")
        try:
            with self._memory.vector_store._get_cursor(commit=True) as cur:
                cur.execute(sql.SQL("SELECT gin_clean_pending_list({}::regclass)").format(index))
        except Exception as exc:  # noqa: BLE001 - e.g. not the index's owner
            logger.info("link index pending list not merged: %s", type(exc).__name__)

    def _row_exists(self, memory_id: str) -> bool:
        with _backend("get"):
            return self._memory.vector_store.get(vector_id=memory_id) is not None

    def _cleanup_after_delete(self, *, memory_id: str, scope_key: str) -> None:
        try:
            self._memory._remove_memory_from_entity_store(memory_id, {"user_id": scope_key})
            residue = self.entity_links(memory_id=memory_id)
        except Exception as exc:  # noqa: BLE001
            raise CleanupError(f"post-delete clean-up failed: {type(exc).__name__}") from exc
        if residue:
            raise CleanupError(f"{residue} entity link(s) left after delete")

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
        """The query's vector from the configured embedder (recall's vector channel); a query
        this process embedded lately is not embedded again (``_recent_queries``)."""
        cached = self._recent_queries.get((_FIRST, text))
        if cached is not None:
            return cached
        with _backend("search"):
            vector = [float(x) for x in self._memory.embedding_model.embed(text, "search")]
        self._recent_queries.put((_FIRST, text), vector)
        return vector

    def recall(
        self, query: ChannelQuery, *, meaning: Future[MeaningQuery | None] | None = None
    ) -> dict[Channel, list[ChannelHit]]:
        """Recall's channels on Mem0's connection pool. ``meaning`` is the query's second
        embedding, computed meanwhile on another thread: when it is ready by now, the meaning
        channel runs in the one statement with the first embedder's three; otherwise the three
        run first and the meaning channel after them, once the embedding is ready, in a second
        short statement. Either way the same hits with the same scores."""
        if meaning is not None and meaning.done():
            asked = self._meaning(meaning)
            if asked is not None:
                folded = self._recall_folded(query, asked)
                if folded is not None:
                    return folded
                meaning = None
        statement, params = channel_statement(
            query, memories=self._memory.collection_name, entities=self.entity_collection
        )
        with _backend("search"), self._memory.vector_store._get_cursor() as cur:
            cur.execute(statement, params)
            found = channel_hits(cur.fetchall(), query)
            if meaning is not None and meaning.done():
                # Ready by now (the usual case): the same connection and transaction answer
                # the meaning channel, without a second checkout and rollback.
                return self._recall_meaning(cur, query, found, self._meaning(meaning))
        asked = self._meaning(meaning)  # waits for it, holding no connection
        if asked is None:
            return found
        with _backend("search"), self._memory.vector_store._get_cursor() as cur:
            return self._recall_meaning(cur, query, found, asked)

    def _recall_meaning(
        self,
        cur: Any,
        query: ChannelQuery,
        found: dict[Channel, list[ChannelHit]],
        asked: MeaningQuery | None,
    ) -> dict[Channel, list[ChannelHit]]:
        """The meaning channel after the first statement, which has just answered on the same
        server: a failure here is the second model's column (a width that does not match,
        /ready says so), not an outage, and costs only the meaning channel."""
        if asked is None:
            return found
        statement, params = meaning_statement(query, asked, memories=self._memory.collection_name)
        try:
            with _backend("search"):
                cur.execute(statement, params)
                return meaning_hits(cur.fetchall(), found, asked)
        except BackendError as exc:
            logger.warning("meaning channel failed: %s", exc)
            return found

    def _recall_folded(
        self, query: ChannelQuery, asked: MeaningQuery
    ) -> dict[Channel, list[ChannelHit]] | None:
        """The four channels in one statement; None when the statement itself fails (the
        second model's column: a width that does not match), so that the three run alone, as
        in the two-statement path. An outage is one: it raises ``BackendError``."""
        statement, params = channel_statement(
            query,
            memories=self._memory.collection_name,
            entities=self.entity_collection,
            meaning=asked,
        )
        try:
            with _backend("search"), self._memory.vector_store._get_cursor() as cur:
                cur.execute(statement, params)
                return folded_hits(cur.fetchall(), query, asked)
        except BackendError as exc:
            if not isinstance(exc.__cause__, psycopg.DatabaseError) or isinstance(
                exc.__cause__, psycopg.OperationalError
            ):
                raise
            logger.warning("meaning channel failed: %s", exc)
            return None

    @staticmethod
    def _meaning(meaning: Future[MeaningQuery | None] | None) -> MeaningQuery | None:
        """The query's second embedding; None (the meaning channel stays out) when the second
        model is off or failed: the first model's channels still answer."""
        if meaning is None:
            return None
        try:
            return meaning.result()
        except Exception as exc:  # noqa: BLE001 - degraded recall, not an outage
            logger.warning("second model failed for a search: %s", type(exc).__name__)
            return None

    def ask_meaning(
        self,
        text: str,
        *,
        floor: float,
        across_floor: float | None = None,
        language: Written | None = None,
    ) -> Future[MeaningQuery | None] | None:
        """Start the query's second embedding on a thread of its own; None when it is off."""
        model = self.second_model()
        if model is None:
            return None

        def asked(vector: list[float]) -> MeaningQuery:
            return MeaningQuery(
                model=model.name,
                vector=vector,
                floor=floor,
                across_floor=across_floor,
                language=language,
            )

        # The model object, not only its name: settings may name another model of the same
        # name (a remote one) while this engine lives.
        key = (f"{model.name}#{id(model)}", text)
        cached = self._recent_queries.get(key)
        if cached is not None:  # asked lately: ~25 ms of e5 saved, the same vector
            done: Future[MeaningQuery | None] = Future()
            done.set_result(asked(cached))
            return done

        def embed() -> MeaningQuery:
            vector = model.queries([text])[0]
            self._recent_queries.put(key, vector)
            return asked(vector)

        return _second_threads("query").submit(embed)

    def close(self) -> None:
        """Close the engine's connections once the second vectors its writes left are stored
        (a process that writes and then closes, like `make run`'s demo memory before it serves,
        would otherwise lose them to a closed pool); after ``CLOSE_WAITS_FOR_SECOND`` seconds
        what is left is the backfill's."""
        if not self.second_vectors_stored(timeout=CLOSE_WAITS_FOR_SECOND):
            logger.warning("closing with second vectors still to store: left to the backfill")
        with contextlib.suppress(Exception):
            self._memory.vector_store.connection_pool.close()  # the entity store's too


class _RecentQueries:
    """The vectors of the queries this process embedded last, by (model, text), least recently
    used out first.  Agents repeat their questions (a context call per turn on the same topic,
    the same search after each write), and a query's embeddings are most of a search's time:
    e5 takes ~25 ms a question on one core, the statement a few.  A vector depends only on the
    model and the text, so a cached one is the same answer.  Each engine keeps its own (a test
    or an operator that builds an engine on another embedder starts empty)."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._vectors: OrderedDict[tuple[str, str], list[float]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple[str, str]) -> list[float] | None:
        with self._lock:
            vector = self._vectors.get(key)
            if vector is not None:
                self._vectors.move_to_end(key)
            return vector

    def put(self, key: tuple[str, str], vector: list[float]) -> None:
        with self._lock:
            self._vectors[key] = vector
            self._vectors.move_to_end(key)
            while len(self._vectors) > self._size:
                self._vectors.popitem(last=False)


# 1,024 queries of both models: ~2 MB of floats an engine.  The first embedder's entries are
# keyed by an empty model name, which no second model has.
_FIRST = ""

_engine: Mem0Adapter | None = None
_engine_lock = threading.Lock()
_second_pools: dict[str, tuple[int, ThreadPoolExecutor]] = {}


def _second_threads(kind: str) -> ThreadPoolExecutor:
    """Where the second model's embeddings of one ``kind`` run, beside the caller's own work
    (a search's statement, an add's first embedding); the C engine holds no lock, so they embed
    in parallel. Queries and passages have a pool each, so that a search's question never waits
    behind memories still being embedded for earlier adds. One per process (made after a fork,
    never inherited from the parent)."""
    with _engine_lock:
        made = _second_pools.get(kind)
        if made is None or made[0] != os.getpid():
            pool = ThreadPoolExecutor(8, thread_name_prefix=f"second-model-{kind}")
            made = _second_pools[kind] = (os.getpid(), pool)
        return made[1]


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

    from poco_memory.db import BoundedConnection

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
