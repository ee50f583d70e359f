"""What /mem0 reads from outside the JSON body's own types: dates (an expiry, filter bounds,
``get_all``'s range), page numbers and query parameters. Each bad value is a 400 in the door's
shape (Mem0's ``detail``, which the client raises as ``ValidationError``, beside /v1's ``error``
naming the field), never a 500, and nothing changes. A wrong Authorization scheme is told the
one this door expects."""

from __future__ import annotations

from typing import Any

import pytest

from memories.models import AuditEvent, MemoryRow
from tests.edges.mem0_api.conftest import TOKEN

IMPOSSIBLE_DAYS = ["2026-02-30", "2026-04-31", "2026-13-01", "2026-00-10", "9999-12-31"]


def state() -> list[tuple[Any, ...]]:
    """Every stored memory as it is, and the size of the audit trail."""
    rows = MemoryRow.objects.order_by("id").values_list("id", "payload")
    return [
        *((str(i), p.get("data"), p.get("valid_until")) for i, p in rows),
        AuditEvent.objects.count(),
    ]


def refused(response, field: str) -> dict[str, Any]:
    """A 400 in the door's shape whose /v1 ``error`` names ``field``."""
    assert response.status_code == 400, response.text
    answer = response.json()
    assert set(answer) == {"detail", "error"}, answer
    assert answer["detail"] and answer["error"]["code"] == "invalid_request", answer
    assert field in answer["error"]["fields"], answer
    return answer


@pytest.fixture
def alice(client) -> str:
    return client.add("I drink green tea.", user_id="alice", infer=False)["results"][0]["id"]


# --- dates ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("expiration_date", IMPOSSIBLE_DAYS)
def test_an_expiration_date_that_is_no_storable_day_is_refused(client, alice, expiration_date):
    from mem0.exceptions import ValidationError

    before = state()
    with pytest.raises(ValidationError, match="expiration_date"):
        client.add("I run.", user_id="alice", infer=False, expiration_date=expiration_date)
    with pytest.raises(ValidationError, match="expiration_date"):
        client.update(alice, text="I drink oolong tea.", expiration_date=expiration_date)
    body = {"messages": "I run.", "user_id": "alice", "infer": False}
    added = client.client.post(
        "/v3/memories/add/", json={**body, "expiration_date": expiration_date}
    )
    refused(added, "expiration_date")
    updated = client.client.put(
        f"/v1/memories/{alice}/", json={"text": "I swim.", "expiration_date": expiration_date}
    )
    refused(updated, "expiration_date")
    batch = [{"memory_id": alice, "text": "I swim.", "expiration_date": expiration_date}]
    assert client.client.put("/v1/batch/", json={"memories": batch}).status_code == 400
    assert state() == before


def test_the_latest_storable_expiration_date_is_kept(client, alice):
    added = client.add("I run.", user_id="alice", infer=False, expiration_date="9999-12-30")
    assert client.get(added["results"][0]["id"])["expiration_date"] == "9999-12-30"
    client.update(alice, text="I drink oolong tea.", expiration_date="9999-12-30")
    assert client.get(alice)["expiration_date"] == "9999-12-30"
    listed = client.get_all(filters={"user_id": "alice"})["results"]
    assert {m["expiration_date"] for m in listed} == {"9999-12-30"}
    found = client.search("oolong tea", filters={"user_id": "alice"})["results"]
    assert [m["id"] for m in found][:1] == [alice]


@pytest.mark.parametrize(
    "condition",
    [
        {"created_at": {"gte": "2026-02-30"}},
        {"updated_at": {"gte": "2026-04-31"}},
        {"created_at": {"lte": "2026-12-03T25:00:00"}},
        {"created_at": {"gt": "2026-12-03T10:61:00Z"}},
        {"created_at": {"lte": "9999-12-31"}},
        {"updated_at": {"gt": "9999-12-31T23:59:59.999999"}},
        {"created_at": {"gte": "0001-01-01T00:00:00+05:00"}},
        {"created_at": {"lt": "0001-01-01"}},
    ],
)
def test_a_filter_date_that_is_no_instant_here_is_refused(client, alice, condition):
    from mem0.exceptions import ValidationError

    before = state()
    filters = {"AND": [{"user_id": "alice"}, condition]}
    with pytest.raises(ValidationError, match=next(iter(condition))):
        client.search("tea", filters=filters)
    refused(
        client.client.post("/v3/memories/search/", json={"query": "tea", "filters": filters}),
        "filters",
    )
    if "created_at" in condition:  # get_all filters creation only
        with pytest.raises(ValidationError, match="created_at"):
            client.get_all(filters=filters)
        refused(client.client.post("/v3/memories/", json={"filters": filters}), "filters")
    assert state() == before


