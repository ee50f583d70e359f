"""What a memory knows about itself: confidence, lifetime, one current value
per ``memory_key``. Pure rules; the services apply them under the scope's write lock.

Confidence says what kind of evidence a memory is:

* ``1.0`` — an explicit statement: the user said it (console, admin, import) or an agent stored
  it on the user's explicit request (``manage add`` without a confidence of its own).
* ``0.7`` — a model inference: a fact extracted from a finished task's messages (ingest).
* An agent may send its own confidence with ``manage add``; from ``EXPLICIT_MIN`` (0.9) on it
  counts as explicit, below it as an inference. Below ``settings.MIN_CONFIDENCE`` (default 0.5)
  a fact is not stored at all (``rejected``, reason ``low_confidence``).

An inference never replaces an explicit statement of the same key (``no_effect``, reason
``explicit_statement_kept``); an explicit statement replaces anything.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from enum import Enum
from typing import Any

from django.conf import settings
from django.utils import timezone

from memories.language import nlp
from memories.recall import live
from memories.text import word_set
from memories.types import MemoryStatus, Source

EXPLICIT_CONFIDENCE = 1.0
INFERRED_CONFIDENCE = 0.7
EXPLICIT_MIN = 0.9


class Unset(Enum):
    """A parameter the caller did not give (``None`` has a meaning of its own: no expiry)."""

    UNSET = "unset"


UNSET = Unset.UNSET


def default_confidence(source: str) -> float:
    return INFERRED_CONFIDENCE if source == Source.INGEST else EXPLICIT_CONFIDENCE


def is_explicit(payload: dict[str, Any]) -> bool:
    """Whether a stored memory is an explicit statement. Rows written before confidence was
    recorded count by their source."""
    confidence = payload.get("confidence")
    if not isinstance(confidence, int | float):
        confidence = default_confidence(str(payload.get("source") or Source.MANAGE))
    return float(confidence) >= EXPLICIT_MIN


def default_valid_until(now: datetime | None = None) -> datetime:
    return (now or timezone.now()) + timedelta(days=settings.MEMORY_LIFETIME_DAYS)


def iso(value: datetime | None) -> str | None:
    """How an instant is stored in the payload (ISO 8601 with its offset), None for none."""
    return None if value is None else value.isoformat()


def payload_status(payload: dict[str, Any], *, now: datetime | None = None) -> MemoryStatus:
    """The memory's effective status, the one every output shows (the record and its metadata,
    the lists, ``/v1``, ``/mem0``, MCP, the export and its CSV, admin) and every rule about "is
    it current" reads: past its ``valid_until`` it is expired even before the periodic sweep
    has marked it (``memories.recall.live``). A status no writer writes is not live either: it
    reads as expired. What is *stored* (``live.stored_status``) matters only to the writers
    that change it."""
    try:
        return MemoryStatus(live.read_status(payload, now=now))
    except ValueError:
        return MemoryStatus.EXPIRED


# Words that restate or frame a fact without changing it: "对，还是默认用英文回答" repeats
# "以后默认用英文回答". A candidate whose only new words are these brings nothing new.
RESTATING_WORDS = word_set(
    "以后 今后 往后 后续 默认 还是 仍然 依然 继续 一直 始终 总是 通常 统一 一律 都 对 是的 好的 "
    "嗯 确实 目前 现在 也 请 记住 记得 没错 同样 照旧 "
    "still always usually again yes yeah indeed really also please remember default "
    "by from now on going forward keep continue same as before"
)
# One-character words that frame a fact without being what it is about: particles, pronouns,
# measure words, prepositions and the commonest verbs of framing.
FUNCTION_CHARACTERS = frozenset(
    "的地得了着过是在和与及或也都还又就才很太更最把被让给用对向从到为以于而且呢吧啊吗嘛呀哦嗯么"
    "个只些这那要会能可请先再将已正其该每各某一我你他她它们您咱说有做"
)
# A confirmation opening a sentence ("对，" "没错，" "是的，" "Yes, " "Right, "): the speaker
# agreeing with what was said before, not part of the fact — and "没错" / "不错" hold no negation
# ("没错，以后默认用英文回答" repeats "以后默认用英文回答"). Only before a separator: "对接人是王磊"
# keeps its 对, and a denial ("不对，…") is no confirmation.
CONFIRMATION = re.compile(
    r"^\s*(?:(?:对+(?:的|啊|呀)?|没错|是的|是啊|嗯+|好的|好|确实|不错|没问题"
    r"|(?:yes|yeah|yep|yup|right|correct|exactly|sure|indeed|ok|okay)\b)"
    r"\s*[,，、。.!！:：;；~～]+\s*)+",
    re.IGNORECASE,
)
# A negation on one side only turns a fact into its opposite ("喜欢" / "不喜欢").
NEGATION = re.compile(
    r"不|没|别|无|非|勿|\bnot\b|\bno\b|\bnever\b|n't\b|\bwithout\b", re.IGNORECASE
)


# Numbers change a fact ("two approvals" / "one approval") but are no keyword terms.
NUMBER = re.compile(
    r"\d+(?:\.\d+)?|\b(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
    r"twenty|thirty|forty|fifty|hundred|thousand|once|twice|first|second|third)\b|"
    r"[零一二两三四五六七八九十百千万]+(?=个|人|次|天|周|月|年|点|位|条|页|行|份|名|遍|倍|岁|小时|分钟)",
    re.IGNORECASE,
)


def without_confirmation(text: str) -> str:
    """``text`` without the confirmation it opens with (``CONFIRMATION``), if any."""
    opening = CONFIRMATION.match(text)
    return text[opening.end() :] if opening else text


def new_content_terms(*, existing: str, candidate: str) -> set[str]:
    """Content words of ``candidate`` that ``existing`` lacks (jieba/spaCy terms as recall
    tokenises them, generic and restating words left out), and the Han characters it holds as
    words of their own that appear nowhere in ``existing`` ("猫" of "用户养了一只猫" against
    "…一只狗"; recall's terms leave one-character words out).

    A Han term spelt out in ``existing`` is no new word even where jieba cut ``existing``
    otherwise: "先给" of "，先给结论" is in "并先给结论", which jieba cuts "并先/给/结论"."""
    known = set(nlp.query_terms(existing)) | _numbers(existing)
    found = set(nlp.query_terms(candidate)) | _numbers(candidate)
    new = {
        t
        for t in found
        if t not in known and t not in RESTATING_WORDS and not _spelt_out_in(t, existing)
    }
    return new | {
        word
        for word in nlp.single_han_words(candidate)
        if word not in FUNCTION_CHARACTERS and word not in existing
    }


HAN_TERM = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]+")


def _spelt_out_in(term: str, text: str) -> bool:
    """Whether ``term`` is all Han characters and appears verbatim in ``text``."""
    return HAN_TERM.fullmatch(term) is not None and term in text


def _numbers(text: str) -> set[str]:
    return {f"#{m.group(0).lower()}" for m in NUMBER.finditer(text)}


def is_duplicate(*, existing: str, candidate: str, similarity: float, min_score: float) -> bool:
    """Whether ``candidate`` only repeats the active memory ``existing``.

    Close in meaning is not enough: "以后默认用英文回答" and "以后默认用中文回答" are close and
    contradict each other (an update, never a NOOP). So a duplicate must also bring no content
    word of its own and keep the other's negation. A confirmation opening either text
    ("没错，", "Yes, ") is not part of its fact and is left out of both comparisons."""
    if similarity < min_score:
        return False
    existing, candidate = without_confirmation(existing), without_confirmation(candidate)
    if bool(NEGATION.search(existing)) != bool(NEGATION.search(candidate)):
        return False
    return not new_content_terms(existing=existing, candidate=candidate)
