"""The one place where the service counts what agents were given: a memory a search recalled,
a memory the context endpoint injected. Searches are counted by the selector every search door
calls (``memory_search(counted=True)``: ``/v1``, the user API, MCP's
``search_user_memory``, ``/mem0``); ``/v1`` context counts what it injected.

Only counts and the time of the last use are kept (``MemoryUse``), never the query, the input or
who asked. Counting is best effort: a search that found its memories answers them even when
the count cannot be written.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from enum import StrEnum
from typing import Any

from django.db import DatabaseError, connection

from memories.counters import counter_transaction
from memories.models import MemoryUse
from memories.recall.live import scope_condition
from memories.types import MemoryScope

logger = logging.getLogger(__name__)


class Use(StrEnum):
    RECALLED = "recalled"  # returned by a search
    INJECTED = "injected"  # put into an agent's prompt by the context endpoint


# Only ids of the scope's own memories that exist now are counted (a hit deleted meanwhile is
# not); rows in id order, so two counts of overlapping hits never wait on each other in a cycle.
COUNT = f"""
INSERT INTO memories_memoryuse AS u
    (memory_id, tenant_id, user_id, recalled_count, last_recalled_at,
     injected_count, last_injected_at)
SELECT m.id, %(tenant)s, %(user)s, %(recalled)s,
       CASE WHEN %(recalled)s > 0 THEN now() END,
       %(injected)s, CASE WHEN %(injected)s > 0 THEN now() END
FROM poco_memories m
WHERE m.id = ANY(%(ids)s::uuid[]) AND {scope_condition("m", "%(scope)s")}
ORDER BY m.id
ON CONFLICT (memory_id) DO UPDATE SET
    recalled_count = u.recalled_count + EXCLUDED.recalled_count,
    last_recalled_at = coalesce(EXCLUDED.last_recalled_at, u.last_recalled_at),
    injected_count = u.injected_count + EXCLUDED.injected_count,
    last_injected_at = coalesce(EXCLUDED.last_injected_at, u.last_injected_at)
"""


def count_use(*, scope: MemoryScope, memory_ids: Iterable[str], use: Use) -> None:
    """Count one ``use`` of each of ``memory_ids`` (each at most once per call)."""
    ids = sorted(set(memory_ids))
    if not ids:
        return
    params: dict[str, Any] = {
        "tenant": scope.tenant_id,
        "user": scope.user_id,
        "scope": scope.key,
        "ids": ids,
        "recalled": int(use == Use.RECALLED),
        "injected": int(use == Use.INJECTED),
    }
    try:
        with counter_transaction(), connection.cursor() as cursor:
            cursor.execute(COUNT, params)
    except DatabaseError as exc:
        logger.warning("memory use not counted: %s", type(exc).__name__)


def restore_use(*, scope: MemoryScope, uses: dict[str, dict[str, Any]]) -> None:
    """An import's usage of the memories it wrote, as the export counted it: ``uses`` maps a
    new memory's id to its exported counts and times. Only memories with a use get a row."""
    rows = [
        MemoryUse(
            memory_id=memory_id,
            tenant_id=scope.tenant_id,
            user_id=scope.user_id,
            recalled_count=int(use.get("recalled_count") or 0),
            last_recalled_at=use.get("last_recalled_at"),
            injected_count=int(use.get("injected_count") or 0),
            last_injected_at=use.get("last_injected_at"),
        )
        for memory_id, use in uses.items()
        if use.get("recalled_count") or use.get("injected_count")
    ]
    MemoryUse.objects.bulk_create(rows, ignore_conflicts=True)
