"""`make eval`: recall quality on the shipped labelled set (eval/dataset.py), on the real stack.

Stores every memory of the set in fresh scopes of the configured database, asks every query
through each channel combination of ``memories.selectors.recall_channels`` and
``memories.recall.fusion``, and through raw mem0ai (``Memory.search`` with the same embedder,
threshold 0, and at the product's old floor), then prints hit@1, hit@3, MRR (over the top 5) per
query kind and the number of negatives that answered anything.  It does so twice: on the scopes
as written, and on
the grown scopes (``dataset.grown_memories``: 30 more projects per scope, past the 60
candidates Mem0's search draws from its vector search), where the questions about grown
projects (``dataset.grown_queries``) are asked too.  Then the conversation set
(eval/conversations.py): every turn of six multi-session dialogues stored as one memory, every
question about earlier sessions asked of the same systems and of the keyword and entity
channels alone, scored as evidence hit@5, hit@10 and recall@10.  ``--write`` puts the tables
into docs/retrieval.md; ``--only`` runs one part (a quicker look, written only where its own
tables go).  Then the as-of kind (eval/as_of.py): what was true at a date.  The scopes are
deleted afterwards.  Measures, never asserts: not part of `make
test`.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import time
import uuid
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

TOP_K = 5
CONVERSATION_TOP_K = 10
DOC = Path(__file__).resolve().parent.parent / "docs" / "retrieval.md"
BEGIN, END = "<!-- eval:begin -->", "<!-- eval:end -->"
CONVERSATIONS_BEGIN, CONVERSATIONS_END = (
    "<!-- eval-conversations:begin -->",
    "<!-- eval-conversations:end -->",
)

AS_OF_BEGIN, AS_OF_END = "<!-- eval-as-of:begin -->", "<!-- eval-as-of:end -->"

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


def _systems(
    pool: int, top_k: int = TOP_K, single: bool = False, answer_all: bool = False
) -> dict[str, Ranker]:
    """name -> (scope, query) -> memory ids, best first; ``single`` adds the keyword and the
    entity channel alone; ``answer_all`` the product answering every question (``--answer-all``:
    where no channel has evidence, a model's own unfloored order fills the answer)."""
    from django.conf import settings

    from memories import selectors
    from memories.engine import get_engine
    from memories.engine.extraction.keys import stated_key
    from memories.recall.fusion import asks_about_now, asks_about_past, fuse
    from memories.selectors.asked import asked_first
    from memories.types import Channel

    memory = get_engine()._memory  # raw Mem0, same embedder and tables (eval only)
    cache: dict[tuple[str, str], dict] = {}

    def channels(scope, query: str) -> dict:
        key = (scope.key, query)
        if key not in cache:
            cache[key] = selectors.recall_channels(scope=scope, query=query, pool=pool)
        return cache[key]

    def fused(*use: Channel, product: bool = False) -> Ranker:
        # The product ranks the newer first for a question about now, a key's current value
        # before its past unless the past is asked about, and puts what the question asks for
        # by what it is first (memories.selectors.asked), as search does.
        return lambda scope, query: [
            h.id
            for h in fuse(
                channels(scope, query),
                top_k=top_k,
                use=use,
                newer_first=product and asks_about_now(query),
                present_first=product and not asks_about_past(query),
                stated=stated_key,
                listed=asked_first(query, channels(scope, query).get(Channel.MEANING, ()))
                if product
                else (),
            )
        ]

    def mem0(threshold: float) -> Ranker:
        def rank(scope, query: str) -> list[str]:
            found = memory.search(
                query, top_k=top_k, threshold=threshold, filters={"user_id": scope.key}
            )
            return [str(r["id"]) for r in found.get("results", [])]

        return rank

    systems = {
        "mem0 raw (threshold 0)": mem0(0.0),
        f"mem0 at the floor ({settings.SEARCH_MIN_SCORE})": mem0(settings.SEARCH_MIN_SCORE),
        "vector only": fused(Channel.VECTOR),
    }
    if single:
        systems["keyword only"] = fused(Channel.KEYWORD)
        systems["entity only"] = fused(Channel.ENTITY)
    systems.update(
        {
            "vector + keyword": fused(Channel.VECTOR, Channel.KEYWORD),
            "vector + entity": fused(Channel.VECTOR, Channel.ENTITY),
            "first model's three": fused(Channel.VECTOR, Channel.KEYWORD, Channel.ENTITY),
        }
    )
    if settings.SECOND_MODEL != "off":
        systems[f"meaning only ({settings.SECOND_MODEL})"] = fused(Channel.MEANING)
        product = systems["fused (all four: the product)"] = fused(*Channel, product=True)
        if answer_all:
            # e5's order is the meaning channel's, unfloored already; USE v3's needs floor 0.
            for model, channel, floor in (
                ("e5's", Channel.MEANING, None),
                ("USE v3's", Channel.VECTOR, 0.0),
            ):

                def answered(scope, query: str, channel=channel, floor=floor) -> list[str]:
                    found = product(scope, query)
                    if found:
                        return found
                    order = (
                        channels(scope, query)
                        if floor is None
                        else selectors.recall_channels(
                            scope=scope, query=query, pool=pool, min_score=floor
                        )
                    ).get(channel, ())
                    return [h.id for h in order][:top_k]

                systems[f"the product, else {model} order (answers all)"] = answered
    return systems


def _store(scopes: dict[str, dict[str, str]], run: str) -> tuple[dict, dict[str, dict[str, str]]]:
    from memories import services
    from memories.scope import scope_of
    from memories.types import Actor, ActorKind, MemoryScope

    actor = Actor(kind=ActorKind.SYSTEM, id="eval")
    made: dict[str, MemoryScope] = {}
    ids: dict[str, dict[str, str]] = {}
    for name, texts in scopes.items():
        scope = scope_of(tenant_id="eval", user_id=f"{name}-{run}")
        made[name] = scope
        ids[name] = {}
        for key, text in texts.items():
            outcome = services.memory_add(scope=scope, text=text, actor=actor)
            if outcome.memory_id is None:
                raise SystemExit(f"could not store {key!r}: {outcome}")
            ids[name][key] = outcome.memory_id
    _second_vectors_stored()
    return made, ids


def _second_vectors_stored() -> None:
    """An add answers before its second vector is stored: the evaluation asks once they are,
    as a user asking later would."""
    from memories.engine import get_engine

    if not get_engine().second_vectors_stored(timeout=300):
        raise SystemExit("second vectors were still being stored after 300 s")


def _score(ranked: Sequence[str], relevant: set[str]) -> tuple[float, float, float]:
    for position, memory_id in enumerate(ranked[:TOP_K], start=1):
        if memory_id in relevant:
            return float(position == 1), float(position <= 3), 1.0 / position
    return 0.0, 0.0, 0.0


def evaluate(pool: int, misses: bool = False, grown: bool = False, answer_all: bool = False) -> str:
    from eval import dataset

    run = uuid.uuid4().hex[:8]
    stored = dataset.grown_memories() if grown else dataset.memories()
    queries = dataset.QUERIES + (dataset.grown_queries() if grown else [])
    scopes, ids = _store(stored, run)
    systems = _systems(pool, answer_all=answer_all)
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


def _cells(rows: Mapping[str, Sequence[float]], groups: Sequence[str]) -> list[str]:
    """One cell per group (each sum of its row over the row's count, the last entry) and, last,
    the same over all the groups together, in bold."""
    cells = []
    total = [0.0] * 4
    for group in groups:
        *values, n = rows[group]
        total = [a + b for a, b in zip(total, rows[group], strict=True)]
        cells.append(" / ".join(f"{v / n:.2f}" for v in values))
    *values, n = total
    cells.append("**" + " / ".join(f"{v / n:.2f}" for v in values) + "**")
    return cells


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
        cells = _cells(kinds, positives)
        negatives = kinds["negative"]
        cells.append(f"{int(negatives[0])} / {int(negatives[3])}")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    lines += ["", f"(queries answered in {elapsed:.1f} s for all systems together)"]
    return "\n".join(lines)


def evaluate_conversations(pool: int, misses: bool = False) -> str:
    """The conversation set: every turn one memory (its session's date in the text and as
    ``created_at``), every question asked of every system; evidence hit@5 / hit@10 /
    recall@10 per question kind and per dialogue."""
    from eval.conversations import CONVERSATIONS, QUESTION_KINDS
    from memories import services
    from memories.scope import scope_of
    from memories.types import Actor, ActorKind, MemoryScope

    actor = Actor(kind=ActorKind.SYSTEM, id="eval")
    run = uuid.uuid4().hex[:8]
    systems = _systems(pool, top_k=CONVERSATION_TOP_K, single=True)
    # system -> group (kind or dialogue) -> [hit5, hit10, recall10, count]
    sums: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(lambda: [0.0] * 4))
    scopes: list[MemoryScope] = []
    stored = 0
    started = time.perf_counter()
    try:
        for conv in CONVERSATIONS:
            scope = scope_of(tenant_id="eval", user_id=f"conv-{conv.name}-{run}")
            scopes.append(scope)
            ids: dict[str, str] = {}
            texts: dict[str, str] = {}
            for turn in conv.turns():
                outcome = services.memory_add(
                    scope=scope, text=turn.text, actor=actor, created_at=turn.created_at
                )
                if outcome.memory_id is None:
                    raise SystemExit(f"could not store {conv.name} {turn.key}: {outcome}")
                ids[turn.key] = outcome.memory_id
                texts[outcome.memory_id] = turn.key
            stored += len(set(ids.values()))
            _second_vectors_stored()
            for question in conv.questions:
                relevant = {ids[key] for key in conv.evidence(question)}
                for name, rank in systems.items():
                    ranked = rank(scope, question.text)[:CONVERSATION_TOP_K]
                    scored = (
                        float(bool(relevant & set(ranked[:5]))),
                        float(bool(relevant & set(ranked))),
                        len(relevant & set(ranked)) / len(relevant),
                    )
                    for group in (question.kind, conv.name):
                        row = sums[name][group]
                        for i, value in enumerate(scored):
                            row[i] += value
                        row[3] += 1
                    if misses and not scored[1] and name.startswith(("fused", "mem0 raw")):
                        print(
                            f"miss [{name}] {conv.name} {question.kind}: {question.text!r} -> "
                            f"{[texts.get(i, '?') for i in ranked[:3]]} "
                            f"want {conv.evidence(question)}"
                        )
    finally:
        for scope in scopes:
            services.memory_delete_user(scope=scope, actor=actor)
    elapsed = time.perf_counter() - started
    turns = sum(len(c.turns()) for c in CONVERSATIONS)
    questions = sum(len(c.questions) for c in CONVERSATIONS)
    counts = {
        group: sum(1 for c in CONVERSATIONS for q in c.questions if group in (q.kind, c.name))
        for group in (*QUESTION_KINDS, *(c.name for c in CONVERSATIONS))
    }
    head = (
        f"{questions} questions over {turns} turns ({stored} memories stored) in "
        f"{len(CONVERSATIONS)} dialogues of five sessions; top {CONVERSATION_TOP_K}; "
        "cells are evidence hit@5 / hit@10 / recall@10."
    )
    by_kind = _conversation_table(sums, QUESTION_KINDS, counts, with_all=True)
    by_dialogue = _conversation_table(sums, tuple(c.name for c in CONVERSATIONS), counts)
    return (
        f"{head}\n\nBy question kind:\n\n{by_kind}\n\nBy dialogue:\n\n{by_dialogue}\n\n"
        f"(stored and answered in {elapsed:.1f} s for all systems together)"
    )


