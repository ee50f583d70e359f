"""The entity index, written and cleaned in set-based SQL (our replacement for Mem0's helpers).

Mem0 2.2.1 links a memory's entities one at a time (``Memory._upsert_entity``): for *each*
entity it lists up to 10,000 entity rows of the scope with their payloads, embeds the entity
alone, runs a vector search and rewrites the growing ``linked_memory_ids`` array from Python;
its clean-up on delete lists the scope again and re-embeds every entity it touches.  An add
cost grew with the memory.  Here the same rows come out of a few statements whose cost does
not grow with the scope:

* exact match by the normalised text (Mem0's ``_normalize_entity_text``), through the
  ``poco_memories_entities_key_idx`` expression index;
* the names with no exact match are embedded in one batch and matched semantically (Mem0's
  top-1 at similarity >= 0.95) in one statement; the rest are inserted;
* links are appended / removed with ``jsonb`` operators in SQL, never re-embedding.

A new all-Han name also gets ``pinyin``, the list of its readings (青鸟 → ``["qingniao", …]``,
``memories.language.pinyin.pinyin_readings``), so recall finds it when a query writes the name in
Latin letters (migration 0011 indexes them and fills them in for rows written before).

Rows keep Mem0's payload shape (``data``, ``entity_type``, ``linked_memory_ids``, ``user_id``)
so recall, Mem0's own search and our residue checks read them unchanged.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

from psycopg import sql

from memories.language.pinyin import pinyin_readings

Entity = tuple[str, str]
# Mem0's ``_upsert_entity``: a stored entity this similar to a new name is the same entity.
SEMANTIC_MATCH = 0.95
# The SQL twin of ``name_key`` (the expression of the index in migration 0003).
NAME_KEY_SQL = r"regexp_replace(btrim(lower(payload->>'data')), '\s+', ' ', 'g')"


def name_key(text: str) -> str:
    """Mem0's ``Memory._normalize_entity_text``: lower case, single spaces."""
    return " ".join(text.strip().lower().split())


@dataclass
class _Wanted:
    entity_type: str
    text: str
    memory_ids: list[str] = field(default_factory=list)


def _wanted(links: Sequence[tuple[str, Sequence[Entity]]]) -> dict[str, _Wanted]:
    """Each distinct name once (its first spelling and type win, as in Mem0), with every
    memory that mentions it."""
    wanted: dict[str, _Wanted] = {}
    for memory_id, entities in links:
        for entity_type, text in entities:
            key = name_key(text)
            if not key:
                continue
            entry = wanted.setdefault(key, _Wanted(entity_type=entity_type, text=text))
            if memory_id not in entry.memory_ids:
                entry.memory_ids.append(memory_id)
    return wanted


def link(
    cur: Any,
    *,
    table: str,
    scope_key: str,
    links: Sequence[tuple[str, Sequence[Entity]]],
    embed_batch: Callable[[list[str]], list[list[float]]],
    new_memories: bool = False,
) -> None:
    """Link each ``(memory_id, entities)`` of one scope, in a handful of statements.

    Each name finds its row by exact text, else by Mem0's semantic match, else gets a new row
    that already holds its links; the found rows then get the memory ids appended.

    ``new_memories``: the ids were just inserted, so no entity links them yet and the ids are
    appended without testing each against the whole array (a name linked to thousands of
    memories made that test part of every add)."""
    wanted = _wanted(links)
    if not wanted:
        return
    ident = sql.Identifier(table)
    target = _exact_matches(cur, ident, scope_key, list(wanted))
    missing = [k for k in wanted if k not in target]
    if missing:
        vectors = [str(list(v)) for v in embed_batch([wanted[k].text for k in missing])]
        target |= _semantic_matches(cur, ident, scope_key, dict(zip(missing, vectors, strict=True)))
        unmatched = [(k, v) for k, v in zip(missing, vectors, strict=True) if k not in target]
        _insert_entities(cur, ident, scope_key, [(wanted[k], v) for k, v in unmatched])
    pairs = [(target[k], m) for k, w in wanted.items() if k in target for m in w.memory_ids]
    _append_links(cur, ident, pairs, check_linked=not new_memories)


