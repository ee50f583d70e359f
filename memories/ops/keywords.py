"""Stored keyword tokens written again: what the data migrations run when a rule of
``nlp.lemmatize_for_bm25`` changes (0021, 0024, 0025).

Only ``payload.text_lemmatized`` is rewritten, never what the user wrote; the ``terms`` column
and the term counts (migration 0006's triggers) follow the UPDATE.
"""

from __future__ import annotations

from typing import Any

BATCH = 500


def memories_matching(cursor: Any, pattern: str) -> list[tuple[str, str, str]]:
    """(id, text, stored tokens) of every memory with tokens whose text matches ``pattern``
    (a PostgreSQL regular expression)."""
    cursor.execute(
        "SELECT id::text, payload->>'data', payload->>'text_lemmatized' FROM poco_memories "
        "WHERE payload->>'text_lemmatized' IS NOT NULL AND payload->>'data' ~ %s",
        [pattern],
    )
    return list(cursor.fetchall())


def tokenised_again(rows: list[tuple[str, str, str]]) -> list[tuple[str, str]]:
    """(new tokens, id) of the ``rows`` whose tokens the engine's jieba and spaCy now cut
    differently."""
    from memories.engine import bootstrap
    from memories.language import nlp

    bootstrap.prepare()  # jieba with the engine's own words, spaCy's pipeline
    return [
        (tokens, memory_id)
        for memory_id, text, lemmas in rows
        if (tokens := nlp.lemmatize_for_bm25(text)) != lemmas
    ]


def write_tokens(cursor: Any, changed: list[tuple[str, str]]) -> None:
    """Store each (tokens, id) of ``changed`` as its memory's ``text_lemmatized``."""
    for start in range(0, len(changed), BATCH):
        chunk = changed[start : start + BATCH]
        cursor.execute(
            "UPDATE poco_memories m "
            "SET payload = jsonb_set(m.payload, '{text_lemmatized}', to_jsonb(k.tokens)) "
            "FROM unnest(%s::text[], %s::uuid[]) AS k(tokens, id) WHERE m.id = k.id",
            ([tokens for tokens, _ in chunk], [memory_id for _, memory_id in chunk]),
        )