def _conversation_table(
    sums: dict[str, dict[str, list[float]]],
    groups: Sequence[str],
    counts: dict[str, int],
    with_all: bool = False,
) -> str:
    lines = [
        "| system | "
        + " | ".join(f"{g} ({counts[g]})" for g in groups)
        + (" | all |" if with_all else " |"),
        "|---" * (len(groups) + 1 + int(with_all)) + "|",
    ]
    for name, rows in sums.items():
        cells = _cells(rows, groups)
        if not with_all:
            cells.pop()
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _write(table: str, begin: str = BEGIN, end: str = END) -> None:
    text = DOC.read_text(encoding="utf-8")
    pattern = re.compile(re.escape(begin) + ".*?" + re.escape(end), re.S)
    if not pattern.search(text):
        raise SystemExit(f"{DOC} has no {begin} … {end} block")
    DOC.write_text(pattern.sub(lambda _: f"{begin}\n{table}\n{end}", text), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--write", action="store_true", help="update the table in docs/retrieval.md"
    )
    parser.add_argument("--pool", type=int, default=40, help="candidates per channel")
    parser.add_argument("--misses", action="store_true", help="print every query not hit first")
    parser.add_argument(
        "--answer-all",
        action="store_true",
        help="also the product answering every question, a model's unfloored order where no "
        "channel has evidence: what the order reaches without the answer decision (never "
        "written to the docs)",
    )
    parser.add_argument(
        "--only",
        choices=("written", "grown", "conversations", "as_of", "extraction", "secrets"),
        help="run one part only (--write then updates only that part's tables, and only when "
        "that is the part run)",
    )
    args = parser.parse_args(argv)
    if args.answer_all and args.write:
        parser.error("--answer-all rows are not the docs' tables: run it without --write")
    if args.only == "extraction":  # no database: the extractor alone (docs/extraction.md)
        return _extraction(args.write)
    if args.only in (None, "secrets"):
        _secrets(write=args.write)
        if args.only:
            return 0
    _setup()
    parts = (("As written", False), ("Grown: 30 more projects per scope", True))
    wanted = {"written": parts[:1], "grown": parts[1:], "conversations": (), "as_of": ()}
    scoped = wanted[args.only] if args.only else parts
    if scoped:
        table = "\n\n".join(
            f"**{title}**\n\n"
            + evaluate(args.pool, misses=args.misses, grown=grown, answer_all=args.answer_all)
            for title, grown in scoped
        )
        print(table)
        if args.write and not args.only:
            _write(table)
    if args.only in (None, "conversations"):
        conversations = evaluate_conversations(args.pool, misses=args.misses)
        print("\n**Conversations**\n\n" + conversations)
        if args.write:
            _write(conversations, CONVERSATIONS_BEGIN, CONVERSATIONS_END)
    if args.only in (None, "as_of"):
        from eval import as_of

        as_of_table = as_of.evaluate(misses=args.misses)
        print("\n**As of**\n\n" + as_of_table)
        if args.write:
            _write(as_of_table, AS_OF_BEGIN, AS_OF_END)
    if args.write:
        print(f"\nwritten to {DOC}")
    if not args.only:
        _extraction(args.write)
    return 0


def _extraction(write: bool) -> int:
    from eval.extraction import score

    table = score.evaluate()
    print("\n**Extraction (test split)**\n\n" + table)
    if write:
        score.write(table)
        print(f"\nwritten to {score.DOC}")
    return 0


def _secrets(*, write: bool) -> None:
    """Admission on the held-out secrets set (eval/secrets.py; its table is in docs/secrets.md)."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "poco_memory.settings")
    from eval import secrets

    table = secrets.evaluate()
    print("**Secrets**\n\n" + table)
    if write:
        path = DOC.with_name("secrets.md")
        text = path.read_text(encoding="utf-8")
        pattern = re.compile(re.escape(secrets.BEGIN) + ".*?" + re.escape(secrets.END), re.S)
        path.write_text(
            pattern.sub(lambda _: f"{secrets.BEGIN}\n{table}\n{secrets.END}", text),
            encoding="utf-8",
        )


if __name__ == "__main__":
    sys.exit(main())