def _exact_matches(
    cur: Any, ident: sql.Identifier, scope_key: str, keys: list[str]
) -> dict[str, str]:
    """Name key -> id of the scope's row with that normalised text (the lowest id of several)."""
    cur.execute(
        sql.SQL(
            "SELECT DISTINCT ON (k) k, id::text FROM ("
            f"SELECT {NAME_KEY_SQL} AS k, id FROM {{t}} "
            f"WHERE payload->>'user_id' = %s AND {NAME_KEY_SQL} = ANY(%s)"
            ") found ORDER BY k, id"
        ).format(t=ident),
        (scope_key, keys),
    )
    return {str(k): str(i) for k, i in cur.fetchall()}


def _semantic_matches(
    cur: Any, ident: sql.Identifier, scope_key: str, vectors: dict[str, str]
) -> dict[str, str]:
    """Name key -> id of the scope's nearest row when at least ``SEMANTIC_MATCH`` similar to
    the name's vector (Mem0's top-1 rule), all names in one statement."""
    keys = list(vectors)
    cur.execute(
        sql.SQL(
            "SELECT q.ord::int, e.id::text "
            "FROM unnest(%s::vector[]) WITH ORDINALITY AS q(v, ord) "
            "CROSS JOIN LATERAL (SELECT id, 1 - (vector <=> q.v) AS score FROM {t} "
            "WHERE payload->>'user_id' = %s ORDER BY vector <=> q.v LIMIT 1) e "
            "WHERE e.score >= %s"
        ).format(t=ident),
        (list(vectors.values()), scope_key, SEMANTIC_MATCH),
    )
    return {keys[int(ordinal) - 1]: str(entity_id) for ordinal, entity_id in cur.fetchall()}


def _insert_entities(
    cur: Any, ident: sql.Identifier, scope_key: str, rows: list[tuple[_Wanted, str]]
) -> None:
    """New entity rows in Mem0's payload shape, linked to their memories from the start; an
    all-Han name also stores its pinyin readings."""
    if not rows:
        return
    ids, vectors, payloads = [], [], []
    for entry, vector in rows:
        payload = {
            "data": entry.text,
            "entity_type": entry.entity_type,
            "linked_memory_ids": entry.memory_ids,
            "user_id": scope_key,
        }
        readings = pinyin_readings(entry.text)
        if readings:
            payload["pinyin"] = readings
        ids.append(str(uuid.uuid4()))
        vectors.append(vector)
        payloads.append(json.dumps(payload, ensure_ascii=False))
    cur.execute(
        sql.SQL(
            "INSERT INTO {t} (id, vector, payload) "
            "SELECT i, v::vector, p::jsonb FROM unnest(%s::uuid[], %s::text[], %s::text[]) "
            "AS r(i, v, p)"
        ).format(t=ident),
        (ids, vectors, payloads),
    )


def _append_links(
    cur: Any, ident: sql.Identifier, pairs: list[tuple[str, str]], *, check_linked: bool
) -> None:
    """Append each ``(entity_id, memory_id)`` link in one UPDATE; with ``check_linked`` a
    memory the entity already links is not appended twice."""
    if not pairs:
        return
    entity_ids, memory_ids = (list(column) for column in zip(*pairs, strict=True))
    unlinked = (
        "WHERE NOT coalesce(e.payload->'linked_memory_ids', '[]'::jsonb) ? m"
        if check_linked
        else ""
    )
    cur.execute(
        sql.SQL(
            "WITH pairs AS (SELECT * FROM unnest(%s::uuid[], %s::text[]) AS p(eid, mid)), "
            "added AS (SELECT eid, array_agg(DISTINCT mid) AS mids FROM pairs GROUP BY eid) "
            "UPDATE {t} e SET payload = jsonb_set(e.payload, '{{linked_memory_ids}}', "
            "coalesce(e.payload->'linked_memory_ids', '[]'::jsonb) || coalesce(("
            f"SELECT jsonb_agg(m) FROM unnest(a.mids) AS m {unlinked}"
            "), '[]'::jsonb)) "
            "FROM added a WHERE e.id = a.eid"
        ).format(t=ident),
        (entity_ids, memory_ids),
    )


