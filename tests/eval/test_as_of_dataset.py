"""The as-of kind of `make eval` is consistent: by the dates its facts carry, each question's
version held at its ``as_of`` and each stale one did not, and a fact's versions share a key
(pure checks: no database, no model)."""

from __future__ import annotations

from datetime import datetime

from edges.contract.fields import parse_as_of
from eval import as_of
from memories.types import MEMORY_KEY


def _held(scope: str) -> dict[str, tuple[datetime, datetime | None]]:
    """Each fact's interval: from its day until its expiry or its next version's day."""
    facts = sorted(as_of.FACTS[scope], key=lambda f: f.since)
    spans: dict[str, tuple[datetime, datetime | None]] = {}
    for fact in facts:
        later = [f for f in facts if f.memory_key and f.memory_key == fact.memory_key]
        successor = next((f for f in later if f.since > fact.since), None)
        ends = [as_of.noon(d) for d in (fact.until, successor and successor.since) if d]
        spans[fact.key] = (as_of.noon(fact.since), min(ends, default=None))
    return spans


def test_every_question_names_the_version_that_held_then():
    assert len(as_of.QUESTIONS) >= 10
    for question in as_of.QUESTIONS:
        spans = _held(question.scope)
        at = parse_as_of(question.as_of)

        def holds(key: str, at: datetime = at, spans=spans) -> bool:
            start, end = spans[key]
            return start <= at and (end is None or at < end)

        assert holds(question.relevant), question
        assert not any(holds(key) for key in question.stale), question


def test_versions_share_a_valid_key_and_keys_are_unique():
    keys = [f.key for facts in as_of.FACTS.values() for f in facts]
    assert len(keys) == len(set(keys))
    for facts in as_of.FACTS.values():
        for fact in facts:
            assert not fact.memory_key or MEMORY_KEY.match(fact.memory_key), fact
    for question in as_of.QUESTIONS:
        by_key = {f.key: f for f in as_of.FACTS[question.scope]}
        for key in question.stale:
            assert by_key[key].memory_key == by_key[question.relevant].memory_key, question
