"""Text normalisation shared by admission, storage and NLP (pure, no dependencies)."""

from __future__ import annotations

import re
from difflib import SequenceMatcher
from typing import Final

# CJK unified ideographs (with extension A) and compatibility ideographs.
HAN_CHARS: Final = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
HAN: Final = re.compile(f"[{HAN_CHARS}]")

# Only double-quote forms: ‘ ’ double as English apostrophes ("don’t"), so they stay.
_QUOTE_TABLE: Final = str.maketrans(
    {
        "\u201c": '"',  # “
        "\u201d": '"',  # ”
        "\u201e": '"',  # „
        "\u201f": '"',  # ‟
        "\u300c": '"',  # 「
        "\u300d": '"',  # 」
        "\u300e": '"',  # 『
        "\u300f": '"',  # 』
        "\uff02": '"',  # ＂
    }
)


def normalize_quotes(text: str) -> str:
    """Turn Chinese curly and corner quotes into ASCII double quotes."""
    return text.translate(_QUOTE_TABLE)


def keep_typed_quotes(typed: str, cleaned: str) -> str:
    """``cleaned`` (a cleaning of ``normalize_quotes(typed)``) with the quotation marks the
    user typed put back: the user's text is stored as written, only what cleaning removed
    differs. ``normalize_quotes`` maps one character to one, so every run cleaning kept lines
    up with the same run of ``typed``."""
    folded = normalize_quotes(typed)
    if folded == typed:
        return cleaned
    if cleaned == folded:
        return typed
    kept: list[str] = []
    matcher = SequenceMatcher(a=folded, b=cleaned, autojunk=False)
    for tag, a_start, a_end, b_start, b_end in matcher.get_opcodes():
        kept.append(typed[a_start:a_end] if tag == "equal" else cleaned[b_start:b_end])
    return "".join(kept)


def word_set(spaced: str) -> frozenset[str]:
    """The words of a space-separated list, as a set (how word lists are written in code)."""
    return frozenset(spaced.split())
