"""GET /metrics: Prometheus text format, for holders of a service token (the same
authentication class as /v1, so one token list and one comparison rule) that is not bound to
tenants: the counters and table sizes span every tenant, so a token bound to some is refused
(403 in the one error shape, recorded like a refusal on /v1).

Counters of every process (web and queue workers) are merged when PROMETHEUS_MULTIPROC_DIR is
set (``make run`` sets it); table sizes are read from PostgreSQL at scrape time.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

from django.db import connection
from django.http import HttpRequest, HttpResponse
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, CollectorRegistry, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import Collector
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.request import Request

from edges.contract.auth import ServiceCaller, ServiceTokenAuthentication, TenantRefused
from edges.contract.errors import error_response
from memories.ratelimits import rate_window_peaks


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
        peaks = GaugeMetricFamily(
            "memory_rate_window_peak",
            "Requests of the busiest token or scope in the current rate window",
            labels=["by", "kind"],
        )
        for by, kind, hits in rate_window_peaks():
            peaks.add_metric([by, kind], hits)
        yield peaks


class ScraperAuthentication(ServiceTokenAuthentication):
    edge = "metrics"


def _caller(request: HttpRequest) -> ServiceCaller | None:
    # No "open when DEBUG" exception: the token is printed by `make run`, and table sizes
    # and admission counters are not for whoever can reach the port.
    try:
        authenticated = ScraperAuthentication().authenticate(Request(request))
    except AuthenticationFailed:
        return None
    return authenticated[0] if authenticated else None


def metrics(request: HttpRequest) -> HttpResponse:
    caller = _caller(request)
    if caller is None:
        response = HttpResponse("unauthorized\n", status=401, content_type="text/plain")
        response["WWW-Authenticate"] = ServiceTokenAuthentication.keyword
        return response
    try:
        caller.check_operator()
    except TenantRefused as refused:
        return error_response(403, "forbidden", str(refused.detail))
    registry = REGISTRY
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        MultiProcessCollector(registry)
    tables = CollectorRegistry()
    tables.register(TableSizes())
    body = generate_latest(registry) + generate_latest(tables)
    return HttpResponse(body, content_type=CONTENT_TYPE_LATEST)
