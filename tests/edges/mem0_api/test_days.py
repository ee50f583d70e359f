"""A day on /mem0 is a day in the service's time zone (``memories.instants``), as on the console:
"created on 2026-12-01" is the same set of memories on both doors, and an expiration date keeps a
memory through the whole of that day where the service is."""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest
from django.http import QueryDict
from rest_framework.test import APIClient

from edges.console.forms import MemoryFilterForm
from memories import selectors, services
from memories.instants import day_end
from memories.scope import scope_of
from tests.edges.mem0_api.conftest import TENANT, TOKEN, TOKENS
from tests.memories.ops.conftest import mem0_sql

pytestmark = pytest.mark.django_db

SHANGHAI = ZoneInfo("Asia/Shanghai")
ALICE = scope_of(tenant_id=TENANT, user_id="alice")


@pytest.fixture
def mem0(settings) -> APIClient:
    settings.SERVICE_TOKENS = TOKENS
    settings.TIME_ZONE = "Asia/Shanghai"
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {TOKEN}")
    return client


def created_at(memory_id: str, moment: datetime) -> None:
    mem0_sql(
        "UPDATE poco_memories"
        " SET payload = payload || jsonb_build_object('created_at', %s::text) WHERE id = %s",
        (moment.isoformat(), memory_id),
    )


def listed(client: APIClient, **body: object) -> list[str]:
    answer = client.post("/mem0/v3/memories/", body, format="json")
    assert answer.status_code == 200, answer.content
    return [item["id"] for item in answer.json()["results"]]


def test_a_memory_created_early_on_a_local_day_is_created_on_that_day_on_every_door(mem0, agent):
    early = services.memory_add(scope=ALICE, text="I drink green tea.", actor=agent).memory_id
    assert early is not None
    created_at(early, datetime(2026, 12, 1, 1, 0, tzinfo=SHANGHAI))  # 2026-11-30T17:00Z

    on_the_day = {"user_id": "alice", "created_at": {"gte": "2026-12-01", "lte": "2026-12-01"}}
    assert listed(mem0, filters=on_the_day) == [early]
    assert listed(mem0, filters={"user_id": "alice"}, start_date="2026-12-01") == [early]
    the_day_before = {"user_id": "alice", "created_at": {"lte": "2026-11-30"}}
    assert listed(mem0, filters=the_day_before) == []

    console = MemoryFilterForm(QueryDict("date_from=2026-12-01&date_to=2026-12-01")).filters()
    page = selectors.memory_list(scope=ALICE, query=console.list_query())
    assert [record.id for record in page.items] == [early]


def test_an_expiration_date_lasts_to_the_end_of_that_day_in_the_service_time_zone(mem0):
    answer = mem0.post(
        "/mem0/v3/memories/add/",
        {
            "messages": "I run on Sundays.",
            "user_id": "alice",
            "infer": False,
            "expiration_date": "2026-12-31",
        },
        format="json",
    )
    assert answer.status_code == 200, answer.content
    memory_id = answer.json()["results"][0]["id"]
    record = selectors.memory_get(scope=ALICE, memory_id=memory_id)
    assert record.valid_until == day_end(date(2026, 12, 31))
    shown = mem0.get(f"/mem0/v1/memories/{memory_id}/").json()
    assert shown["expiration_date"] == "2026-12-31"
