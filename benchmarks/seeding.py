"""The bench database: its own embedded PostgreSQL in ``DATA_DIR``, seeded through the import.

A full run empties it and seeds every user; the search-only run (``--only search``) seeds just
the users it measures and reuses them while their fingerprint holds (``reuse_or_seed``).
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from benchmarks.scale import (
    BATCH,
    DATA_DIR,
    HEAVY,
    MEDIUM,
    ROOT,
    SMALL,
    TOTAL,
    USERS,
    log,
    scope_of,
    timed,
)

# What a kept database was seeded for: the search-only run reuses it while this matches.
FINGERPRINT = DATA_DIR / "seeded.json"


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
    """Every seeding starts from nothing (the bench database holds only bench data)."""
    from django.db import connection

    FINGERPRINT.unlink(missing_ok=True)
    with connection.cursor() as cur:
        cur.execute(
            "TRUNCATE poco_memories, poco_memories_entities, memories_auditevent, "
            "memories_deletionmark"
        )
    # Mem0's history/messages store keeps nothing here (engine.adapter.NoSessionStore).


def all_users() -> dict[str, int]:
    """Every user of a full run and the size each is seeded to, in seeding order (a user's
    corpus seed is its position: the heavy user's texts are the same in every mode)."""
    light = (TOTAL - HEAVY - MEDIUM - SMALL) // USERS
    sizes = {"heavy": HEAVY, "medium": MEDIUM, "small": SMALL}
    return sizes | {f"user{n:02d}": light for n in range(USERS)}


def seed(results: dict[str, Any], users: list[str]) -> dict[str, int]:
    """``users`` through the import (``portability.memory_import``: admission, duplicate check
    and supersede per item, ``memory_add_many`` per chunk); returns the stored sizes."""
    from benchmarks import corpus
    from memories.engine import get_engine
    from memories.export_document import MAX_IMPORT_ITEMS
    from memories.ops.portability import memory_import
    from memories.types import Actor, ActorKind

    engine = get_engine()
    actor = Actor(kind=ActorKind.SYSTEM, id="bench")
    wanted = all_users()
    # The bundled embedder alone, the ceiling of any import rate on this machine.
    sample = list(corpus.texts(seed=4242, count=BATCH, start=9 * 10**6))
    engine._memory.embedding_model.embed_batch(sample[:8], "add")  # load the model first
    ms, _ = timed(lambda: engine._memory.embedding_model.embed_batch(sample, "add"))
    results["embedder_batch_texts_per_s"] = round(len(sample) / (ms / 1000), 1)
    sizes: dict[str, int] = {}
    imported = stored = 0
    started = time.perf_counter()
    for index, (user, size) in enumerate(wanted.items()):
        if user not in users:
            continue
        texts = corpus.texts(seed=index, count=size)
        added = 0
        while documents := [
            {"content": t, "category": "fact"}
            for _, t in zip(range(MAX_IMPORT_ITEMS), texts, strict=False)
        ]:
            report = memory_import(scope=scope_of(user), items=documents, actor=actor)
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
    second_vectors(results, [user for user in ("heavy", "medium", "small") if user in users])
    settle(results)
    return sizes


def fingerprint(users: list[str]) -> str:
    """What the seeded rows depend on: the corpus, the sizes, the schema, the second model."""
    from django.conf import settings

    migrations = sorted(path.name for path in (ROOT / "memories" / "migrations").glob("0*.py"))
    parts = {
        "corpus": hashlib.sha256((ROOT / "benchmarks" / "corpus.py").read_bytes()).hexdigest(),
        "users": {user: all_users()[user] for user in users},
        "migrations": migrations,
        "second_model": settings.SECOND_MODEL,
    }
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()


def reuse_or_seed(results: dict[str, Any], users: list[str]) -> dict[str, int]:
    """The stored sizes of ``users``, seeded anew unless the kept database was seeded for the
    same fingerprint (the search-only run writes nothing to them)."""
    from memories.engine import get_engine

    wanted = fingerprint(users)
    kept = json.loads(FINGERPRINT.read_text()) if FINGERPRINT.exists() else {}
    if kept.get("fingerprint") != wanted:
        empty_database()
        sizes = seed(results, users)
        FINGERPRINT.write_text(json.dumps({"fingerprint": wanted, "sizes": sizes}))
        return sizes
    log(f"reusing the seeded {', '.join(users)} in {DATA_DIR}")
    keys = [scope_of(user).key for user in users]
    with get_engine()._memory.vector_store._get_cursor() as cur:
        cur.execute(
            "SELECT scope_key, count(*) FROM poco_memories WHERE scope_key = ANY(%s) "
            "GROUP BY scope_key",
            (keys,),
        )
        counts = dict(cur.fetchall())
    sizes = {str(user): int(size) for user, size in kept["sizes"].items()}
    assert [counts.get(scope_of(user).key) for user in users] == [sizes[u] for u in users], (
        f"{DATA_DIR} holds other rows than it was seeded with: remove {FINGERPRINT}"
    )
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
