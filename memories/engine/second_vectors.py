"""The second model's vectors of stored memories: computed beside a write, stored once ready,
filled in for what Mem0 wrote, and backfilled (``memories.engine.second`` is the model)."""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor, wait

from psycopg import sql

from memories.engine import second
from memories.engine.base import AdapterBase, backend
from memories.types import BackendError

logger = logging.getLogger(__name__)


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

_pools_lock = threading.Lock()
_second_pools: dict[str, tuple[int, ThreadPoolExecutor]] = {}


def second_threads(kind: str) -> ThreadPoolExecutor:
    """Where the second model's embeddings of one ``kind`` run, beside the caller's own work
    (a search's statement, an add's first embedding); the C engine holds no lock, so they embed
    in parallel. Queries and passages have a pool each, so that a search's question never waits
    behind memories still being embedded for earlier adds. One per process (made after a fork,
    never inherited from the parent)."""
    with _pools_lock:
        made = _second_pools.get(kind)
        if made is None or made[0] != os.getpid():
            pool = ThreadPoolExecutor(8, thread_name_prefix=f"second-model-{kind}")
            made = _second_pools[kind] = (os.getpid(), pool)
        return made[1]


class SecondVectors(AdapterBase):
    # Second vectors that writes left to be stored once computed (store_second_vectors).
    _storing: set[Future[int]]
    _storing_lock: threading.Lock

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
        pool = second_threads("passage")
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
        with backend("second vectors"), self._memory.vector_store._get_cursor(commit=True) as cur:
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
        with backend("second vectors"), self._memory.vector_store._get_cursor() as cur:
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
        with backend("second vectors"), self._memory.vector_store._get_cursor() as cur:
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
        with backend("second vectors"):
            vectors = model.passages([text for _, text in todo])
        if len(vectors) != len(todo):
            raise BackendError(f"second model returned {len(vectors)} vectors for {len(todo)}")
        self.write_second_vectors(
            [(i, t, v) for (i, t), v in zip(todo, vectors, strict=True)], model=model.name
        )
        return len(todo)
