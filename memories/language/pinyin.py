"""Pinyin: a Chinese name in Latin letters ("Qingniao", "Wang Lei" for 青鸟, 王磊): the readings
stored with an entity, and the runs of a query's Latin words that may be one."""

from __future__ import annotations

import itertools
import re

import jieba
from pypinyin import Style, lazy_pinyin, pinyin

from memories.language.nlp import MAX_LATIN_GRAM_WORDS, NAME_UNIT, normalize_name, recall_name

_ALL_HAN = re.compile(r"^[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]{2,12}$")
_PINYIN_WORD = re.compile(r"^[a-z]+$")


# A character read several ways (行: xing, hang) multiplies a name's readings; past this many the
# rest are dropped (names are two to four characters, with one or two such characters).  The
# same bound holds for each word of a longer name (``pinyin_readings``).
MAX_PINYIN_READINGS = 8


def pinyin_readings(name: str) -> list[str]:
    """The toneless pinyin readings of an all-Han name of 2 to 12 characters, syllables run
    together, the likeliest first; none for any other name.  pypinyin's bundled phrase
    dictionary picks the first in context (长城 → ``changcheng``), but it reads 太行 as
    "taixing" and the surname 曾 as "ceng", where people write Taihang and Zeng: so every
    reading of a character that has several counts too, up to ``MAX_PINYIN_READINGS``.

    A name jieba cuts into several words also reads as each of its words of two characters or
    more (``name_words``), after the whole name's readings: the noun runs of Chinese text join
    a name to the noun before it (项目青鸟, "project Qingniao"), and "Qingniao" names it as
    "Kestrel" names "Project Kestrel".  Stored on the entity row when it is written
    (``memories.engine.entities``) so recall compares them in SQL, through an index."""
    text = normalize_name(name)
    if not _ALL_HAN.match(text):
        return []
    readings = dict.fromkeys(_readings(text))
    words = name_words(text)
    if len(words) > 1:
        for word in words:
            readings.update(dict.fromkeys(_readings(word)))
    return list(readings)


def name_words(name: str) -> list[str]:
    """The words of two Han characters or more that jieba cuts an all-Han ``name`` into
    (项目青鸟 → 项目, 青鸟; 王磊 → 王磊)."""
    return [word for word in jieba.cut(name) if _ALL_HAN.match(word)]


def _readings(text: str) -> list[str]:
    """Up to ``MAX_PINYIN_READINGS`` readings of all-Han ``text``, the likeliest first."""
    readings = {"".join(lazy_pinyin(text, style=Style.NORMAL)).lower(): None}
    per_character = pinyin(text, style=Style.NORMAL, heteronym=True)
    for combination in itertools.product(*per_character):
        if len(readings) == MAX_PINYIN_READINGS:
            break
        readings.setdefault("".join(combination).lower(), None)
    return list(readings)


def pinyin_grams(text: str) -> list[str]:
    """Runs of 1 to 4 Latin words of the query, run together (``qing niao`` → ``qingniao``):
    equal to one of a name's ``pinyin_readings``, the query names it in pinyin.  Words holding
    digits or symbols are never pinyin and break a run.  Tone marks are accents
    (``recall_name``): "Qīngniǎo" is "qingniao"."""
    grams: dict[str, None] = {}
    units = NAME_UNIT.findall(recall_name(text))
    for index in range(len(units)):
        joined = ""
        for unit in units[index : index + MAX_LATIN_GRAM_WORDS]:
            if not _PINYIN_WORD.match(unit):
                break
            joined += unit
            # Two Han characters give at least three letters ("e'e"); shorter runs are words.
            if len(joined) >= 3:
                grams.setdefault(joined, None)
    return list(grams)
