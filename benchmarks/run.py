"""`make bench`: the service at a real user's scale, measured side by side in one run.

Seeds ``100,000 x BENCH_SCALE`` synthetic memories (benchmarks/corpus.py) over 50 users plus a
heavy user holding ``20,000 x BENCH_SCALE`` through the import (memory_add_many), starts the real
server (``python -m poco_memory.launcher``) on the bench database, and measures search over HTTP
at concurrency 1 and 16 beside Mem0's own ``Memory.search`` and the SQL floor, explicit adds over
HTTP at three scope sizes, 50 concurrent adds to one scope, ingest throughput, delete-user with
the clean-up verified, and the resident memory of the processes.  Writes
``benchmarks/results/latest.json`` and the table in ``docs/benchmarks.md``.  Never part of
``make test``; the exit status is 0 even when a target is missed (the table says which).

Its own embedded PostgreSQL lives in ``.data/bench`` (``BENCH_DATA_DIR``), so tests and a dev
server are untouched; the server listens on ``BENCH_PORT`` (8160).
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import platform
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SCALE = float(os.environ.get("BENCH_SCALE", "1"))
PORT = int(os.environ.get("BENCH_PORT", "8160"))
DATA_DIR = Path(os.environ.get("BENCH_DATA_DIR", ROOT / ".data" / "bench")).resolve()
TOKEN = "bench-" + uuid.uuid4().hex
TENANT = "bench"
USERS = 50
TOTAL = max(USERS * 10, int(100_000 * SCALE))
HEAVY = max(200, int(20_000 * SCALE))
MEDIUM = max(100, int(2_000 * SCALE))
# The heavy user is seeded to exactly the default per-user cap and then gets more adds: the bench
# measures a full-size scope, not the cap (the bench process and its server read this).
os.environ.setdefault("POCO_MAX_MEMORIES_PER_USER", str(2 * HEAVY))
SMALL = 100
BATCH = 256
SEARCH_ROUNDS_C1 = 200
SEARCH_REQUESTS_C16 = 800
ADD_SAMPLES = 40
CONCURRENT_ADDS = 50
INGEST_JOBS = 40
RESULTS = ROOT / "benchmarks" / "results" / "latest.json"
DOC = ROOT / "docs" / "benchmarks.md"

# key -> (target, "max" when lower is better / "min" when higher is better)
TARGETS: dict[str, tuple[float, str]] = {
    "search_http_c1_p95_ms": (60.0, "max"),
    "search_http_c16_p95_ms": (150.0, "max"),
    "add_http_20000_p50_ms": (60.0, "max"),
    "add_http_20000_p95_ms": (80.0, "max"),
    "concurrent_adds_50_total_ms": (3000.0, "max"),
    "batch_import_per_s": (100.0, "min"),
    "delete_user_20000_ms": (10_000.0, "max"),
    # Ratios within one run: they hold on a busy machine where absolute figures cannot.
    "search_http_c1_p95_over_floor_bound": (1.0, "max"),
    "search_http_c1_p95_over_mem0": (1.0, "max"),
    "add_http_20000_p50_over_100": (1.5, "max"),
    "add_http_20000_p50_over_mem0": (2.5, "max"),
    "delete_user_20000_left_anywhere": (0, "max"),
    "delete_user_2000_left_anywhere": (0, "max"),
}


def ratios(results: dict[str, Any]) -> None:
    """The issue's relative targets: HTTP search p95 within 2 x the SQL floor plus the query
    embedding, never slower than Mem0's search; an add's cost flat in the scope's size and
    within 2.5 x Mem0's own add."""

    def ratio(a: str, b: float) -> float:
        return round(float(results[a]) / b, 2) if b else 0.0

    bound = 2 * results["search_sql_floor_p95_ms"] + results["query_embedding_p95_ms"]
    results["search_http_c1_p95_over_floor_bound"] = ratio("search_http_c1_p95_ms", bound)
    results["search_http_c1_p95_over_mem0"] = ratio(
        "search_http_c1_p95_ms", results["search_mem0_inprocess_p95_ms"]
    )
    results["add_http_20000_p50_over_100"] = ratio(
        "add_http_20000_p50_ms", results["add_http_100_p50_ms"]
    )
    results["add_http_20000_p50_over_mem0"] = ratio(
        "add_http_20000_p50_ms", results["add_mem0_inprocess_p50_ms"]
    )


def percentiles(prefix: str, samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)

    def at(q: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 2)

    return {f"{prefix}_p50_ms": at(0.5), f"{prefix}_p95_ms": at(0.95), f"{prefix}_p99_ms": at(0.99)}


