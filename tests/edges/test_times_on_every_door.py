"""A time a caller sends is read by one rule on every door (``edges.contract.fields.read_time``):
an ISO 8601 date-time with its UTC offset is that instant; one without an offset is refused with
a 400 naming the field (whose clock would it be?); a day ``YYYY-MM-DD`` is a day of the
service's time zone (``memories.instants``). A range that holds no instant is refused, never
answered with a silent empty list.

The zone here is west of UTC (Los Angeles) and the memory began to hold at 2026-03-01T01:00Z
(2026-02-28 in Los Angeles), so a door that read a day or an offset-less time in UTC or in
Beijing would answer differently."""

from __future__ import annotations

from datetime import date

import pytest
from rest_framework.test import APIClient

from memories import selectors
from memories.instants import day_end
from memories.scope import scope_of
from tests.edges.api.conftest import counts
from tests.edges.mem0_api.conftest import TENANT, TOKEN, TOKENS
from tests.memories.conftest import assert_invalid, body
from tests.memories.recall.test_as_of import NEW, OLD, QUERY, store_editors

pytestmark = pytest.mark.django_db

ALICE = scope_of(tenant_id=TENANT, user_id="alice")
OFFSETLESS = "2026-03-01T00:30:00"  # 00:30 where? In UTC it is before VS Code, in Beijing after
RANGES = ("created_after", "created_before", "updated_after", "updated_before")


@pytest.fixture
def west(settings, v1) -> None:
    settings.TIME_ZONE = "America/Los_Angeles"
    settings.SERVICE_TOKENS = [*TOKENS, *settings.SERVICE_TOKENS]  # and /v1's


@pytest.fixture
def editors(west, agent) -> dict[str, str]:
    return store_editors(ALICE, agent)


def mem0_client() -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {TOKEN}")
    return client


def v1_search(v1, **fields):
    return v1.post("search", body(ALICE, query=QUERY, top_k=10, min_score=0.0, **fields))


def mem0_search(**fields):
    return mem0_client().post(
        "/mem0/v3/memories/search/", {"query": QUERY, "top_k": 10, **fields}, format="json"
    )


def found(response, key: str = "content") -> set[str]:
    assert response.status_code == 200, response.content
    items = response.json().get("items", response.json().get("results"))
    return {item[key] for item in items}


def refusal(response, field: str) -> str:
    """The 400's message for ``field`` (/v1's fields; /mem0 adds Mem0's ``detail``)."""
    assert response.status_code == 400, response.content
    messages = response.json()["error"]["fields"][field]
    return " ".join(messages)


# --- an offset-less date-time: refused on every door, by the same words ------------------------
@pytest.mark.parametrize("field", RANGES)
def test_v1_search_refuses_a_date_time_without_its_offset(editors, v1, field):
    before = counts()
    answer = v1_search(v1, **{field: OFFSETLESS})
    assert_invalid(answer, field)
    assert "offset" in refusal(answer, field)
    assert counts() == before


def test_v1_refuses_a_valid_until_without_its_offset(editors, v1):
    before = counts()
    added = v1.post(
        "manage", body(ALICE, action="add", text="用户喜欢喝乌龙茶。", valid_until=OFFSETLESS)
    )
    assert "offset" in refusal(added, "valid_until")
    corrected = v1.post(
        "update-item", body(ALICE, memory_id=editors["new"], text=NEW, valid_until=OFFSETLESS)
    )
    assert "offset" in refusal(corrected, "valid_until")
    assert counts() == before


@pytest.mark.parametrize("operator", ["gte", "gt", "lte", "lt"])
def test_mem0_refuses_a_filter_date_time_without_its_offset(editors, operator):
    filters = {"AND": [{"user_id": "alice"}, {"created_at": {operator: OFFSETLESS}}]}
    for answer in (
        mem0_search(filters=filters),
        mem0_client().post("/mem0/v3/memories/", {"filters": filters}, format="json"),
    ):
        assert "offset" in refusal(answer, "filters")
        assert "created_at" in answer.json()["detail"]
    listed = mem0_client().post(
        "/mem0/v3/memories/",
        {"filters": {"user_id": "alice"}, "end_date": OFFSETLESS},
        format="json",
    )
    assert "offset" in refusal(listed, "end_date")


def test_every_door_says_the_same_of_an_offset_less_time(editors, v1):
    """One reader, one message: /v1's filters, /v1's as_of and /mem0's filters."""
    messages = {
        "created_after": refusal(v1_search(v1, created_after=OFFSETLESS), "created_after"),
        "as_of": refusal(v1_search(v1, as_of=OFFSETLESS), "as_of"),
    }
    filters = {"AND": [{"user_id": "alice"}, {"created_at": {"gte": OFFSETLESS}}]}
    mem0 = refusal(mem0_search(filters=filters), "filters")
    assert messages["created_after"] == messages["as_of"]
    assert messages["as_of"] in mem0


