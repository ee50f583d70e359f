"""Recall's statements on Mem0's connection pool: the first embedder's query vector, the
channels (with the meaning channel folded in when its vector is ready) and the query's second
embedding, with the vectors of recent queries kept."""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from concurrent.futures import Future
from typing import Any

import psycopg
from psycopg import sql

from memories.engine.base import backend
from memories.engine.second_vectors import SecondVectors, second_threads
from memories.recall import hubness
from memories.recall.channels import (
    ChannelQuery,
    MeaningQuery,
    across_candidates,
    channel_hits,
    channel_statement,
    folded_hits,
    meaning_hits,
    meaning_statement,
)
from memories.recall.languages import Written
from memories.recall.live import scope_condition
from memories.types import BackendError, Channel, ChannelHit

logger = logging.getLogger(__name__)


class Searching(SecondVectors):
    # This engine's recent query vectors: a new engine (another embedder) starts empty.
    _recent_queries: RecentQueries

    def embed_query(self, text: str) -> list[float]:
        """The query's vector from the configured embedder (recall's vector channel); a query
        this process embedded lately is not embedded again (``_recent_queries``)."""
        cached = self._recent_queries.get((_FIRST, text))
        if cached is not None:
            return cached
        with backend("search"):
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
        with backend("search"), self._memory.vector_store._get_cursor() as cur:
            cur.execute(statement, params)
            found = channel_hits(cur.fetchall(), query)
            if meaning is not None and meaning.done():
                # Ready by now (the usual case): the same connection and transaction answer
                # the meaning channel, without a second checkout and rollback.
                return self._recall_meaning(cur, query, found, self._meaning(meaning))
        asked = self._meaning(meaning)  # waits for it, holding no connection
        if asked is None:
            return found
        with backend("search"), self._memory.vector_store._get_cursor() as cur:
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
            with backend("search"):
                cur.execute(statement, params)
                rows = cur.fetchall()
                accepted = self._accepted_across(cur, query, rows, asked)
                return meaning_hits(rows, found, asked, accepted)
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
            with backend("search"), self._memory.vector_store._get_cursor() as cur:
                cur.execute(statement, params)
                rows = cur.fetchall()
                meaning = [row for row in rows if row[0] == "meaning"]
                accepted = self._accepted_across(cur, query, meaning, asked)
                return folded_hits(rows, query, asked, accepted)
        except BackendError as exc:
            if not isinstance(exc.__cause__, psycopg.DatabaseError) or isinstance(
                exc.__cause__, psycopg.OperationalError
            ):
                raise
            logger.warning("meaning channel failed: %s", exc)
            return None

    def _accepted_across(
        self, cur: Any, query: ChannelQuery, rows: list[tuple[Any, ...]], asked: MeaningQuery
    ) -> frozenset[str]:
        """Which of the meaning channel's ``rows`` the cross-language score makes evidence
        (``memories.recall.hubness``): their second vectors, read on the same connection, only
        for the few in the other language under the across floor (``across_candidates``)."""
        candidates = across_candidates(rows, asked)
        if not candidates or asked.across is None:
            return frozenset()
        cur.execute(
            sql.SQL(
                "SELECT m.id::text, m.second_vector::real[] FROM {t} m "
                "WHERE m.id = ANY(%s::uuid[]) AND m.second_model = %s AND {in_scope}"
            ).format(
                t=sql.Identifier(self._memory.collection_name),
                in_scope=sql.SQL(scope_condition("m")),
            ),
            (candidates, asked.model, query.scope_key),
            binary=True,
        )
        held = cur.fetchall()
        accepts = asked.across.accepts([vector for _, vector in held])
        return frozenset(i for (i, _), yes in zip(held, accepts, strict=True) if yes)

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

        bank = hubness.bundled(model.name) if language is not None else None

        def asked(vector: list[float]) -> MeaningQuery:
            return MeaningQuery(
                model=model.name,
                vector=vector,
                floor=floor,
                across_floor=across_floor,
                language=language,
                across=bank.ask(vector, language) if bank and language else None,
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

        return second_threads("query").submit(embed)


class RecentQueries:
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