def timed(call: Callable[[], Any]) -> tuple[float, Any]:
    started = time.perf_counter()
    result = call()
    return (time.perf_counter() - started) * 1000, result


def log(message: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {message}", flush=True)


# --- the bench database, in this process ---------------------------------------------------
def setup_django() -> None:
    os.environ["POCO_DATA_DIR"] = str(DATA_DIR)
    os.environ.pop("DATABASE_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "poco_memory.settings")
    import django

    from poco_memory import embedded_db

    embedded_db.start_if_configured()
    django.setup()
    from django.core.management import call_command

    call_command("migrate", interactive=False, verbosity=0)


def empty_database() -> None:
    """Every run starts from nothing (the bench database holds only bench data)."""
    from django.db import connection

    with connection.cursor() as cur:
        cur.execute(
            "TRUNCATE poco_memories, poco_memories_entities, memories_auditevent, "
            "memories_deletionmark"
        )
    # Mem0's history/messages store keeps nothing here (engine.adapter.NoSessionStore).


def scope_of(user: str) -> Any:
    from memories.types import MemoryScope

    return MemoryScope(tenant_id=TENANT, user_id=user)


def seed(results: dict[str, Any]) -> dict[str, int]:
    """Every scope through the import (``portability.memory_import``: admission, duplicate
    check and supersede per item, ``memory_add_many`` per chunk); returns the stored sizes."""
    from benchmarks import corpus
    from memories.contract.export_document import MAX_IMPORT_ITEMS
    from memories.engine import get_engine
    from memories.ops.portability import memory_import
    from memories.types import Actor, ActorKind

    engine = get_engine()
    actor = Actor(kind=ActorKind.SYSTEM, id="bench")
    light = (TOTAL - HEAVY - MEDIUM - SMALL) // USERS
    sizes = {"heavy": HEAVY, "medium": MEDIUM, "small": SMALL}
    sizes |= {f"user{n:02d}": light for n in range(USERS)}
    # The bundled embedder alone, the ceiling of any import rate on this machine.
    sample = list(corpus.texts(seed=4242, count=BATCH, start=9 * 10**6))
    engine._memory.embedding_model.embed_batch(sample[:8], "add")  # load the model first
    ms, _ = timed(lambda: engine._memory.embedding_model.embed_batch(sample, "add"))
    results["embedder_batch_texts_per_s"] = round(len(sample) / (ms / 1000), 1)
    imported = stored = 0
    started = time.perf_counter()
    for index, (user, size) in enumerate(sizes.items()):
        scope = scope_of(user)
        texts = corpus.texts(seed=index, count=size)
        added = 0
        while documents := [
            {"content": t, "category": "fact"}
            for _, t in zip(range(MAX_IMPORT_ITEMS), texts, strict=False)
        ]:
            report = memory_import(scope=scope, items=documents, actor=actor)
            assert report.success, report.backend_error
            added += report.count("added") + report.count("superseded")
            imported += len(documents)
        # A synthetic text that repeats an earlier one is a NOOP, as for any import.
        sizes[user] = added
        stored += added
        log(f"seeded {user}: {added} of {size} ({stored} stored)")
    elapsed = time.perf_counter() - started
    results["seeded_memories"] = stored
    results["batch_import_items"] = imported
    results["batch_import_per_s"] = round(imported / elapsed, 1)
    second_vectors(results, ["heavy", "medium", "small"])
    settle(results)
    return sizes


def settle(results: dict[str, Any]) -> None:
    """Vacuum and analyse what the seeding wrote, so that the measurements see the tables as a
    running service does.  Storing the measured users' second vectors updates 22,100 rows (a
    non-HOT update leaves a dead tuple and an entry in every index, the two HNSW graphs too):
    the autovacuum that follows ran for minutes through the search timings on one of the two
    cores (in the run on 04f7efc it finished after the in-process searches).  A VACUUM asked for
    here cancels it and does the same work before the first timing."""
    from memories.engine import get_engine

    started = time.perf_counter()
    with get_engine()._memory.vector_store.connection_pool.connection() as conn:
        conn.autocommit = True  # VACUUM runs outside a transaction
        try:
            for table in ("poco_memories", "poco_memories_entities", "poco_memories_term_df"):
                conn.execute(f"VACUUM (ANALYZE) {table}")
        finally:
            conn.autocommit = False
    results["settle_vacuum_s"] = round(time.perf_counter() - started, 1)
    log(f"vacuumed and analysed the seeded tables in {results['settle_vacuum_s']} s")


def second_vectors(results: dict[str, Any], users: list[str]) -> None:
    """The import leaves second vectors to the queue's backfill (search uses what is filled):
    fill the measured users' now, on both cores (the C engine runs threads in parallel), so their
    searches pay the meaning channel. The other users' wait; the server's worker does not fill
    them during the measurements (POCO_SECOND_MODEL_BACKFILL_PER_MINUTE=0)."""
    from memories.engine import get_engine

    engine = get_engine()
    model = engine.second_model()
    if model is None:
        return
    with engine._memory.vector_store._get_cursor() as cur:
        cur.execute(
            "SELECT id::text, payload->>'data' FROM poco_memories WHERE scope_key = ANY(%s)",
            ([scope_of(user).key for user in users],),
        )
        rows = [(str(i), str(t)) for i, t in cur.fetchall()]

    def fill(part: list[tuple[str, str]]) -> None:
        for start in range(0, len(part), 64):
            chunk = part[start : start + 64]
            vectors = model.passages([text for _, text in chunk])
            engine.write_second_vectors(
                [(i, t, v) for (i, t), v in zip(chunk, vectors, strict=True)], model=model.name
            )

    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=2) as pool:
        list(pool.map(fill, [rows[0::2], rows[1::2]]))
    results["second_backfill_memories"] = len(rows)
    results["second_backfill_per_s"] = round(len(rows) / (time.perf_counter() - started), 1)
    rate = results["second_backfill_per_s"]
    log(f"second vectors of {', '.join(users)}: {len(rows)} at {rate}/s")


# --- the real server -------------------------------------------------------------------------
@contextlib.contextmanager
def server() -> Iterator[subprocess.Popen[bytes]]:
    from django.conf import settings

    env = {
        **os.environ,
        "PORT": str(PORT),
        "DATABASE_URL": settings.DATABASE_URL,
        "POCO_DATA_DIR": str(DATA_DIR),
        "POCO_SERVICE_TOKENS": TOKEN,
        "POCO_DEMO_DATA": "0",
        "POCO_SECOND_MODEL_BACKFILL_PER_MINUTE": "0",
        "PYTHONPATH": str(ROOT),
    }
    env.pop("POCO_DEBUG", None)
    DATA_DIR.mkdir(parents=True, exist_ok=True)
    output = (DATA_DIR / "server.log").open("ab")
    process = subprocess.Popen(
        [sys.executable, "-m", "poco_memory.launcher"],
        env=env,
        cwd=ROOT,
        stdout=output,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 300
        while True:
            assert process.poll() is None, "the server exited during start-up"
            assert time.monotonic() < deadline, "the server did not become healthy"
            with contextlib.suppress(OSError, http.client.HTTPException):
                if Client().get("/health")[0] == 200:
                    break
            time.sleep(0.5)
        yield process
    finally:
        process.terminate()
        process.wait(timeout=60)
        output.close()


class Client:
    """One keep-alive connection (one per thread), bearer token set."""

    def __init__(self) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=120)

    def get(self, path: str) -> tuple[int, Any]:
        self.conn.request("GET", path, headers={"Authorization": f"Bearer {TOKEN}"})
        response = self.conn.getresponse()
        data = response.read()
        return response.status, data

    def post(self, op: str, body: dict[str, Any]) -> tuple[int, Any]:
        self.conn.request(
            "POST",
            f"/v1/memories/{op}",
            body=json.dumps(body),
            headers={"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"},
        )
        response = self.conn.getresponse()
        data = response.read()
        return response.status, json.loads(data) if data else None


def body(user: str, **fields: Any) -> dict[str, Any]:
    return {"tenant_id": TENANT, "user_id": user, **fields}


def warm_up() -> None:
    """Every web process loads its models on first use: touch each a few times."""
    for _ in range(8):
        Client().post("search", body("heavy", query="预热"))
        Client().post("manage", body("warmup", action="add", text=f"预热 {uuid.uuid4().hex}"))


# --- measurements ----------------------------------------------------------------------------
def search_http(results: dict[str, Any]) -> None:
    from benchmarks.corpus import QUERIES

    client = Client()
    samples: list[float] = []
    for n in range(SEARCH_ROUNDS_C1):
        ms, (status, answer) = timed(
            lambda n=n: client.post("search", body("heavy", query=QUERIES[n % len(QUERIES)]))
        )
        assert status == 200 and answer["available"], answer
        samples.append(ms)
    results |= percentiles("search_http_c1", samples)

    local = threading.local()

    def one(n: int) -> float:
        if not hasattr(local, "client"):
            local.client = Client()
        query = QUERIES[n % len(QUERIES)]
        ms, (status, answer) = timed(
            lambda: local.client.post("search", body("heavy", query=query))
        )
        assert status == 200 and answer["available"], answer
        return ms

    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=16) as pool:
        concurrent = list(pool.map(one, range(SEARCH_REQUESTS_C16)))
    results |= percentiles("search_http_c16", concurrent)
    results["search_http_c16_per_s"] = round(
        SEARCH_REQUESTS_C16 / (time.perf_counter() - started), 1
    )


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


