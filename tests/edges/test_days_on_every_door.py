"""A day means the same instants on every door (``memories.instants``): in the service's time
zone, whatever door it is sent to. The zone here is west of UTC (Los Angeles), so a door that
still counted days in UTC would answer differently: VS Code began to hold at 2026-03-01T01:00Z,
which is still 2026-02-28 in Los Angeles."""

from __future__ import annotations

from datetime import date

import pytest
from django.http import QueryDict
from rest_framework.test import APIClient

from edges.console.forms import MemoryFilterForm
from memories import selectors
from memories.instants import day_end
from memories.scope import scope_of
from tests.edges.mem0_api.conftest import TENANT, TOKEN, TOKENS
from tests.memories.conftest import body
from tests.memories.recall.test_as_of import NEW, OLD, QUERY, store_editors

pytestmark = pytest.mark.django_db

ALICE = scope_of(tenant_id=TENANT, user_id="alice")
DAY = "2026-02-28"


@pytest.fixture
def west(settings, v1) -> None:
    settings.TIME_ZONE = "America/Los_Angeles"
    settings.SERVICE_TOKENS = [*TOKENS, *settings.SERVICE_TOKENS]  # and /v1's


def mem0_client() -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {TOKEN}")
    return client


def held(contents: set[str]) -> str:
    assert (OLD in contents) != (NEW in contents), contents
    return OLD if OLD in contents else NEW


def test_as_of_a_day_is_the_end_of_that_day_in_the_service_time_zone_on_every_door(west, v1, agent):
    ids = store_editors(ALICE, agent)
    end = day_end(date.fromisoformat(DAY))
    assert end.isoformat() == "2026-02-28T23:59:59.999999-08:00"  # after the change, in UTC

    answers = {}
    v1_search = v1.post("search", body(ALICE, query=QUERY, top_k=10, min_score=0.0, as_of=DAY))
    assert v1_search.status_code == 200, v1_search.content
    answers["/v1 search"] = held({item["content"] for item in v1_search.json()["items"]})

    context = v1.post(
        "context", body(ALICE, input="帮我配置写代码用的编辑器", run_kind="interactive", as_of=DAY)
    )
    assert context.status_code == 200, context.content
    answers["/v1 context"] = NEW if NEW in context.json()["text"] else OLD

    mem0 = mem0_client().post(
        "/mem0/v3/memories/search/",
        {"query": QUERY, "filters": {"user_id": "alice"}, "top_k": 10, "as_of": DAY},
        format="json",
    )
    assert mem0.status_code == 200, mem0.content
    answers["/mem0 search"] = held({item["memory"] for item in mem0.json()["results"]})

    hits = selectors.memory_search(scope=ALICE, query=QUERY, top_k=10, min_score=0.0)
    assert ids["new"] in {hit.id for hit in hits.items}  # now: VS Code
    assert answers == dict.fromkeys(answers, NEW)


def test_created_on_a_day_is_the_same_set_on_the_console_and_on_mem0(west, agent):
    ids = store_editors(ALICE, agent)  # VS Code: 2026-03-01T01:00Z, 2026-02-28 in Los Angeles
    console = MemoryFilterForm(QueryDict(f"date_from={DAY}&date_to={DAY}&status=all")).filters()
    on_console = {
        record.id for record in selectors.memory_list(scope=ALICE, query=console.list_query()).items
    }
    mem0 = mem0_client().post(
        "/mem0/v3/memories/",
        {"filters": {"user_id": "alice", "created_at": {"gte": DAY, "lte": DAY}}},
        format="json",
    )
    assert mem0.status_code == 200, mem0.content
    assert on_console == {item["id"] for item in mem0.json()["results"]} == {ids["new"]}
