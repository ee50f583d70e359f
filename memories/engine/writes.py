"""Writes: adding facts (one INSERT a batch), Mem0's extraction, corrections, metadata and
deletions of a memory or a whole scope."""

from __future__ import annotations

import hashlib
import json
import logging
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from psycopg import sql

from memories.engine import entities
from memories.engine.base import backend
from memories.engine.entity_index import EntityIndex
from memories.engine.second_vectors import PendingSecond, SecondVectors
from memories.language import nlp
from memories.types import BackendError, CleanupError

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


@dataclass(frozen=True)
class ScopeDeletion:
    """What ``Mem0Adapter.delete_scope`` removed, and what it could not prove gone."""

    memory_ids: list[str]
    residue: int


class Writes(SecondVectors, EntityIndex):
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
        with backend("embed"):
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
        with backend("add"):
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
        with backend("extract"):
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
        with backend("get"):
            got = self._memory.get(memory_id)
        if got is None:
            raise LookupError(memory_id)
        value = got.get("attributed_to")
        return str(value) if value else None

    def update_fact(self, *, memory_id: str, text: str, metadata: dict[str, Any]) -> None:
        """Keep the id, re-embed, relink entities (Mem0 does both when the text changes)."""
        pending = self.second_passages([text])
        with backend("update"):
            self._memory.update(memory_id, text=text, metadata=metadata)
        # Mem0's UPDATE changed the text, so the stored second vector was cleared (migration
        # 0014's trigger); the new one was embedded while Mem0 worked.
        self.store_second_vectors(pending, written=[(memory_id, text)])

    def set_metadata(self, *, memory_id: str, metadata: dict[str, Any]) -> None:
        with backend("update metadata"):
            self._memory.update(memory_id, metadata=metadata)

    def patch_payload(self, *, memory_id: str, fields: dict[str, Any]) -> None:
        """Merge governance fields (status, superseded_by, valid_until…) into one row's payload.

        Not through ``Memory.update``: that re-embeds the text and writes a history row holding
        it, for a change that touches neither the text nor the vector."""
        with backend("update metadata"), self._memory.vector_store._get_cursor(commit=True) as cur:
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
            with backend("delete"):
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
        with backend("delete scope"), self._memory.vector_store._get_cursor(commit=True) as cur:
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

    def _row_exists(self, memory_id: str) -> bool:
        with backend("get"):
            return self._memory.vector_store.get(vector_id=memory_id) is not None

    def _cleanup_after_delete(self, *, memory_id: str, scope_key: str) -> None:
        try:
            self._memory._remove_memory_from_entity_store(memory_id, {"user_id": scope_key})
            residue = self.entity_links(memory_id=memory_id)
        except Exception as exc:  # noqa: BLE001
            raise CleanupError(f"post-delete clean-up failed: {type(exc).__name__}") from exc
        if residue:
            raise CleanupError(f"{residue} entity link(s) left after delete")
