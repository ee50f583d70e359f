"""The list page's filters ask for the same ``ListQuery`` as every door: a day is a day in the
service's time zone (``memories.instants``), whatever zone the request runs in."""

from __future__ import annotations

from datetime import date

from django.http import QueryDict
from django.utils import timezone

from edges.console.forms import MemoryFilterForm
from edges.contract.serializers import ListFiltersParams
from memories.instants import day_start, next_day_start

DAY = date(2026, 12, 1)


def test_created_dates_are_days_in_the_service_time_zone(settings):
    settings.TIME_ZONE = "Asia/Shanghai"
    form = MemoryFilterForm(QueryDict("date_from=2026-12-01&date_to=2026-12-01"))
    with timezone.override("UTC"):  # the request's zone was the rule before; it is not now
        query = form.filters().list_query()
    assert (query.created_from, query.created_before) == (day_start(DAY), next_day_start(DAY))
    assert query.created_from.isoformat() == "2026-12-01T00:00:00+08:00"


def test_the_console_builds_its_query_through_the_apis_serializer():
    given = "q=周报&category=fact&source=manage&status=all&run=r1&page=2"
    form = MemoryFilterForm(QueryDict(given))
    query = form.filters().list_query(page_size=7)
    user_api = ListFiltersParams(
        data=QueryDict("q=周报&category=fact&source=manage&status=all&run_id=r1&page=2&page_size=7")
    )
    user_api.is_valid(raise_exception=True)
    assert query == user_api.list_query()
    assert (query.query, query.run_id, query.page, query.page_size) == ("周报", "r1", 2, 7)