# --- with its offset, the same instant is the same instant everywhere --------------------------
@pytest.mark.parametrize(
    ("moment", "holds"),
    [
        ("2026-03-01T00:30:00Z", True),  # VS Code (01:00Z) began after it
        ("2026-03-01T08:30:00+08:00", True),  # the same instant in Beijing
        ("2026-03-01T01:30:00Z", False),
        ("2026-02-28T17:30:00-08:00", False),  # 01:30Z in Los Angeles
    ],
)
def test_an_instant_with_its_offset_selects_the_same_memories_on_v1_and_mem0(
    editors, v1, moment, holds
):
    on_v1 = NEW in found(v1_search(v1, created_after=moment))
    filters = {"AND": [{"user_id": "alice"}, {"created_at": {"gte": moment}}]}
    on_mem0 = NEW in found(mem0_search(filters=filters), "memory")
    listed = mem0_client().post("/mem0/v3/memories/", {"filters": filters}, format="json")
    in_list = NEW in found(listed, "memory")
    assert (on_v1, on_mem0, in_list) == (holds, holds, holds)


# --- a day is a day of the service's time zone -------------------------------------------------
def test_a_day_in_v1_search_filters_is_a_day_where_the_service_is(editors, v1):
    # VS Code was created on 2026-02-28 in Los Angeles (2026-03-01 in UTC and in Beijing).
    assert NEW in found(v1_search(v1, created_after="2026-02-28", created_before="2026-03-01"))
    assert NEW not in found(v1_search(v1, created_after="2026-03-01"))
    assert NEW not in found(v1_search(v1, created_before="2026-02-28"))
    on_the_day = {"user_id": "alice", "created_at": {"gte": "2026-02-28", "lte": "2026-02-28"}}
    assert NEW in found(mem0_search(filters=on_the_day), "memory")


def test_a_valid_until_day_on_v1_is_valid_through_that_whole_day(editors, v1):
    """As the console's "valid until" and /mem0's expiration_date: the day's last instant."""
    added = v1.post(
        "manage", body(ALICE, action="add", text="用户喜欢喝乌龙茶。", valid_until="2030-06-30")
    )
    assert added.status_code == 200, added.content
    record = selectors.memory_get(scope=ALICE, memory_id=added.json()["memory_id"])
    assert record.valid_until == day_end(date(2030, 6, 30))
    assert record.valid_until.isoformat() == "2030-06-30T23:59:59.999999-07:00"


# --- ranges that hold no instant, impossible days ----------------------------------------------
@pytest.mark.parametrize("kind", ["created", "updated"])
@pytest.mark.parametrize(
    ("after", "before"),
    [
        ("2026-12-06", "2026-12-01"),
        ("2026-12-01", "2026-12-01"),  # a day means its first instant: [t, t) is empty
        ("2026-12-05T10:00:00Z", "2026-12-05T09:00:00Z"),
        ("2026-12-05T18:00:00+08:00", "2026-12-05T10:00:00Z"),  # the same instant
    ],
)
def test_v1_refuses_a_range_that_holds_no_instant(editors, v1, kind, after, before):
    answer = v1_search(v1, **{f"{kind}_after": after, f"{kind}_before": before})
    assert_invalid(answer, f"{kind}_after", f"{kind}_before")


@pytest.mark.parametrize("kind", ["created_at", "updated_at"])
def test_mem0_refuses_a_range_that_holds_no_instant(editors, kind):
    inverted = {"AND": [{"user_id": "alice"}, {kind: {"gte": "2026-12-06", "lte": "2026-12-01"}}]}
    assert "holds no instant" in refusal(mem0_search(filters=inverted), "filters")
    if kind == "created_at":
        listed = mem0_client().post("/mem0/v3/memories/", {"filters": inverted}, format="json")
        assert "holds no instant" in refusal(listed, "filters")
        dates = mem0_client().post(
            "/mem0/v3/memories/",
            {"filters": {"user_id": "alice"}, "start_date": "2026-12-06", "end_date": "2026-12-01"},
            format="json",
        )
        assert "holds no instant" in refusal(dates, "end_date")


def test_an_impossible_day_is_refused_naming_both_forms_a_time_may_take(editors, v1):
    message = refusal(v1_search(v1, created_after="2026-02-30"), "created_after")
    assert "YYYY-MM-DD" in message and "offset" in message, message
    assert message == refusal(v1_search(v1, as_of="2026-02-30"), "as_of")


def test_the_schema_publishes_a_day_or_a_date_time_with_its_offset(v1):
    schema = v1.client.get("/v1/schema?format=json").json()["components"]["schemas"]
    fields = [("SearchInputRequest", name) for name in RANGES]
    fields += [("ManageInputRequest", "valid_until"), ("UpdateItemInputRequest", "valid_until")]
    for component, name in fields:
        field = schema[component]["properties"][name]
        formats = [f.get("format") for f in field["oneOf"] if f.get("type") == "string"]
        assert formats == ["date", "date-time"], (component, name, field)
        assert "offset" in field["description"], (component, name)
    until = schema["ManageInputRequest"]["properties"]["valid_until"]
    assert {"type": "null"} in until["oneOf"]


def test_an_old_value_still_reads_the_same_where_nothing_changed(editors, v1):
    """Offsets and days as before: nothing a client sent correctly changes its answer."""
    assert OLD in found(v1_search(v1, as_of="2026-02-15"))
    assert NEW in found(v1_search(v1, created_after="2026-03-01T00:59:59Z"))
