"""Views of a text that detection reads, so a disguise cannot hide a secret or an identifier.

A secret is judged on what it *is*, not on how it was typed: full-width letters from a Chinese
IME, zero-width characters pasted between digits, a number read out digit by digit or in
Chinese numerals, a key typed with spaces. Each function here undoes one disguise; detection
(``credentials``, ``identifiers``) reads the views, never stores them: what is stored is the
original text, cleaned by ``noise``.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final

from memories.text import normalize_quotes

__all__ = ["DigitRun", "digit_runs", "despace", "fold", "map_chinese_numerals", "squeeze_keys"]

# Invisible characters that are not format characters (Cf) but render as nothing: Hangul
# fillers, the blank Braille pattern, variation selectors.
_INVISIBLE: Final = frozenset(
    "\u115f\u1160\u3164\uffa0\u2800" + "".join(chr(c) for c in range(0xFE00, 0xFE10))
)


def fold(text: str) -> str:
    """NFKC (full-width → ASCII), ASCII double quotes, and no zero-width/format characters."""
    folded = normalize_quotes(unicodedata.normalize("NFKC", text))
    return "".join(
        char for char in folded if char not in _INVISIBLE and unicodedata.category(char) != "Cf"
    )


# Chinese numerals as digits are read out (一三九…, 幺 for 1 in phone numbers), and the
# financial forms (壹贰叁…) that resist tampering on paper. 十/百/千 are not digits.
_CHINESE_DIGITS: Final = str.maketrans(
    {
        **dict.fromkeys("〇零", "0"),
        **dict.fromkeys("一幺壹", "1"),
        **dict.fromkeys("二两贰貳", "2"),
        **dict.fromkeys("三叁參", "3"),
        **dict.fromkeys("四肆", "4"),
        **dict.fromkeys("五伍", "5"),
        **dict.fromkeys("六陆陸", "6"),
        **dict.fromkeys("七柒", "7"),
        **dict.fromkeys("八捌", "8"),
        **dict.fromkeys("九玖", "9"),
    }
)


def map_chinese_numerals(text: str) -> str:
    """Chinese numerals → ASCII digits (for identifier detection only: "一样" becomes "1样")."""
    return text.translate(_CHINESE_DIGITS)


# What people put between the digits of a number they read out or group: spaces, line breaks
# (a number split across two messages), dots, dashes, underscores, middle dots. Up to three in
# a row: "139 - 1234 - 5678".
_SEPARATOR: Final = r"[ \t\n\u00a0.\-_·•‐‑‒–—―]"
_DIGIT_RUN_RE: Final = re.compile(rf"\d(?:{_SEPARATOR}{{0,3}}\d)*(?:{_SEPARATOR}{{0,3}}[Xx])?")
_GROUP_RE: Final = re.compile(r"[0-9Xx]+")


@dataclass(frozen=True)
class DigitRun:
    """A number as written: its digits without separators, and the sizes of its groups."""

    digits: str
    groups: tuple[int, ...]
    before: str  # up to two characters just before the run
    after: str  # up to two characters just after it

    @property
    def digit_by_digit(self) -> bool:
        return len(self.groups) > 1 and all(size == 1 for size in self.groups)


def digit_runs(text: str) -> Iterator[DigitRun]:
    """Every number in ``text`` with the separators between its digits collapsed."""
    for match in _DIGIT_RUN_RE.finditer(text):
        written = match.group()
        groups = tuple(len(group) for group in _GROUP_RE.findall(written))
        start, end = match.span()
        yield DigitRun(
            digits="".join(_GROUP_RE.findall(written)).upper(),
            groups=groups,
            before=text[max(0, start - 2) : start],
            after=text[end : end + 2],
        )


# Four or more single characters each set apart by spaces ("h u n t e r 2"), or ASCII letters
# and digits joined by dashes or dots ("h-u-n-t-e-r-2").
_SPACED_OUT_RE: Final = re.compile(r"(?<!\S)\S(?: {1,2}\S){3,}(?!\S)")
_DASHED_OUT_RE: Final = re.compile(
    r"(?<![A-Za-z0-9])[A-Za-z0-9](?:[\-.·_][A-Za-z0-9]){3,}(?![A-Za-z0-9])"
)


def despace(text: str) -> str:
    """Join words that were spelled out one character at a time."""
    text = _SPACED_OUT_RE.sub(lambda match: match.group().replace(" ", ""), text)
    return _DASHED_OUT_RE.sub(lambda match: re.sub(r"[\-.·_]", "", match.group()), text)


# Vendor key prefixes, and the chunks a key was typed in ("sk- proj- Ab3d Ef6h …").
_KEY_START_RE: Final = re.compile(
    r"(?<![A-Za-z0-9])(?:sk|rk|ghp|gho|ghu|ghs|ghr|github_pat|glpat|xox[baprs]|AKIA|ASIA|AIza)"
    r"[\-_]?(?:[ \t]+[A-Za-z0-9_\-]{1,16})+"
)
_CHUNK_SPLIT_RE: Final = re.compile(r"[ \t]+")


def squeeze_keys(text: str) -> str:
    """Close the gaps inside a vendor key typed in chunks.

    A chunk joins the key while it looks random (holds a digit or a capital) or continues a
    ``-``/``_`` joint, so "sk-learn is great" stays three words.
    """
    return _KEY_START_RE.sub(_squeeze, text)


def _squeeze(match: re.Match[str]) -> str:
    first, *chunks = _CHUNK_SPLIT_RE.split(match.group())
    key = first
    for index, chunk in enumerate(chunks):
        joint = key.endswith(("-", "_")) or chunk.startswith(("-", "_"))
        random_looking = any(char.isdigit() or char.isupper() for char in chunk)
        if not (joint or random_looking):
            return key + " " + " ".join(chunks[index:])
        key += chunk
    return key
