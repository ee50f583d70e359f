"""Where a search's time goes, in process, stage by stage (``python -m benchmarks.search_profile``).

Seeds a scope of its own (``--memories``, default 20,000 texts of the bench corpus, with their
first and second vectors and entity links, written through the engine's ``add_many`` like an
import) in the database ``DATABASE_URL`` names, then times each bench query:

* the first model's query embedding, the query analysis, the first (three-channel) statement;
* the e5 query embedding alone, and while the request thread embeds, analyses and runs the
  first statement (how much of it is still left to wait for);
* the meaning statement (and its plan, ``--explain``), fusion;
* the whole ``memory_search`` with three channels and with four, alternating query by query.

It also checks that the e5 call gives up the GIL (a Python loop on this thread keeps its pace
while e5 runs on another) and what the query analysis costs while e5 runs beside it.

The scope is deleted at the end unless ``--keep`` (a later run with the same ``--memories``
reuses a kept scope).  Numbers on a shared machine are noisy: ``--repeat`` runs the timing
several times and reports each run's percentiles and their medians.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

TENANT = "profile"
BATCH = 256


def log(message: str) -> None:
    print(f"[profile {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def ms(call: Callable[[], Any]) -> tuple[float, Any]:
    started = time.perf_counter()
    value = call()
    return (time.perf_counter() - started) * 1000, value


def pct(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)

    def at(q: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 2)

    return {"p50": at(0.5), "p95": at(0.95)}


def setup_django() -> None:
    if not os.environ.get("DATABASE_URL"):
        sys.exit("DATABASE_URL must name the PostgreSQL server to profile against")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "poco_memory.settings")
    import django

    django.setup()


def scope_for(size: int) -> Any:
    from memories.scope import scope_of

    return scope_of(tenant_id=TENANT, user_id=f"search-profile-{size}")


def stored(scope_key: str) -> tuple[int, int]:
    from memories.engine import get_engine

    with get_engine()._memory.vector_store._get_cursor() as cur:
        cur.execute(
            "SELECT count(*), count(second_vector) FROM poco_memories WHERE scope_key = %s",
            (scope_key,),
        )
        total, seconds = cur.fetchone()
    return int(total), int(seconds)


def seed(scope_key: str, size: int, done: int) -> None:
    """The corpus's texts through ``add_many`` in batches, from the ``done``-th on (a seed cut
    short resumes); the second model's passages of the next batches are computed on two threads
    meanwhile (it is the slow part)."""
    from benchmarks import corpus
    from memories.engine import NewFact, get_engine
    from memories.engine.second_vectors import PendingSecond

    engine = get_engine()
    model = engine.second_model()
    texts = list(dict.fromkeys(corpus.texts(seed=20_000, count=size)))[done:]
    batches = [texts[i : i + BATCH] for i in range(0, len(texts), BATCH)]
    started = time.perf_counter()
    with ThreadPoolExecutor(2) as threads:
        pending = [
            PendingSecond(model.name, batch, threads.submit(model.passages, batch))
            if model is not None
            else None
            for batch in batches
        ]
        for n, (batch, second) in enumerate(zip(batches, pending, strict=True), 1):
            prepared = engine.prepare(batch, second=second)
            items = [NewFact(text=t, metadata={"category": "fact"}) for t in batch]
            engine.add_many(scope_key, items, prepared)
            if n % 10 == 0 or n == len(batches):
                rate = n * BATCH / (time.perf_counter() - started)
                log(f"seeded {min(n * BATCH, len(texts))} of {len(texts)} ({rate:.0f}/s)")
    analyse_tables()


def analyse_tables() -> None:
    from memories.engine import get_engine

    with get_engine()._memory.vector_store._get_cursor(commit=True) as cur:
        cur.execute("ANALYZE poco_memories")
        cur.execute("ANALYZE poco_memories_entities")


def other_scopes(scope_key: str, copies: int) -> list[str]:
    """Other users' rows beside the profiled scope, as in the bench (the heavy user holds a
    fifth of the table and nearly all of its second vectors), so the planner estimates the
    scope and second-model filters as it does there: copies of the scope's payloads under other
    scope keys, without vectors (building their HNSW entries would take longer than the rest
    of the profile; so the first model's index holds the profiled scope only)."""
    from memories.engine import get_engine

    keys = [f"{TENANT}:search-profile-other-{n}" for n in range(copies)]
    with get_engine()._memory.vector_store._get_cursor(commit=True) as cur:
        for key in keys:
            cur.execute("SELECT 1 FROM poco_memories WHERE scope_key = %s LIMIT 1", (key,))
            if cur.fetchone() is None:
                cur.execute(
                    "INSERT INTO poco_memories (id, payload) "
                    "SELECT gen_random_uuid(), jsonb_set(payload, '{user_id}', to_jsonb(%s::text))"
                    " FROM poco_memories WHERE scope_key = %s",
                    (key, scope_key),
                )
                log(f"other scope {key}: {cur.rowcount} rows")
    return keys


def gil_check() -> dict[str, float]:
    """A pure-Python loop's pace alone and while e5 embeds on another thread: a C call that
    holds the GIL stops the loop for the whole embedding."""
    from benchmarks.corpus import QUERIES
    from memories.engine import get_engine

    model = get_engine().second_model()
    assert model is not None

    def spin(seconds: float) -> int:
        n, end = 0, time.perf_counter() + seconds
        while time.perf_counter() < end:
            n += 1
        return n

    alone = spin(0.5)
    stop = threading.Event()

    def embed() -> None:
        while not stop.is_set():
            for q in QUERIES:
                model.queries([q])

    worker = threading.Thread(target=embed)
    worker.start()
    beside = spin(0.5)
    stop.set()
    worker.join()
    return {"python_loop_pace_with_e5_beside": round(beside / alone, 2)}


def analysis_beside_e5(rounds: int) -> dict[str, float]:
    """The query analysis alone and while e5 embeds on another thread."""
    from django.conf import settings

    from benchmarks.corpus import QUERIES
    from memories.engine import get_engine
    from memories.recall.query import analyse
    from memories.types import SearchFilters

    engine = get_engine()
    model = engine.second_model()
    assert model is not None
    vectors = {q: engine.embed_query(q) for q in QUERIES}

    def one(q: str) -> None:
        analyse(
            q,
            scope_key="x",
            vector=vectors[q],
            filters=SearchFilters(),
            vector_floor=settings.SEARCH_MIN_SCORE,
            pool=40,
        )

    alone = [ms(lambda q=q: one(q))[0] for q in (QUERIES * rounds)]
    stop = threading.Event()

    def embed() -> None:
        while not stop.is_set():
            model.queries([QUERIES[0]])

    worker = threading.Thread(target=embed)
    worker.start()
    beside = [ms(lambda q=q: one(q))[0] for q in (QUERIES * rounds)]
    stop.set()
    worker.join()
    return {
        "analysis_alone_p50_ms": pct(alone)["p50"],
        "analysis_beside_e5_p50_ms": pct(beside)["p50"],
    }


def stages(scope: Any, rounds: int) -> dict[str, dict[str, float]]:
    """Each stage of ``recall_channels`` timed on its own, in the order search runs them."""
    from django.conf import settings

    from benchmarks.corpus import QUERIES
    from memories.engine import get_engine
    from memories.engine.second_vectors import second_threads
    from memories.recall.channels import (
        MeaningQuery,
        channel_hits,
        channel_statement,
        meaning_hits,
        meaning_statement,
    )
    from memories.recall.fusion import fuse
    from memories.recall.query import analyse
    from memories.recall.tuning import MIN_CHANNEL_POOL
    from memories.types import SearchFilters

    engine = get_engine()
    model = engine.second_model()
    assert model is not None
    table, entities = engine._memory.collection_name, engine.entity_collection
    pool = max(settings.SEARCH_TOP_K * 4, MIN_CHANNEL_POOL)
    samples: dict[str, list[float]] = {}

    def add(name: str, value: float) -> None:
        samples.setdefault(name, []).append(value)

    for n in range(rounds):
        q = QUERIES[n % len(QUERIES)]
        add("e5_alone", ms(lambda q=q: model.queries([q]))[0])
        # As search runs it: e5 on another thread, the rest on this one.
        began = time.perf_counter()
        span: list[float] = []

        def embed(q: str = q, span: list[float] = span) -> list[float]:
            start = time.perf_counter()
            vector = model.queries([q])[0]
            span.append((time.perf_counter() - start) * 1000)
            return vector

        future = second_threads("query").submit(embed)
        t, vector = ms(lambda q=q: engine.embed_query(q))
        add("first_embedding", t)
        t, query = ms(
            lambda q=q, vector=vector: analyse(
                q,
                scope_key=scope.key,
                vector=vector,
                filters=SearchFilters(),
                vector_floor=settings.SEARCH_MIN_SCORE,
                pool=pool,
            )
        )
        add("analysis", t)
        statement, params = channel_statement(query, memories=table, entities=entities)

        def first(statement: Any = statement, params: Any = params, query: Any = query) -> Any:
            with engine._memory.vector_store._get_cursor() as cur:
                cur.execute(statement, params)
                return channel_hits(cur.fetchall(), query)

        t, found = ms(first)
        add("first_statement", t)
        t, e5_vector = ms(future.result)
        add("wait_for_e5", t)
        add("e5_concurrent", span[0])
        asked = MeaningQuery(
            model=model.name,
            vector=e5_vector,
            floor=settings.SECOND_MODEL_MIN_SCORE,
        )
        statement, params = meaning_statement(query, asked, memories=table)

        def meaning(
            statement: Any = statement, params: Any = params, found: Any = found, asked: Any = asked
        ) -> Any:
            with engine._memory.vector_store._get_cursor() as cur:
                cur.execute(statement, params)
                return meaning_hits(cur.fetchall(), found, asked)

        t, merged = ms(meaning)
        add("meaning_statement", t)
        add("fusion", ms(lambda merged=merged: fuse(merged, top_k=settings.SEARCH_TOP_K))[0])
        add("recall_total", (time.perf_counter() - began) * 1000)
    return {name: pct(values) for name, values in samples.items()}


def explain(scope: Any, count: int) -> list[str]:
    """EXPLAIN ANALYZE of the meaning statement for the first ``count`` bench queries."""
    from django.conf import settings

    from benchmarks.corpus import QUERIES
    from memories.engine import get_engine
    from memories.recall.channels import MeaningQuery, meaning_statement
    from memories.recall.query import analyse
    from memories.types import SearchFilters

    engine = get_engine()
    model = engine.second_model()
    assert model is not None
    plans = []
    for q in QUERIES[:count]:
        query = analyse(
            q,
            scope_key=scope.key,
            vector=engine.embed_query(q),
            filters=SearchFilters(),
            vector_floor=settings.SEARCH_MIN_SCORE,
            pool=40,
        )
        asked = MeaningQuery(
            model=model.name,
            vector=model.queries([q])[0],
            floor=settings.SECOND_MODEL_MIN_SCORE,
        )
        statement, params = meaning_statement(query, asked, memories=engine._memory.collection_name)
        with engine._memory.vector_store._get_cursor() as cur:
            cur.execute(b"EXPLAIN (ANALYZE, BUFFERS) " + statement.as_bytes(cur), params)
            plans.append(f"-- {q}\n" + "\n".join(row[0] for row in cur.fetchall()))
    return plans


def searches(scope: Any, rounds: int, toggle: bool = False) -> dict[str, dict[str, float]]:
    """``memory_search`` with four channels and with three, alternating query by query. The
    three channels leave the second model out by ``ask_meaning`` answering None, so the model
    stays loaded; ``toggle`` switches ``SECOND_MODEL`` off instead, as ``make bench`` does."""
    from unittest import mock

    from django.test import override_settings

    from benchmarks.corpus import QUERIES
    from memories.engine.adapter import Mem0Adapter
    from memories.selectors import memory_search

    four: list[float] = []
    three: list[float] = []
    for n in range(rounds):
        q = QUERIES[n % len(QUERIES)]
        four.append(ms(lambda q=q: memory_search(scope=scope, query=q))[0])
        if toggle:
            without: Any = override_settings(SECOND_MODEL="off")
        else:
            without = mock.patch.object(Mem0Adapter, "ask_meaning", return_value=None)
        with without:
            three.append(ms(lambda q=q: memory_search(scope=scope, query=q))[0])
    return {"search_four_channels": pct(four), "search_three_channels": pct(three)}


def medians(runs: list[dict[str, dict[str, float]]]) -> dict[str, dict[str, float]]:
    return {
        name: {
            key: round(statistics.median(run[name][key] for run in runs), 2)
            for key in runs[0][name]
        }
        for name in runs[0]
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--memories", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=208, help="queries per measurement")
    parser.add_argument("--repeat", type=int, default=3, help="runs whose medians are reported")
    parser.add_argument("--explain", type=int, default=3, help="meaning plans to print")
    parser.add_argument("--keep", action="store_true", help="leave the seeded scope in place")
    parser.add_argument("--only", choices=["stages", "search"], help="one measurement only")
    parser.add_argument("--others", type=int, default=4, help="other scopes of the same size")
    parser.add_argument("--seed-only", action="store_true", help="seed (or resume), then stop")
    parser.add_argument(
        "--toggle", action="store_true", help="three channels by SECOND_MODEL=off (make bench)"
    )
    args = parser.parse_args(argv)
    setup_django()
    from memories.engine import get_engine

    engine = get_engine()
    scope = scope_for(args.memories)
    total, seconds = stored(scope.key)
    if total < args.memories:
        log(f"seeding {args.memories - total} more memories into {scope.key}")
        seed(scope.key, args.memories, total)
        total, seconds = stored(scope.key)
    log(f"scope {scope.key}: {total} memories, {seconds} with a second vector")
    if args.seed_only:
        return 0
    others = other_scopes(scope.key, args.others)
    analyse_tables()
    try:
        for q in ("warm up", "预热"):  # models, pools and connections
            engine.embed_query(q)
            from memories.selectors import memory_search

            memory_search(scope=scope, query=q)
        report: dict[str, Any] = {"memories": total, "second_vectors": seconds}
        report["omp_num_threads"] = os.environ.get("OMP_NUM_THREADS")
        report |= gil_check()
        report |= analysis_beside_e5(4)
        for plan in explain(scope, args.explain):
            print(plan, file=sys.stderr)
        measures: dict[str, Callable[[Any, int], dict[str, dict[str, float]]]] = {
            "stages": stages,
            "search": lambda scope, rounds: searches(scope, rounds, toggle=args.toggle),
        }
        for kind, measure in measures.items():
            if args.only and args.only != kind:
                continue
            runs = []
            for n in range(args.repeat):
                runs.append(measure(scope, args.rounds))
                log(f"{kind} run {n + 1}: {json.dumps(runs[-1])}")
            report[kind] = {"median_of_runs": medians(runs), "runs": runs}
        print(json.dumps(report, indent=1))
    finally:
        if not args.keep:
            for key in [scope.key, *others]:
                deletion = engine.delete_scope(scope_key=key)
                log(f"deleted {len(deletion.memory_ids)} memories of {key}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