@pytest.mark.parametrize(
    "categories",
    [
        [{"a": 1}],
        {"in": [[1]]},
        [["x"]],
        {"in": [{"a": 1}]},
        {"eq": [{"in": ["preference"]}]},
        {"contains": [["preference"]]},
        [[]],
        [{}, {}],
        {"in": ["preference", {"a": 1}]},
    ],
)
def test_a_category_filter_holding_objects_or_lists_is_refused(client, alice, categories):
    """A category is a name: an object or a list where one belongs is a 400 naming the filters,
    on search and on get_all, never a 500."""
    before = state()
    filters = {"AND": [{"user_id": "alice"}, {"categories": categories}]}
    searched = client.client.post("/v3/memories/search/", json={"query": "tea", "filters": filters})
    refused(searched, "filters")
    refused(client.client.post("/v3/memories/", json={"filters": filters}), "filters")
    assert state() == before


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("start_date", "2026-13-01"),
        ("end_date", "2026-02-30"),
        ("end_date", "2026-12-03T25:00:00"),
        ("end_date", "9999-12-31"),
        ("start_date", 20260101),
    ],
)
def test_get_alls_start_and_end_date_are_checked_and_named(client, alice, field, value):
    from mem0.exceptions import ValidationError

    with pytest.raises(ValidationError, match=field):
        client.get_all(filters={"user_id": "alice"}, **{field: value})
    answer = client.client.post(
        "/v3/memories/", json={"filters": {"user_id": "alice"}, field: value}
    )
    refused(answer, field)


def test_the_edges_of_the_date_window_are_answered(client, alice):
    """The earliest and latest bounds a caller can send still answer (nothing matches)."""
    far = {"AND": [{"user_id": "alice"}, {"created_at": {"gte": "9999-12-30"}}]}
    assert client.get_all(filters=far)["count"] == 0
    assert client.search("tea", filters=far)["results"] == []
    ever = {
        "AND": [{"user_id": "alice"}, {"created_at": {"gte": "0001-01-02", "lte": "9999-12-30"}}]
    }
    assert client.get_all(filters=ever)["count"] == 1
    assert (
        client.get_all(
            filters={"user_id": "alice"}, start_date="0001-01-02", end_date="9999-12-30"
        )["count"]
        == 1
    )


# --- page numbers ---------------------------------------------------------------------------------
@pytest.mark.parametrize("value", ["²", "１", "٣", "-1", "0", "1.0", "", "9" * 5000])
@pytest.mark.parametrize("name", ["page", "page_size"])
def test_a_page_parameter_that_is_no_positive_integer_is_refused(client, alice, name, value):
    answer = client.client.post(
        "/v3/memories/", params={name: value}, json={"filters": {"user_id": "alice"}}
    )
    refused(answer, name)


# --- a query parameter, or a key of a filters string, sent twice ----------------------------------
def test_delete_all_with_a_user_named_twice_deletes_nothing(client):
    client.add("Victim's note.", user_id="victim", infer=False)
    client.add("Other's note.", user_id="other", infer=False)
    before = state()
    answer = client.client.delete(
        "/v1/memories/", params=[("user_id", "other"), ("user_id", "victim")]
    )
    refused(answer, "user_id")
    assert "more than once" in answer.json()["detail"]
    assert state() == before


@pytest.mark.parametrize(
    "filters",
    [
        '{"user_id": "other", "user_id": "victim"}',
        "{'user_id': 'other', 'user_id': 'victim'}",
        "{'user_id': 'victim', 'user_id': 'victim'}",
    ],
)
def test_delete_all_with_a_key_twice_in_its_filters_deletes_nothing(client, filters):
    client.add("Victim's note.", user_id="victim", infer=False)
    client.add("Other's note.", user_id="other", infer=False)
    before = state()
    answer = client.client.delete("/v1/memories/", params={"filters": filters})
    refused(answer, "filters")
    assert "twice" in answer.json()["detail"]
    assert state() == before


def test_every_route_refuses_a_repeated_query_parameter(client, alice):
    from mem0.exceptions import ValidationError

    before = state()
    twice = [("user_id", "alice"), ("user_id", "alice")]
    calls = [
        client.client.get(f"/v1/memories/{alice}/", params=twice),
        client.client.get(f"/v1/memories/{alice}/history/", params=twice),
        client.client.put(f"/v1/memories/{alice}/", params=twice, json={"text": "I swim."}),
        client.client.delete(f"/v1/memories/{alice}/", params=twice),
        client.client.delete(
            f"/v1/memories/{alice}/", params=[("delete_linked", "false"), ("delete_linked", "true")]
        ),
        client.client.post(
            "/v3/memories/",
            params=[("page", "1"), ("page", "2")],
            json={"filters": {"user_id": "alice"}},
        ),
        client.client.get("/v1/entities/", params=[("x", "1"), ("x", "1")]),
        client.client.get("/v1/ping/", params=[("x", "1"), ("x", "2")]),
    ]
    for answer in calls:
        assert answer.status_code == 400, (answer.request.url, answer.text)
        assert "more than once" in answer.json()["detail"]
    with pytest.raises(ValidationError, match="more than once"):
        client.get_all(filters={"user_id": "alice"}, page=1, page_size=[1, 2])
    assert state() == before
    assert client.get(alice)["memory"] == "I drink green tea."


# --- the Authorization scheme ---------------------------------------------------------------
@pytest.mark.parametrize("scheme", ["Bearer", "Basic"])
def test_the_wrong_scheme_is_told_the_one_this_door_expects(mem0_host, scheme):
    import httpx

    answer = httpx.get(f"{mem0_host}/v1/ping/", headers={"Authorization": f"{scheme} {TOKEN}"})
    assert answer.status_code == 401
    assert answer.json()["detail"] == "Authorization must be 'Token <token>'"
    assert answer.headers["WWW-Authenticate"] == "Token"
    assert httpx.get(
        f"{mem0_host}/v1/ping/", headers={"Authorization": f"Token {TOKEN}"}
    ).is_success
