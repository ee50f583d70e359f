"""GET /metrics: Prometheus text format. Needs a service token unless DEBUG is on.

Counters of every process (web and queue workers) are merged when PROMETHEUS_MULTIPROC_DIR is
set (``make run`` sets it); table sizes are read from PostgreSQL at scrape time.
"""

from __future__ import annotations

import hmac
import os
from collections.abc import Iterator

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, HttpResponse
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, CollectorRegistry, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import Collector


class TableSizes(Collector):
    def collect(self) -> Iterator[GaugeMetricFamily]:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT (SELECT count(*) FROM poco_memories), "
                "(SELECT count(*) FROM poco_memories_entities)"
            )
            memories, entities = cursor.fetchone()
        yield GaugeMetricFamily("memory_rows", "Rows in poco_memories", value=memories)
        yield GaugeMetricFamily(
            "memory_entity_rows", "Rows in poco_memories_entities", value=entities
        )


def _authorized(request: HttpRequest) -> bool:
    if settings.DEBUG:
        return True
    keyword, _, token = request.headers.get("Authorization", "").partition(" ")
    return keyword == "Bearer" and any(
        hmac.compare_digest(token.strip().encode(), valid.encode())
        for valid in settings.SERVICE_TOKENS
    )


def metrics(request: HttpRequest) -> HttpResponse:
    if not _authorized(request):
        return HttpResponse("unauthorized\n", status=401, content_type="text/plain")
    registry = REGISTRY
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        MultiProcessCollector(registry)
    tables = CollectorRegistry()
    tables.register(TableSizes())
    body = generate_latest(registry) + generate_latest(tables)
    return HttpResponse(body, content_type=CONTENT_TYPE_LATEST)
