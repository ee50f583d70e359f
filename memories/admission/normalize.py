"""Views of a text that detection reads, so a disguise cannot hide a secret or an identifier.

A secret is judged on what it *is*, not on how it was typed: full-width letters from a Chinese
IME, zero-width characters pasted between digits, a number read out digit by digit or in
Chinese numerals, a key typed with spaces. Each function here undoes one disguise; detection
(``credentials``, ``identifiers``) reads the views, never stores them: what is stored is the
original text, cleaned by ``noise``.
"""

from __future__ import annotations

import base64
import binascii
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final

from memories.text import normalize_quotes

__all__ = [
    "DigitRun",
    "decoded_base64",
    "despace",
    "digit_runs",
    "fold",
    "fold_confusables",
    "map_chinese_numerals",
    "squeeze_keys",
    "strip_invisible",
    "visual_order",
]

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


# Bidirectional controls (embeddings, overrides, isolates, marks) and zero-width characters:
# they change what a reader sees without being seen, so a stored memory never keeps them.
BIDI_CONTROLS: Final = frozenset(
    "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"
)
ZERO_WIDTH: Final = frozenset("\u200b\u200c\u200d\u2060\ufeff")
_ZWJ: Final = "\u200d"
_RLO: Final = "\u202e"
# What ends an override: its pop (PDF), an isolate's end (PDI), or the end of the line.
_OVERRIDE_ENDS: Final = frozenset("\u202c\u2069\n")


def strip_invisible(text: str) -> str:
    """``text`` without bidi controls and zero-width characters.

    Stripping, not refusing: they arrive in ordinary pasted text (a BOM, a word processor's
    marks) and carry no meaning a memory needs, so the write goes on without them. The one
    exception is a zero-width joiner between two emoji, which makes one glyph of a sequence
    (a family, a flag with a profession).
    """
    if not any(char in BIDI_CONTROLS or char in ZERO_WIDTH for char in text):
        return text
    kept = []
    for index, char in enumerate(text):
        if char in BIDI_CONTROLS:
            continue
        if char in ZERO_WIDTH and not (
            char == _ZWJ and _is_emoji(text[index - 1 : index]) and _is_emoji(text[index + 1 :][:1])
        ):
            continue
        kept.append(char)
    return "".join(kept)


def _is_emoji(char: str) -> bool:
    return bool(char) and (unicodedata.category(char) == "So" or char == "\ufe0f")


def visual_order(text: str) -> str:
    """The characters in the order a right-to-left override displays them.

    After U+202E every character is laid out right to left up to its pop, an isolate's end
    or the line's end: "\u202e8765-4321-931" is read on screen as 139-1234-5678. Only the
    override reverses digits; embeddings and marks leave a number's digits in order.
    """
    if _RLO not in text:
        return text
    out: list[str] = []
    index = 0
    while index < len(text):
        start = text.find(_RLO, index)
        if start < 0:
            out.append(text[index:])
            break
        out.append(text[index:start])
        end = start + 1
        while end < len(text) and text[end] not in _OVERRIDE_ENDS:
            end += 1
        out.append(text[start + 1 : end][::-1])
        index = end
    return "".join(out)


# Letters of other scripts drawn like Latin ones, as a label would be spelled to slip past an
# ASCII keyword ("pаssword" with a Cyrillic а). Folded only inside a word that also holds a
# Latin letter or consists of look-alikes alone, so Russian or Greek sentences keep their words.
_CONFUSABLES: Final = {
    # Cyrillic
    "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p",
    "с": "c", "т": "t", "у": "y", "х": "x", "ѕ": "s", "і": "i", "ї": "i", "ј": "j", "һ": "h",
    "ԁ": "d", "ԛ": "q", "ԝ": "w", "ɡ": "g",
    "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P", "С": "C",
    "Т": "T", "У": "Y", "Х": "X", "Ѕ": "S", "І": "I", "Ј": "J",
    # Greek
    "α": "a", "ε": "e", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "τ": "t", "υ": "u",
    "χ": "x", "ω": "w",
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N",
    "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X",
}  # fmt: skip
_CONFUSABLE_TABLE: Final = str.maketrans(_CONFUSABLES)
_WORD_RE: Final = re.compile(r"[^\W\d_]+", re.UNICODE)


def fold_confusables(text: str) -> str:
    """Latin look-alikes of other scripts → Latin, in words that mix scripts or are all
    look-alikes."""
    if not any(char in _CONFUSABLES for char in text):
        return text

    def fold_word(match: re.Match[str]) -> str:
        word = match.group()
        mixed = any(char.isascii() for char in word)
        if mixed or all(char in _CONFUSABLES for char in word):
            return word.translate(_CONFUSABLE_TABLE)
        return word

    return _WORD_RE.sub(fold_word, text)


# A base64 (or base64url) run long enough to hide a token. Runs are decoded only when they
# give printable UTF-8 text, which random ids, hashes and binary data almost never do.
_BASE64_RUN_RE: Final = re.compile(r"(?<![A-Za-z0-9+/_\-])[A-Za-z0-9+/_\-]{16,4096}={0,2}")
_HEX_RE: Final = re.compile(r"[0-9a-fA-F]+")
_MAX_DECODED_RUNS: Final = 32
_MIN_DECODED: Final = 8


def decoded_base64(text: str) -> Iterator[str]:
    """The printable text hidden in each base64 run of ``text`` (at most a few dozen runs)."""
    for count, match in enumerate(_BASE64_RUN_RE.finditer(text)):
        if count >= _MAX_DECODED_RUNS:
            return
        run = match.group().rstrip("=")
        if _HEX_RE.fullmatch(run) or not any(char.isdigit() or char.isupper() for char in run):
            continue  # hex ids and plain words are not base64 payloads
        decoded = _decode(run)
        if decoded is not None:
            yield decoded


def _decode(run: str) -> str | None:
    altchars = b"-_" if ("-" in run or "_" in run) else None
    try:
        raw = base64.b64decode(run + "=" * (-len(run) % 4), altchars=altchars, validate=True)
        decoded = raw.decode("utf-8")
    except (binascii.Error, ValueError):
        return None
    if len(decoded) < _MIN_DECODED:
        return None
    if not all(char.isprintable() or char in "\n\t" for char in decoded):
        return None
    return decoded


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


# Three or more single characters each set apart by spaces ("h u n t e r 2", "P I N": three
# letters make a PIN, an OTP or 2FA), or four or more ASCII letters and digits joined by dashes
# or dots ("h-u-n-t-e-r-2").
_SPACED_OUT_RE: Final = re.compile(r"(?<!\S)\S(?: {1,2}\S){2,}(?!\S)")
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