def adds_http(results: dict[str, Any], sizes: dict[str, int]) -> None:
    from benchmarks import corpus
    from memories.engine import get_engine

    client = Client()
    for user, label in (("small", "100"), ("medium", "2000"), ("heavy", "20000")):
        samples: list[float] = []
        for text in corpus.texts(seed=1000 + sizes[user], count=ADD_SAMPLES, start=10**6):
            ms, (status, answer) = timed(
                lambda text=text, user=user: client.post(
                    "manage", body(user, action="add", text=text)
                )
            )
            assert status == 200 and answer["status"] == "added", answer
            samples.append(ms)
        results |= percentiles(f"add_http_{label}", samples)
        results[f"add_http_{label}_scope_size"] = sizes[user]
    # Mem0's own in-process add of the same kind of text (no entity linking: infer=False).
    engine = get_engine()
    key = scope_of("mem0-own-add").key
    own = [
        timed(
            lambda text=text: engine._memory.add(
                [{"role": "user", "content": text}], user_id=key, infer=False
            )
        )[0]
        for text in corpus.texts(seed=7, count=ADD_SAMPLES, start=2 * 10**6)
    ]
    results |= percentiles("add_mem0_inprocess", own)
    add_with_and_without_second(results)


def add_with_and_without_second(results: dict[str, Any]) -> None:
    """The product's add into the heavy user in process, with its second vector and without
    (the second model off), alternating: what the second vector costs an add, same run."""
    from django.test import override_settings

    from benchmarks import corpus
    from memories.services import memory_add
    from memories.types import Actor, ActorKind

    scope = scope_of("heavy")
    actor = Actor(kind=ActorKind.SYSTEM, id="bench")
    texts = list(corpus.texts(seed=11, count=2 * ADD_SAMPLES, start=4 * 10**6))
    withs: list[float] = []
    withouts: list[float] = []
    for n, text in enumerate(texts):
        add = lambda text=text: memory_add(scope=scope, text=text, actor=actor)  # noqa: E731
        if n % 2:
            with override_settings(SECOND_MODEL="off"):
                withouts.append(timed(add)[0])
        else:
            withs.append(timed(add)[0])
    results |= percentiles("add_inprocess_20000_with_second", withs)
    results |= percentiles("add_inprocess_20000_without_second", withouts)


