"""How many PostgreSQL connections the service may hold, to size ``max_connections`` (README,
"Connections"). Every figure is a pool's upper bound; none grows with requests or threads."""

from __future__ import annotations

from django.conf import settings

# procrastinate's worker opens psycopg_pool's AsyncConnectionPool with its defaults: four
# connections, one of them listening for new jobs.
QUEUE_WORKER_POOL_SIZE = 4


def per_web_process() -> int:
    """Django's pool (requests, MCP) and the engine's (Mem0's statements, recall)."""
    return int(settings.DB_POOL_SIZE) + int(settings.ENGINE_POOL_SIZE)


def per_queue_worker() -> int:
    """A worker runs the same code as a web process, plus procrastinate's own pool."""
    return per_web_process() + QUEUE_WORKER_POOL_SIZE


def connection_budget(*, web: int, workers: int) -> int:
    """The most connections ``web`` web processes and ``workers`` queue workers hold at once."""
    return web * per_web_process() + workers * per_queue_worker()


def server_limit(database_url: str) -> int:
    """How many connections PostgreSQL at ``database_url`` lets ordinary roles open."""
    import psycopg

    with psycopg.connect(database_url, connect_timeout=5) as conn:
        row = conn.execute(
            "SELECT current_setting('max_connections')::int"
            " - current_setting('superuser_reserved_connections')::int"
        ).fetchone()
    assert row is not None
    return int(row[0])


def budget_report(*, web: int, workers: int, limit: int) -> str:
    """One line for the operator: the service's most against what the server allows."""
    total = connection_budget(web=web, workers=workers)
    verdict = "within" if total <= limit else "MORE THAN"
    return (
        f"connections: at most {total} ({web} web × {per_web_process()}"
        f" + {workers} worker × {per_queue_worker()}), {verdict} the {limit} PostgreSQL allows"
    )
