"""`make eval`: recall quality on the shipped labelled set (eval/dataset.py), on the real stack.

Stores every memory of the set in fresh scopes of the configured database, asks every query
through each channel combination of ``memories.selectors.recall_channels`` + ``memories.fusion``
and through raw mem0ai (``Memory.search`` with the same embedder, threshold 0, and at the
product's old floor), then prints hit@1, hit@3, MRR (over the top 5) per query kind and the
number of negatives that answered anything.  It does so twice: on the scopes as written, and on
the grown scopes (``dataset.grown_memories``: 30 more projects per scope, past the 60
candidates Mem0's search draws from its vector search), where the questions about grown
projects (``dataset.grown_queries``) are asked too.  ``--write`` puts both tables into
docs/retrieval.md.  The scopes are deleted afterwards.  Measures, never asserts: not part of
`make test`.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import time
import uuid
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path

TOP_K = 5
DOC = Path(__file__).resolve().parent.parent / "docs" / "retrieval.md"
BEGIN, END = "<!-- eval:begin -->", "<!-- eval:end -->"

Ranker = Callable[[object, str], list[str]]


def _setup() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "poco_memory.settings")
    import django

    from poco_memory import embedded_db

    # Like `make run`: the embedded server unless DATABASE_URL is set (stopped at exit).
    embedded_db.start_if_configured()
    django.setup()
    from django.core.management import call_command

    call_command("migrate", interactive=False, verbosity=0)


def _systems(pool: int) -> dict[str, Ranker]:
    """name -> (scope, query) -> memory ids, best first."""
    from django.conf import settings

    from memories import selectors
    from memories.engine import get_engine
    from memories.fusion import fuse
    from memories.types import Channel

    memory = get_engine()._memory  # raw Mem0, same embedder and tables (eval only)
    cache: dict[tuple[str, str], dict] = {}

    def channels(scope, query: str) -> dict:
        key = (scope.key, query)
        if key not in cache:
            cache[key] = selectors.recall_channels(scope=scope, query=query, pool=pool)
        return cache[key]

    def fused(*use: Channel) -> Ranker:
        return lambda scope, query: [
            h.id for h in fuse(channels(scope, query), top_k=TOP_K, use=use)
        ]

    def mem0(threshold: float) -> Ranker:
        def rank(scope, query: str) -> list[str]:
            found = memory.search(
                query, top_k=TOP_K, threshold=threshold, filters={"user_id": scope.key}
            )
            return [str(r["id"]) for r in found.get("results", [])]

        return rank

    return {
        "mem0 raw (threshold 0)": mem0(0.0),
        f"mem0 at the floor ({settings.SEARCH_MIN_SCORE})": mem0(settings.SEARCH_MIN_SCORE),
        "vector only": fused(Channel.VECTOR),
        "vector + keyword": fused(Channel.VECTOR, Channel.KEYWORD),
        "vector + entity": fused(Channel.VECTOR, Channel.ENTITY),
        "fused (all three)": fused(Channel.VECTOR, Channel.KEYWORD, Channel.ENTITY),
    }


def _store(scopes: dict[str, dict[str, str]], run: str) -> tuple[dict, dict[str, dict[str, str]]]:
    from memories import services
    from memories.types import Actor, ActorKind, MemoryScope

    actor = Actor(kind=ActorKind.SYSTEM, id="eval")
    made: dict[str, MemoryScope] = {}
    ids: dict[str, dict[str, str]] = {}
    for name, texts in scopes.items():
        scope = MemoryScope(tenant_id="eval", user_id=f"{name}-{run}")
        made[name] = scope
        ids[name] = {}
        for key, text in texts.items():
            outcome = services.memory_add(scope=scope, text=text, actor=actor)
            if outcome.memory_id is None:
                raise SystemExit(f"could not store {key!r}: {outcome}")
            ids[name][key] = outcome.memory_id
    return made, ids


def _score(ranked: Sequence[str], relevant: set[str]) -> tuple[float, float, float]:
    for position, memory_id in enumerate(ranked[:TOP_K], start=1):
        if memory_id in relevant:
            return float(position == 1), float(position <= 3), 1.0 / position
    return 0.0, 0.0, 0.0


def evaluate(pool: int, misses: bool = False, grown: bool = False) -> str:
    from eval import dataset

    run = uuid.uuid4().hex[:8]
    stored = dataset.grown_memories() if grown else dataset.memories()
    queries = dataset.QUERIES + (dataset.grown_queries() if grown else [])
    scopes, ids = _store(stored, run)
    systems = _systems(pool)
    key_of = {memory_id: key for scope_ids in ids.values() for key, memory_id in scope_ids.items()}
    # system -> kind -> [hit1, hit3, rr] sums and counts; negatives: answered count
    sums: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(lambda: [0.0] * 4))
    started = time.perf_counter()
    try:
        for query in queries:
            scope = scopes[query.scope]
            relevant = {ids[query.scope][key] for key in query.relevant}
            for name, rank in systems.items():
                ranked = rank(scope, query.text)
                row = sums[name][query.kind]
                row[3] += 1
                if query.kind == "negative":
                    row[0] += float(bool(ranked))
                    continue
                scored = _score(ranked, relevant)
                for i, value in enumerate(scored):
                    row[i] += value
                if misses and scored[0] < 1.0 and name.startswith(("fused", "mem0 raw")):
                    print(
                        f"miss [{name}]{' grown' if grown else ''} {query.kind} {query.scope}: "
                        f"{query.text!r} -> "
                        f"{[key_of.get(i, '?') for i in ranked[:3]]} want {query.relevant}"
                    )
    finally:
        from memories import services
        from memories.types import Actor, ActorKind

        for scope in scopes.values():
            services.memory_delete_user(scope=scope, actor=Actor(kind=ActorKind.SYSTEM, id="eval"))
    elapsed = time.perf_counter() - started
    return _table(sums, queries, stored, elapsed)


def _table(sums, queries, stored: dict[str, dict[str, str]], elapsed: float) -> str:
    from eval.dataset import KINDS

    positives = [k for k in KINDS if k != "negative"]
    counts = {k: sum(1 for q in queries if q.kind == k) for k in KINDS}
    sizes = ", ".join(str(len(v)) for v in stored.values())
    lines = [
        f"{len(queries)} queries over {sum(len(v) for v in stored.values())} memories "
        f"in {len(stored)} scopes ({sizes}); top {TOP_K}; cells are hit@1 / hit@3 / MRR; "
        f"negatives: how many of the {counts['negative']} answered anything (0 is right).",
        "",
        "| system | "
        + " | ".join(f"{k} ({counts[k]})" for k in positives)
        + " | all | negatives answered |",
        "|---" * (len(positives) + 3) + "|",
    ]
    for name, kinds in sums.items():
        cells = []
        total = [0.0, 0.0, 0.0, 0.0]
        for kind in positives:
            h1, h3, rr, n = kinds[kind]
            total = [a + b for a, b in zip(total, (h1, h3, rr, n), strict=True)]
            cells.append(f"{h1 / n:.2f} / {h3 / n:.2f} / {rr / n:.2f}")
        h1, h3, rr, n = total
        cells.append(f"**{h1 / n:.2f} / {h3 / n:.2f} / {rr / n:.2f}**")
        negatives = kinds["negative"]
        cells.append(f"{int(negatives[0])} / {int(negatives[3])}")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    lines += ["", f"(queries answered in {elapsed:.1f} s for all systems together)"]
    return "\n".join(lines)


def _write(table: str) -> None:
    text = DOC.read_text(encoding="utf-8")
    pattern = re.compile(re.escape(BEGIN) + ".*?" + re.escape(END), re.S)
    if not pattern.search(text):
        raise SystemExit(f"{DOC} has no {BEGIN} … {END} block")
    DOC.write_text(pattern.sub(lambda _: f"{BEGIN}\n{table}\n{END}", text), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--write", action="store_true", help="update the table in docs/retrieval.md"
    )
    parser.add_argument("--pool", type=int, default=40, help="candidates per channel")
    parser.add_argument("--misses", action="store_true", help="print every query not hit first")
    args = parser.parse_args(argv)
    _setup()
    table = "\n\n".join(
        f"**{title}**\n\n" + evaluate(args.pool, misses=args.misses, grown=grown)
        for title, grown in (("As written", False), ("Grown: 30 more projects per scope", True))
    )
    print(table)
    if args.write:
        _write(table)
        print(f"\nwritten to {DOC}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
