"""What admission costs an add, per ordinary text: the gate without its second line (the
admission before meaning was judged) against the whole gate (shapes, structure,
keyword-then-value, and the e5-small head when a text carries a value unlike ordinary
language).

``python -m eval.admission_cost``: the eval set's memories (grown scopes included) and the
look-alikes of ``tests/memories/admission/benign.txt``, each admitted once with an empty vector
cache (an add's first sight of a text). Prints ms per text and how many texts reached the
model. Measures, never asserts.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path


def texts() -> list[str]:
    from eval import dataset

    found: list[str] = []
    for scopes in (dataset.memories(), dataset.grown_memories()):
        found.extend(text for scope in scopes.values() for text in scope.values())
    benign = Path(__file__).resolve().parent.parent / "tests/memories/admission/benign.txt"
    lines = benign.read_text(encoding="utf-8").splitlines()
    found.extend(line for line in lines if line.strip() and not line.startswith("#"))
    return list(dict.fromkeys(found))


def main() -> int:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "poco_memory.settings")
    from memories.admission import admit_text, gate
    from memories.learned import vectors
    from memories.learned.vectors import passage_vectors

    judge_meaning = gate.find_meant_secret
    sample = texts()
    passage_vectors(["warm up the model once, as a web process does before it accepts"])

    def before(text: str) -> None:
        # The same gate with the second line switched off: the admission before this change.
        gate.find_meant_secret = lambda *args, **kwargs: None
        try:
            admit_text(source="manage", text=text)
        finally:
            gate.find_meant_secret = judge_meaning

    calls = 0
    real = vectors.bundled_e5

    def counting() -> object:  # count the texts that reach the model
        nonlocal calls
        calls += 1
        return real()

    results = {}
    for name, judge in (("shapes only (before)", before), ("gate (after)", None)):
        vectors._cache.clear()
        started = time.perf_counter()
        for text in sample:
            if judge is None:
                vectors.bundled_e5 = counting
                admit_text(source="manage", text=text)
                vectors.bundled_e5 = real
            else:
                judge(text)
        results[name] = (time.perf_counter() - started) * 1000 / len(sample)
    for name, ms in results.items():
        print(f"{name}: {ms:.2f} ms per text")
    print(f"{len(sample)} ordinary texts; {calls} reached the e5 head ({calls / len(sample):.1%})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
