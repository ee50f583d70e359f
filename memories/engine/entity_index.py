"""The entity index: which entities each memory links, replacing Mem0's per-entity helpers
(``memories.engine.entities`` does the SQL)."""

from __future__ import annotations

import logging
from typing import Any

from psycopg import sql

from memories.engine import entities
from memories.engine.base import AdapterBase
from memories.language import nlp

logger = logging.getLogger(__name__)


class EntityIndex(AdapterBase):
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
