"""What a write compares a new fact with: the scope's live memories of the same key, the same
text, or close in meaning."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from django.conf import settings
from django.db import connection
from django.db.models.fields.json import KT

from memories import governance
from memories.engine import get_engine
from memories.language import nlp
from memories.models import MemoryRow
from memories.recall.live import live_condition, scope_condition
from memories.selectors.records import memory_get
from memories.selectors.rows import MEMORY_TABLE, live_rows, to_record
from memories.text import normalize_quotes
from memories.types import MemoryRecord, MemoryScope


def memory_active_by_key(*, scope: MemoryScope, memory_key: str) -> MemoryRow | None:
    """The one current memory of ``memory_key`` in the scope, if any."""
    return (
        live_rows(scope)
        .alias(key=KT("payload__memory_key"))
        .filter(key=memory_key)
        .defer("vector")
        .first()
    )


def memory_find_by_text(*, scope: MemoryScope, text: str) -> MemoryRecord | None:
    """A live memory of the scope with this text, quotes folded or as given (a superseded or
    expired one is history, not a duplicate)."""
    # ->> text equality, the form the hash index on the text answers (migration 0008).
    variants = sorted({text, normalize_quotes(text)})
    rows = live_rows(scope).alias(text=KT("payload__data")).filter(text__in=variants)
    row = rows.defer("vector").first()
    return to_record(row) if row else None


_T = TypeVar("_T")


# How many nearest live memories a new fact is compared with for a semantic duplicate.
DEDUP_CANDIDATES = 5


def memory_near_duplicate(
    *, scope: MemoryScope, text: str, exclude_ids: tuple[str, ...] = ()
) -> MemoryRecord | None:
    """The live memory of the scope that ``text`` repeats (``governance.is_duplicate``: close in
    meaning and no new content word), or None. Raises ``BackendError``."""
    vector = get_engine().embed_query(text)
    [candidates] = memory_nearest_many(scope=scope, vectors=[vector], exclude_ids=exclude_ids)
    memory_id = first_duplicate(text=text, candidates=candidates)
    return memory_get(scope=scope, memory_id=memory_id) if memory_id else None


def first_duplicate(*, text: str, candidates: Sequence[tuple[_T, str, float]]) -> _T | None:
    """The first of ``candidates`` (what it is, its text, similarity; nearest first) that
    ``text`` only repeats, or None."""
    for memory_id, content, score in candidates:
        if governance.is_duplicate(
            existing=content, candidate=text, similarity=score, min_score=settings.DEDUP_MIN_SCORE
        ):
            return memory_id
    return None


def memory_nearest_many(
    *, scope: MemoryScope, vectors: list[list[float]], exclude_ids: tuple[str, ...] = ()
) -> list[list[tuple[str, str, float]]]:
    """For each vector, the scope's ``DEDUP_CANDIDATES`` nearest live memories as (id, text,
    similarity), nearest first, leaving out ``exclude_ids`` — one statement for a whole batch
    (a LATERAL top-k per vector).

    The vectors arrive as ``vector[]``: a ``text`` element cast inside the LATERAL was parsed
    again for every row it was compared with (~100 µs a row, 3 s per vector at 20,000).
    Inside a write, the rows' stored lemmas go to the write's memo (``nlp.remember_lemmas``):
    the duplicate check compares words without a jieba/spaCy pass over each memory."""
    if not vectors:
        return []
    found: list[list[tuple[str, str, float]]] = [[] for _ in vectors]
    with connection.cursor() as cursor:
        cursor.execute(
            f"""
            SELECT c.ord, n.id, n.data, n.lemmas, n.score
            FROM unnest(%s::vector[]) WITH ORDINALITY AS c(v, ord)
            CROSS JOIN LATERAL (
                SELECT m.id, m.payload->>'data' AS data,
                       m.payload->>'text_lemmatized' AS lemmas, 1 - (m.vector <=> c.v) AS score
                FROM {MEMORY_TABLE} m
                WHERE {scope_condition("m")} AND {live_condition("m")}
                  AND NOT (m.id::text = ANY(%s::text[]))
                ORDER BY m.vector <=> c.v
                LIMIT %s
            ) n
            ORDER BY c.ord, n.score DESC
            """,
            [[str(v) for v in vectors], scope.key, list(exclude_ids), DEDUP_CANDIDATES],
        )
        rows = cursor.fetchall()
    for ordinal, memory_id, content, _, score in rows:
        found[int(ordinal) - 1].append((str(memory_id), str(content or ""), float(score)))
    nlp.remember_lemmas((str(content or ""), lemmas) for _, _, content, lemmas, _ in rows)
    return found


def memories_live_by_text(*, scope: MemoryScope, texts: list[str]) -> dict[str, list[str]]:
    """Ids of the scope's live memories with one of ``texts``, by the text's quote-folded form
    (``normalize_quotes``: “周报” and "周报" are the same text). A text is looked up as given
    and folded, so the index on the text answers (what older versions stored is folded); a
    memory typed with other marks than the new text ("「」" for "“”") is left to the meaning
    check, which folds both."""
    found: dict[str, list[str]] = {}
    wanted = sorted({*texts, *(normalize_quotes(text) for text in texts)})
    rows = (
        live_rows(scope)
        .alias(text=KT("payload__data"))
        .filter(text__in=wanted)
        .order_by("id")
        .values_list("id", "payload__data")
    )
    for memory_id, text in rows:
        found.setdefault(normalize_quotes(str(text)), []).append(str(memory_id))
    return found


def memories_active_by_keys(*, scope: MemoryScope, memory_keys: list[str]) -> dict[str, MemoryRow]:
    """The current memory of each of ``memory_keys`` that one has, by key."""
    if not memory_keys:
        return {}
    rows = (
        live_rows(scope)
        .alias(key=KT("payload__memory_key"))
        .filter(key__in=memory_keys)
        .defer("vector")
    )
    found: dict[str, MemoryRow] = {}
    for row in rows:
        found.setdefault(str(row.payload.get("memory_key")), row)
    return found
