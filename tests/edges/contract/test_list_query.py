"""Every list edge parses its parameters into the one ``ListQuery`` (memories.types), so a
filter means the same on /v1, the user API, the console and Mem0's get_all."""

from __future__ import annotations

from datetime import date

from django.http import QueryDict
from django.utils import timezone

from edges.console.filters import PAGE_SIZE
from edges.console.forms import MemoryFilterForm
from edges.contract.serializers import ListInput
from edges.user_api.views import MemoryListApi
from memories.types import ListOrder, ListQuery, StatusFilter

SCOPE = {"tenant_id": "acme", "user_id": "alice"}


def test_the_defaults_are_the_same_query_on_every_edge():
    v1 = ListInput(data=SCOPE)
    assert v1.is_valid(), v1.errors
    user = MemoryListApi.InputSerializer(data={})
    assert user.is_valid(), user.errors
    assert v1.list_query() == user.list_query() == ListQuery()
    assert MemoryFilterForm(QueryDict()).filters().list_query() == ListQuery(page_size=PAGE_SIZE)


def test_each_edges_names_land_on_the_same_fields():
    wanted = ListQuery(
        query="飞书 周报",
        category="preference",
        source="console",
        topic="t-1",
        status=StatusFilter.ALL,
        page=2,
        page_size=20,
    )
    v1 = ListInput(
        data={
            **SCOPE,
            "query": "飞书 周报",
            "category": "preference",
            "source": "console",
            "topic": "t-1",
            "status": "all",
            "page": 2,
        }
    )
    assert v1.is_valid(), v1.errors
    user = MemoryListApi.InputSerializer(
        data={
            "q": "飞书 周报",
            "category": "preference",
            "source": "console",
            "topic": "t-1",
            "status": "all",
            "page": 2,
        }
    )
    assert user.is_valid(), user.errors
    console = MemoryFilterForm(
        QueryDict(
            "q=飞书+周报&category=preference&source=console&topic=t-1&status=all&page=2",
        )
    ).filters()
    assert v1.list_query() == user.list_query() == console.list_query() == wanted


def test_the_console_and_the_user_api_share_order_and_run():
    user = MemoryListApi.InputSerializer(data={"order": "last_used", "run_id": "run-42"})
    assert user.is_valid(), user.errors
    console = MemoryFilterForm(QueryDict("sort=last_used&run=run-42")).filters()
    assert user.list_query() == console.list_query()
    assert user.list_query().order == ListOrder.LAST_USED


def test_the_consoles_days_become_instants_of_its_time_zone():
    filters = MemoryFilterForm(QueryDict("date_from=2026-11-01&date_to=2026-11-30")).filters()
    query = filters.list_query()
    tz = timezone.get_current_timezone()
    assert query.created_from is not None and query.created_before is not None
    assert query.created_from.astimezone(tz).date() == date(2026, 11, 1)
    assert query.created_before.astimezone(tz).date() == date(2026, 12, 1)  # to includes its day