def relink_scope(
    cur: Any,
    *,
    table: str,
    scope_key: str,
    links: Sequence[tuple[str, Sequence[Entity]]],
    embed_batch: Callable[[list[str]], list[list[float]]],
) -> None:
    """Make the scope's entity index exactly what ``links`` — every memory of the scope with
    its entities, as the extractor finds them now — asks for.  A row whose name is still wanted
    keeps its id, spelling and vector; the others go; the links are rebuilt by ``link`` (exact
    name, then Mem0's semantic match), so only names no row holds are embedded."""
    ident = sql.Identifier(table)
    keys = list(_wanted(links))
    cur.execute(
        sql.SQL(
            f"DELETE FROM {{t}} WHERE payload->>'user_id' = %s AND NOT ({NAME_KEY_SQL} = ANY(%s))"
        ).format(t=ident),
        (scope_key, keys),
    )
    cur.execute(
        sql.SQL(
            "UPDATE {t} SET payload = jsonb_set(payload, '{{linked_memory_ids}}', '[]'::jsonb) "
            "WHERE payload->>'user_id' = %s"
        ).format(t=ident),
        (scope_key,),
    )
    link(
        cur,
        table=table,
        scope_key=scope_key,
        links=links,
        embed_batch=embed_batch,
        new_memories=True,
    )
    cur.execute(
        sql.SQL(
            "DELETE FROM {t} WHERE payload->>'user_id' = %s "
            "AND jsonb_array_length(coalesce(payload->'linked_memory_ids', '[]'::jsonb)) = 0"
        ).format(t=ident),
        (scope_key,),
    )


def unlink(cur: Any, *, table: str, memory_ids: list[str], scope_key: str | None) -> None:
    """Take ``memory_ids`` out of every entity of the scope (every scope when None) that links
    one; an entity left with no link is deleted, as Mem0 does.  Vectors are left alone (Mem0
    re-embedded the unchanged entity text only because its ``update`` wants a vector)."""
    if not memory_ids:
        return
    ident = sql.Identifier(table)
    scoped = "payload->>'user_id' = %(scope)s AND " if scope_key is not None else ""
    params = {"ids": memory_ids, "scope": scope_key}
    cur.execute(
        sql.SQL(
            "UPDATE {t} SET payload = jsonb_set(payload, '{{linked_memory_ids}}', coalesce(("
            "SELECT jsonb_agg(x) FROM jsonb_array_elements(payload->'linked_memory_ids') AS x "
            "WHERE NOT (x #>> '{{}}') = ANY(%(ids)s::text[])), '[]'::jsonb)) "
            f"WHERE {scoped}payload->'linked_memory_ids' ?| %(ids)s::text[] "
            "RETURNING id"
        ).format(t=ident),
        params,
    )
    touched = [row[0] for row in cur.fetchall()]
    if touched:
        cur.execute(
            sql.SQL(
                "DELETE FROM {t} WHERE id = ANY(%s) "
                "AND jsonb_array_length(coalesce(payload->'linked_memory_ids', '[]'::jsonb)) = 0"
            ).format(t=ident),
            (touched,),
        )


class IndexedEntities:
    """What Mem0's ``_existing_entities_by_text(filters)`` returns — entity rows of the scope by
    normalised text — answered one name at a time through the index when Mem0 asks
    (``.get(name)``), instead of listing up to 10,000 rows with their payloads per add."""

    def __init__(self, store: Any, *, table: str, filters: dict[str, Any]) -> None:
        self._store = store
        self._table = sql.Identifier(table)
        self._scope = filters.get("user_id")

    def get(self, key: str, default: Any = None) -> Any:
        if not self._scope:
            return default
        with self._store._get_cursor() as cur:
            cur.execute(
                sql.SQL(
                    f"SELECT id::text, payload FROM {{t}} WHERE payload->>'user_id' = %s "
                    f"AND {NAME_KEY_SQL} = %s ORDER BY id LIMIT 1"
                ).format(t=self._table),
                (self._scope, name_key(key)),
            )
            row = cur.fetchone()
        return SimpleNamespace(id=row[0], payload=row[1]) if row else default
