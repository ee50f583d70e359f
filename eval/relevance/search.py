"""`python -m eval.relevance.search`: the relevance set (``eval/relevance/parts/``) asked of the
product's search, end to end, with and without the cross-language rule
(``memories.recall.hubness``).

Stores every user's 16 memories in a scope of their own (``services.memory_add``, as an agent
would), asks every question and every off-topic question through ``selectors.memory_search``
(the default ``top_k``), and prints per split hit@1 / hit@3 of the questions answered by a
memory in the other language and of those answered in their own, and how many off-topic
questions got any answer. The same stored scopes answer both rows: the rule is switched off by
giving search no bank (``hubness.bundled`` answering None), nothing else changes. The scopes are
deleted afterwards. Measures, never asserts; docs/retrieval.md, "Across languages", has the table.
"""

from __future__ import annotations

import time
import uuid
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from unittest import mock

from eval.relevance.judge import read_set, split_of
from eval.run import _second_vectors_stored, _setup

SPLITS = ("train", "dev", "test")


@contextmanager
def without_rule() -> Iterator[None]:
    from memories.recall import hubness

    with mock.patch.object(hubness, "bundled", return_value=None):
        yield


def main() -> None:
    _setup()
    from memories import selectors, services
    from memories.recall.languages import written_in
    from memories.scope import scope_of
    from memories.types import Actor, ActorKind

    memories, questions, off_topic = read_set()
    actor = Actor(kind=ActorKind.SYSTEM, id="eval")
    run = uuid.uuid4().hex[:8]
    scopes = {}
    ids: dict[str, str] = {}
    started = time.perf_counter()
    for key, memory in memories.items():
        user = memory["user"]
        scope = scopes.setdefault(user, scope_of(tenant_id="eval", user_id=f"{user}-{run}"))
        outcome = services.memory_add(scope=scope, text=memory["text"], actor=actor)
        if outcome.memory_id is None:  # refused at admission: its questions are left out
            print(f"not stored: {key} {memory['text']!r} ({outcome.status}, {outcome.reason})")
            continue
        ids[outcome.memory_id] = key
    _second_vectors_stored()
    elapsed = time.perf_counter() - started
    print(f"stored {len(ids)} memories of {len(scopes)} users in {elapsed:.0f} s")

    def answer(user: str, text: str) -> list[str]:
        found = selectors.memory_search(scope=scopes[user], query=text)
        assert found.available, found.error_reason
        return [ids.get(hit.id, "?") for hit in found.items]

    rows: dict[str, dict[str, list[float]]] = {}
    try:
        for name, rule in (("floors alone (before)", without_rule), ("the product", None)):
            sums: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])
            with rule() if rule else nullcontext():
                for q in questions:
                    if not set(q["answers"]) <= set(ids.values()):
                        continue
                    asked = written_in(q["text"])
                    held = {written_in(memories[a]["text"]) for a in q["answers"]}
                    kind = "same" if asked in held else "across"
                    ranked = answer(q["user"], q["text"])
                    cell = sums[f"{split_of(q['user'])}/{kind}"]
                    cell[0] += float(bool(ranked[:1]) and ranked[0] in q["answers"])
                    cell[1] += float(any(r in q["answers"] for r in ranked[:3]))
                    cell[2] += 1
                for q in off_topic:
                    cell = sums[f"{split_of(q['user'])}/off"]
                    cell[0] += float(bool(answer(q["user"], q["text"])))
                    cell[2] += 1
            rows[name] = sums
    finally:
        for scope in scopes.values():
            services.memory_delete_user(scope=scope, actor=actor)

    print("| search | " + " | ".join(f"{s}: across / same / off-topic" for s in SPLITS) + " |")
    print("|---|" + "---|" * len(SPLITS))
    for name, sums in rows.items():
        cells = []
        for split in SPLITS:
            across, same, off = (sums[f"{split}/{k}"] for k in ("across", "same", "off"))
            cells.append(
                f"{across[0] / across[2]:.2f} / {across[1] / across[2]:.2f} · "
                f"{same[0] / same[2]:.2f} / {same[1] / same[2]:.2f} · "
                f"{int(off[0])} of {int(off[2])}"
            )
        print(f"| {name} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
