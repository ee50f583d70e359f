"""Search measured over HTTP (the real server) and in process (Mem0's own search, the SQL floor,
the query embeddings, the product's search with and without the second model)."""

from __future__ import annotations

import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from benchmarks.scale import (
    SEARCH_REQUESTS_C16,
    SEARCH_ROUNDS_C1,
    percentiles,
    scope_of,
    timed,
)
from benchmarks.server import Client, body

# The nominal size a user's keys are named by (``…_scope_size`` says what it really held).
NOMINAL = {"small": "100", "medium": "2000", "heavy": "20000"}

# Questions of the corpus's kind, each asked once: ``QUERIES`` repeat 16 questions, whose query
# vectors every web process caches after its first rounds, so their timings leave out the query
# embeddings an agent's new question pays (e5's ~25 ms above all).
QUESTION_TEMPLATES = (
    "{person}负责哪个项目的{topic}",
    "{project} 的{topic}放在{tool}上吗",
    "{person}在{city}跟进什么",
    "“{project}”用的什么数据库，还是 {tech} 吗",
    "{weekday}{tool}上要同步{project}的什么",
    "who leads {topic_en} on {project}",
    "does {project} still run on {tech}",
    "what did {person_en} say about {topic_en}",
)


def fresh_questions(count: int) -> list[str]:
    """``count`` distinct questions over the corpus's names, the same in every run."""
    from benchmarks import corpus

    rng = random.Random(20261204)
    found: dict[str, None] = {}
    while len(found) < count:
        found[
            rng.choice(QUESTION_TEMPLATES).format(
                person=rng.choice(corpus.PEOPLE),
                person_en=rng.choice(corpus.PEOPLE_EN),
                project=rng.choice(corpus.PROJECTS),
                tool=rng.choice(corpus.TOOLS),
                topic=rng.choice(corpus.TOPICS),
                topic_en=rng.choice(corpus.TOPICS_EN),
                tech=rng.choice(corpus.TECH),
                city=rng.choice(corpus.CITIES),
                weekday=rng.choice(corpus.WEEKDAYS),
            )
        ] = None
    return list(found)


def search_http(results: dict[str, Any], *, user: str = "heavy", concurrent: bool = True) -> None:
    """``user``'s searches over HTTP at concurrency 1 (and 16): the heavy user's keys are
    ``search_http_c1_*`` / ``search_http_c16_*``, another's carry its nominal size."""
    from benchmarks.corpus import QUERIES

    prefix = "search_http" if user == "heavy" else f"search_http_{NOMINAL[user]}"
    questions = [QUERIES[n % len(QUERIES)] for n in range(SEARCH_ROUNDS_C1)]
    results |= percentiles(f"{prefix}_c1", searched(user, questions))
    if not concurrent:
        return

    local = threading.local()

    def one(n: int) -> float:
        if not hasattr(local, "client"):
            local.client = Client()
        query = QUERIES[n % len(QUERIES)]
        ms, (status, answer) = timed(lambda: local.client.post("search", body(user, query=query)))
        assert status == 200 and answer["available"], answer
        return ms

    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=16) as pool:
        timings = list(pool.map(one, range(SEARCH_REQUESTS_C16)))
    results |= percentiles(f"{prefix}_c16", timings)
    results[f"{prefix}_c16_per_s"] = round(SEARCH_REQUESTS_C16 / (time.perf_counter() - started), 1)


def searched(user: str, questions: list[str]) -> list[float]:
    """Milliseconds of each of ``questions`` asked over HTTP, one at a time."""
    client = Client()
    samples: list[float] = []
    for question in questions:
        ms, (status, answer) = timed(lambda q=question: client.post("search", body(user, query=q)))
        assert status == 200 and answer["available"], answer
        samples.append(ms)
    return samples


def fresh_search_http(results: dict[str, Any], *, user: str) -> None:
    """``user``'s search of questions never asked before (``fresh_questions``): what an
    agent's new question waits for, query embeddings included."""
    questions = fresh_questions(SEARCH_ROUNDS_C1 * 2)
    half = questions[:SEARCH_ROUNDS_C1] if user == "heavy" else questions[SEARCH_ROUNDS_C1:]
    results |= percentiles(f"search_http_fresh_{NOMINAL[user]}_c1", searched(user, half))


def search_in_process(results: dict[str, Any]) -> None:
    """Mem0's own search and the SQL floor on the same table, the query embedding apart."""
    from django.conf import settings

    from benchmarks.corpus import QUERIES
    from memories.engine import get_engine

    engine = get_engine()
    key = scope_of("heavy").key
    mem0: list[float] = []
    embeds: list[float] = []
    floor: list[float] = []
    vectors = {q: engine.embed_query(q) for q in QUERIES}
    second = engine.second_model()  # its query embedding runs beside the statement
    seconds: list[float] = []
    statement = (
        "SELECT id FROM poco_memories WHERE payload->>'user_id' = %s "
        "ORDER BY vector <=> %s::vector LIMIT %s"
    )
    for n in range(SEARCH_ROUNDS_C1):
        query = QUERIES[n % len(QUERIES)]
        mem0.append(
            timed(
                lambda query=query: engine._memory.search(
                    query, top_k=settings.SEARCH_TOP_K, filters={"user_id": key}
                )
            )[0]
        )
        embeds.append(timed(lambda query=query: engine.embed_query(query))[0])
        if second is not None:
            seconds.append(timed(lambda query=query: second.queries([query]))[0])

        def sql_top_k(query: str = query) -> None:
            with engine._memory.vector_store._get_cursor() as cur:
                cur.execute(statement, (key, str(vectors[query]), settings.SEARCH_TOP_K))
                cur.fetchall()

        floor.append(timed(sql_top_k)[0])
    results |= percentiles("search_mem0_inprocess", mem0)
    results |= percentiles("search_sql_floor", floor)
    results |= percentiles("query_embedding", embeds)
    if seconds:
        results |= percentiles("second_query_embedding", seconds)
        search_with_and_without_second(results)


def search_with_and_without_second(results: dict[str, Any]) -> None:
    """The product's search of the heavy user in process, with the meaning channel and without
    it (the three channels alone), alternating query by query: what the second model costs a
    search, in the same run on the same data."""
    from django.test import override_settings

    from benchmarks.corpus import QUERIES
    from memories.selectors import memory_search

    scope = scope_of("heavy")
    four: list[float] = []
    three: list[float] = []
    for n in range(SEARCH_ROUNDS_C1):
        query = QUERIES[n % len(QUERIES)]
        four.append(timed(lambda query=query: memory_search(scope=scope, query=query))[0])
        with override_settings(SECOND_MODEL="off"):
            three.append(timed(lambda query=query: memory_search(scope=scope, query=query))[0])
    results |= percentiles("search_inprocess_four_channels", four)
    results |= percentiles("search_inprocess_three_channels", three)


def meaning_plan(results: dict[str, Any]) -> None:
    """Whether the meaning channel's unfloored nearest memories of the heavy user come from the
    second model's HNSW index (``EXPLAIN ANALYZE`` of three bench queries), not a scan."""
    from benchmarks.search_profile import explain

    plans = explain(scope_of("heavy"), 3)
    results["meaning_plans_on_hnsw"] = sum("poco_memories_second_hnsw_idx" in p for p in plans)
    results["meaning_plans"] = len(plans)