def concurrent_adds(results: dict[str, Any]) -> None:
    from benchmarks import corpus
    from memories.models import MemoryRow

    user = "concurrent"
    texts = list(corpus.texts(seed=99, count=CONCURRENT_ADDS, start=3 * 10**6))

    def add(text: str) -> str:
        status, answer = Client().post("manage", body(user, action="add", text=text))
        assert status == 200, answer
        return str(answer["status"])

    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=CONCURRENT_ADDS) as pool:
        statuses = list(pool.map(add, texts))
    results["concurrent_adds_50_total_ms"] = round((time.perf_counter() - started) * 1000, 1)
    stored = [
        r.payload["data"] for r in MemoryRow.objects.filter(payload__user_id=scope_of(user).key)
    ]
    results["concurrent_adds_50_each_stored_once"] = statuses == ["added"] * CONCURRENT_ADDS and (
        len(stored) == CONCURRENT_ADDS and len(set(stored)) == CONCURRENT_ADDS
    )


def ingest(results: dict[str, Any]) -> None:
    client = Client()
    jobs = []
    started = time.perf_counter()
    for n in range(INGEST_JOBS):
        messages = [
            {"role": "user", "content": f"以后第{n}号项目的技术方案都使用简体中文，结论先行。"},
            {
                "role": "assistant",
                "content": f"好的，已确认：第{n}号项目的技术方案统一使用简体中文。",
            },
        ]
        status, answer = client.post(
            "ingest",
            body("ingest", run_id=f"run-{n}", source="task_completed", messages=messages),
        )
        assert status == 202, answer
        jobs.append(answer["job_id"])
    final = {"succeeded", "no_effect", "skipped", "failed"}
    pending = set(jobs)
    outcomes: dict[str, str] = {}
    while pending:
        assert time.perf_counter() - started < 600, f"{len(pending)} ingest jobs never finished"
        for job in list(pending):
            status, data = client.get(
                f"/v1/memories/ingest/{job}?tenant_id={TENANT}&user_id=ingest"
            )
            state = json.loads(data)["status"]
            if state in final:
                outcomes[job] = state
                pending.discard(job)
        time.sleep(0.2)
    results["ingest_jobs_per_s"] = round(INGEST_JOBS / (time.perf_counter() - started), 2)
    results["ingest_jobs_succeeded"] = sum(1 for s in outcomes.values() if s == "succeeded")


