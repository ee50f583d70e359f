"""Checks on what extraction produced: language drift and deterministic fact validation.

They judge only what can be verified: a fact's language against the user's,
its length and attribution — never "worth keeping". Credentials, identifiers and technical
noise are admission's, which adoption (``memories.services.memory_record_extracted``) runs.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Literal

from memories.text import HAN

Language = Literal["zh", "en"]

LATIN = re.compile(r"[A-Za-z]")
MAX_FACT_CHARS = 300
VALID_ATTRIBUTION = frozenset({"user", "assistant"})
# Share of Han among Han + Latin letters above which text counts as Chinese.
HAN_SHARE = 0.2
# Han characters a message mostly in Latin letters must hold for Chinese to be one of the user's
# languages too: "我的 main language 是 Kotlin" (6 of 31 letters) is Chinese written around English
# terms, and a fact written from it in Chinese is no drift. A word or a name ("I had 火锅") is not.
MIXED_HAN = 4

LANGUAGE_RETRY_INSTRUCTION = {
    "zh": "语言要求（最高优先级）：所有事实必须使用简体中文书写，与用户消息的语言一致；"
    "不得翻译成英文；人名、产品名和技术术语保持用户原来的写法。",
    "en": "LANGUAGE REQUIREMENT (highest priority): write every fact in English, the language "
    "of the user's messages; never translate into another language; keep names and technical "
    "terms exactly as the user wrote them.",
}


def language_of(text: str) -> Language | None:
    han = len(HAN.findall(text))
    latin = len(LATIN.findall(text))
    if han + latin == 0:
        return None
    return "zh" if han / (han + latin) >= HAN_SHARE else "en"


def dominant_language(user_texts: Iterable[str]) -> Language | None:
    return language_of(" ".join(user_texts))


def user_languages(user_texts: Iterable[str]) -> frozenset[Language]:
    """Every language the user wrote a message in: a conversation that switches language
    leaves facts in each, and neither is drift; a message that mixes Chinese phrases into
    English terms (or pastes an English log under a Chinese sentence) is written in both."""
    found: set[Language] = set()
    for text in user_texts:
        language = language_of(text)
        if language is not None:
            found.add(language)
        if len(HAN.findall(text)) >= MIXED_HAN:
            found.add("zh")
    return frozenset(found)


def drifted(fact: str, language: Language) -> bool:
    """True when a fact is not in the user's language (translation drift)."""
    found = language_of(fact)
    return found is not None and found != language


def fact_rejection(text: str, attributed_to: str | None) -> str | None:
    """Why an extracted fact may not be kept, or None."""
    if attributed_to not in VALID_ATTRIBUTION:
        return "bad_attribution"
    if len(text) > MAX_FACT_CHARS:
        return "too_long"
    return None
