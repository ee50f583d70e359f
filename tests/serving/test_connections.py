"""The connection budget the launcher and the cluster print against PostgreSQL's limit."""

from __future__ import annotations

import pytest
from django.db import connection

from memories.engine import get_engine
from poco_memory.connections import (
    QUEUE_WORKER_POOL_SIZE,
    budget_report,
    connection_budget,
    server_limit,
)


def test_the_budget_is_every_pool_bound_summed(settings):
    settings.DB_POOL_SIZE, settings.ENGINE_POOL_SIZE = 8, 4
    assert connection_budget(web=2, workers=1) == 2 * 12 + 12 + QUEUE_WORKER_POOL_SIZE
    assert connection_budget(web=0, workers=0) == 0


def test_the_pools_are_the_ones_the_budget_counts(settings, db):
    options = connection.settings_dict["OPTIONS"]["pool"]
    assert connection.settings_dict["CONN_MAX_AGE"] == 0  # returned after every request
    assert options["max_size"] == settings.DB_POOL_SIZE
    engine_pool = get_engine()._memory.vector_store.connection_pool
    assert engine_pool.max_size == settings.ENGINE_POOL_SIZE


@pytest.mark.django_db
def test_the_report_compares_with_what_the_server_allows(settings):
    limit = server_limit(settings.DATABASE_URL)
    assert 0 < limit <= 100_000
    line = budget_report(web=2, workers=1, limit=limit)
    assert f"the {limit} PostgreSQL allows" in line and "within" in line
    assert "MORE THAN" in budget_report(web=1000, workers=1, limit=limit)