def delete_user(results: dict[str, Any], user: str, label: str) -> None:
    from memories.models import AuditEvent, EntityRow, MemoryRow

    key = scope_of(user).key
    ms, (status, answer) = timed(lambda: Client().post("delete-user", body(user)))
    assert status == 200, answer
    left = (
        MemoryRow.objects.filter(payload__user_id=key).count()
        + EntityRow.objects.filter(payload__user_id=key).count()
        + AuditEvent.objects.filter(tenant_id=TENANT, user_id=user)
        .exclude(old_text="", new_text="")
        .count()
    )
    results[f"delete_user_{label}_ms"] = round(ms, 1)
    results[f"delete_user_{label}_deleted"] = int(answer["deleted_count"])
    results[f"delete_user_{label}_left_anywhere"] = left


def resident_memory(results: dict[str, Any], launcher: subprocess.Popen[bytes]) -> None:
    import psutil

    web: list[float] = []
    worker: list[float] = []
    for child in psutil.Process(launcher.pid).children(recursive=True):
        with contextlib.suppress(psutil.Error):
            cmdline = " ".join(child.cmdline())
            rss = child.memory_info().rss / 2**20
            if "poco_memory.launcher web" in cmdline:
                web.append(rss)
            elif "procrastinate" in cmdline:
                worker.append(rss)
    results["rss_web_process_mb"] = round(max(web, default=0.0), 1)
    results["rss_web_processes"] = len(web)
    results["rss_worker_process_mb"] = round(max(worker, default=0.0), 1)


# --- reporting -------------------------------------------------------------------------------
def machine() -> dict[str, Any]:
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    return {
        "machine": f"{platform.machine()} {os.cpu_count()} cores, {platform.system()}",
        "python": platform.python_version(),
        "commit": commit,
        "when": datetime.now(UTC).strftime("%Y-%m-%dT%H:%MZ"),
        "bench_scale": SCALE,
        "load_average_at_start": round(os.getloadavg()[0], 2),
    }


def verdicts(results: dict[str, Any]) -> dict[str, str]:
    found = {}
    for key, (target, sense) in TARGETS.items():
        if key not in results:
            continue
        ok = results[key] <= target if sense == "max" else results[key] >= target
        found[key] = "met" if ok else "MISSED"
    return found


def write(results: dict[str, Any]) -> None:
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n")
    rows = ["| measure | value | target | |", "|---|---:|---:|---|"]
    judged = verdicts(results)
    for key, value in results.items():
        target = TARGETS.get(key)
        shown = f"{'≤' if target[1] == 'max' else '≥'} {target[0]:g}" if target else ""
        rows.append(f"| `{key}` | {value} | {shown} | {judged.get(key, '')} |")
    table = "\n".join(rows)
    begin, end = "<!-- bench:begin -->", "<!-- bench:end -->"
    text = DOC.read_text() if DOC.exists() else f"# Benchmarks\n\n{begin}\n{end}\n"
    head, rest = text.split(begin, 1)
    tail = rest.split(end, 1)[1]
    DOC.write_text(f"{head}{begin}\n{table}\n{end}{tail}")


def main() -> int:
    setup_django()
    results: dict[str, Any] = machine()
    empty_database()
    log(f"seeding {TOTAL} memories (heavy user {HEAVY})")
    sizes = seed(results)
    log(f"batch import: {results['batch_import_per_s']}/s; starting the server on :{PORT}")
    with server() as launcher:
        warm_up()
        log("search over HTTP")
        search_http(results)
        log("search in process (Mem0, SQL floor)")
        search_in_process(results)
        log("adds over HTTP")
        adds_http(results, sizes)
        concurrent_adds(results)
        log("ingest")
        ingest(results)
        resident_memory(results, launcher)
        log("delete-user")
        delete_user(results, "medium", "2000")
        delete_user(results, "heavy", "20000")
    ratios(results)
    results["delete_user_2000_scope_size"] = sizes["medium"]
    results["delete_user_20000_scope_size"] = sizes["heavy"]
    write(results)
    for key, value in results.items():
        print(f"{key:42} {value}")
    missed = [k for k, v in verdicts(results).items() if v != "met"]
    print("targets missed: " + (", ".join(missed) if missed else "none"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
