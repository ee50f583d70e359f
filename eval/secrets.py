"""The secrets part of `make eval`: admission on the held-out split of the labelled secrets set.

Every ``test`` row of ``memories/admission/data/secrets.jsonl`` goes through the gate
(``admit_text``, as an add does): secrets should be refused, look-alikes kept. Reported per
language and per disguise, beside the shape checks alone (credentials and identifiers, the
admission before meaning was judged), so what the meaning-and-value judge adds shows.
Pure: no database. Measures, never asserts.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable

BEGIN, END = "<!-- eval-secrets:begin -->", "<!-- eval-secrets:end -->"


def _shapes_only(text: str) -> bool:
    from memories.admission import find_credential, find_sensitive_identifier

    return find_credential(text) is not None or find_sensitive_identifier(text) is not None


def _gate(text: str) -> bool:
    from memories.admission import admit_text

    return not admit_text(source="manage", text=text).admitted


def evaluate() -> str:
    from memories.admission.secret_set import load_set

    rows = [row for row in load_set() if row.split == "test"]
    judges: dict[str, Callable[[str], bool]] = {"shapes only": _shapes_only, "gate": _gate}
    refused: dict[str, dict[str, bool]] = {name: {} for name in judges}
    started = time.perf_counter()
    for name, judge in judges.items():
        for row in rows:
            refused[name][row.text] = judge(row.text)
    elapsed = time.perf_counter() - started

    def table(key: str, title: str) -> str:
        groups: dict[str, list] = defaultdict(list)
        for row in rows:
            groups[getattr(row, key)].append(row)
        lines = [
            f"| {title} | secrets refused (gate) | shapes only "
            "| benign kept (gate) | shapes only |",
            "|---|---:|---:|---:|---:|",
        ]
        for group in sorted(groups, key=lambda g: (-len(groups[g]), g)):
            lines.append(f"| {group} | " + " | ".join(_cells(groups[group], refused)) + " |")
        lines.append("| **all** | " + " | ".join(_cells(rows, refused)) + " |")
        return "\n".join(lines)

    secrets = sum(row.is_secret for row in rows)
    return (
        f"Held-out split: {secrets} secrets, {len(rows) - secrets} look-alikes "
        f"({elapsed:.1f} s for both judges).\n\n"
        + table("lang", "language")
        + "\n\n"
        + table("disguise", "disguise")
    )


def _cells(rows: list, refused: dict[str, dict[str, bool]]) -> list[str]:
    cells = []
    for want_secret in (True, False):
        part = [row for row in rows if row.is_secret == want_secret]
        for name in ("gate", "shapes only"):
            if not part:
                cells.append("–")
                continue
            good = sum(refused[name][row.text] == want_secret for row in part)
            cells.append(f"{good}/{len(part)}")
    return cells
