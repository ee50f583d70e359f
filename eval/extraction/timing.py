"""What the learned extraction costs a 2-message ingest in the worker, beside the rules it
replaced: `python -m eval.extraction.timing [runs]`.

Times, per conversation of `make bench`'s ingest shape (each one distinct, so no vector is
cached from an earlier one): the extraction answer plus the second vectors of the facts it
stores (``BundledE5.passages``, what ``Mem0Adapter.extract`` waits for), for the rules extractor
as it was (``git show 6e847e2:memories/engine/extractor.py``, passed as a file) and as it is. The
rest of the worker's path (Mem0's first embedder and search per stored fact, adoption) is the
same code for both and only shrinks when fewer facts are stored.
"""

from __future__ import annotations

import importlib.util
import statistics
import sys
import time
from pathlib import Path


def conversation(n: int) -> list[tuple[str, str]]:
    return [
        ("user", f"以后第{n}号项目的技术方案都使用简体中文，结论先行。"),
        ("assistant", f"好的，已确认：第{n}号项目的技术方案统一使用简体中文。"),
    ]


def main(argv: list[str]) -> int:
    runs = int(argv[0]) if argv and argv[0].isdigit() else 40
    old_path = next((Path(a) for a in argv if a.endswith(".py")), None)
    from memories.engine.extractor import extract_facts
    from memories.engine.second import BundledE5

    e5 = BundledE5()
    e5.passages(["warm up"])
    systems = {"now": extract_facts}
    if old_path is not None:
        spec = importlib.util.spec_from_file_location("old_extractor", old_path)
        assert spec and spec.loader
        old = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(old)
        systems = {"before": old.extract_facts, **systems}
    extract_facts(conversation(-1))  # loads the head
    for name, extract in systems.items():
        times, stored = [], 0
        offset = 1000 if name == "now" else 0  # distinct texts: nothing cached between systems
        for n in range(offset, offset + runs):
            started = time.perf_counter()
            facts = extract(conversation(n))
            e5.passages([f["text"] for f in facts])
            times.append((time.perf_counter() - started) * 1000)
            stored += len(facts)
        print(
            f"{name}: p50 {statistics.median(times):.1f} ms, "
            f"mean {statistics.fmean(times):.1f} ms, {stored / runs:.1f} facts stored per ingest"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
