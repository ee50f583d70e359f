"""Request rate limits shared by every web node: fixed windows counted in PostgreSQL.

A request that writes or searches is counted once, at the edge where its service token and
scope are known (``/v1``, ``/mcp``, the user API), against two keys: its token and kind, its
scope and kind. One upsert counts both and returns their counts, in its own short transaction
before the request's work (a counter's commit: ``memories.counters``), so no long write holds
the counter rows. Past a limit the edge answers 429 with ``Retry-After``: the seconds left in
the window. The window is read from the database's clock, so nodes with drifting clocks still
share one window.
"""

from __future__ import annotations

import logging
import math
from enum import StrEnum

from django.conf import settings
from django.db import DatabaseError, connection

from memories import metrics
from memories.counters import counter_transaction
from memories.types import MemoryScope

logger = logging.getLogger(__name__)


class RateKind(StrEnum):
    WRITE = "write"
    SEARCH = "search"


class RateLimited(Exception):
    """Too many requests of ``kind`` for the token or scope (``by``) in this window."""

    def __init__(self, *, kind: str, by: str, retry_after: int) -> None:
        super().__init__(f"too many {kind} requests for this {by}; retry after {retry_after} s")
        self.kind = kind
        self.by = by
        self.retry_after = retry_after


# Keys are sorted before the upsert: two requests sharing a token or a scope then lock the
# rows they share in one order and never deadlock.
COUNT = """
WITH w AS (
    SELECT to_timestamp(floor(extract(epoch FROM clock_timestamp()) / %(w)s) * %(w)s) AS start
)
INSERT INTO poco_rate_windows AS r (key, window_start, hits)
SELECT k.key, w.start, 1 FROM w, unnest(%(keys)s::text[]) WITH ORDINALITY AS k(key, n)
ORDER BY k.n
ON CONFLICT (key, window_start) DO UPDATE SET hits = r.hits + 1
RETURNING key, hits, r.window_start,
    extract(epoch FROM r.window_start + make_interval(secs => %(w)s) - clock_timestamp())
"""


def _limits(kind: str, scope: MemoryScope, token: str | None) -> dict[str, tuple[str, int]]:
    """key -> (what it counts, its limit) for the limits that are on."""
    keys = {f"scope:{scope.key}:{kind}": ("scope", settings.RATE_LIMITS[("scope", kind)])}
    if token is not None:
        keys[f"token:{token}:{kind}"] = ("token", settings.RATE_LIMITS[("token", kind)])
    return {key: value for key, value in keys.items() if value[1] > 0}


def rate_check(*, kind: RateKind, scope: MemoryScope, token: str | None) -> None:
    """Count one request of ``kind`` for ``scope`` (and ``token``, a service token's name);
    raise ``RateLimited`` past a limit. An unreachable database lets the request through:
    the limiter is never why an outage is answered differently."""
    limits = _limits(kind.value, scope, token)
    if not limits:
        return
    window = settings.RATE_WINDOW_SECONDS
    try:
        with counter_transaction(), connection.cursor() as cursor:
            cursor.execute(COUNT, {"w": window, "keys": sorted(limits)})
            counted = cursor.fetchall()
            if any(hits == 1 for _, hits, _, _ in counted):
                # The first request of a new window: earlier windows are of no use any more.
                cursor.execute(
                    "DELETE FROM poco_rate_windows WHERE window_start < %s", [counted[0][2]]
                )
    except DatabaseError as exc:
        logger.warning("rate limit not checked: %s", type(exc).__name__)
        return
    for key, hits, _, left in counted:
        by, limit = limits[key]
        if hits > limit:
            metrics.rate_limited.labels(kind.value, by).inc()
            raise RateLimited(kind=kind.value, by=by, retry_after=max(1, math.ceil(left)))


def rate_window_peaks() -> list[tuple[str, str, int]]:
    """(by, kind, hits) of the busiest token and scope of each kind in the current window, read
    from the shared counters, so a scrape of any node shows the whole cluster's load."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT split_part(key, ':', 1), substring(key from '[^:]+$'), max(hits) "
            "FROM poco_rate_windows "
            "WHERE window_start = (SELECT max(window_start) FROM poco_rate_windows) "
            "GROUP BY 1, 2 ORDER BY 1, 2"
        )
        return [(by, kind, int(hits)) for by, kind, hits in cursor.fetchall()]
