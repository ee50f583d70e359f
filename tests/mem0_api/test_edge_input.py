"""What /mem0 reads from outside the JSON body's own types: dates (an expiry, filter bounds,
``get_all``'s range), page numbers and query parameters. Each bad value is a 400 in the door's
shape (Mem0's ``detail``, which the client raises as ``ValidationError``, beside /v1's ``error``
naming the field), never a 500, and nothing changes. A wrong Authorization scheme is told the
one this door expects."""

from __future__ import annotations

from typing import Any

import pytest

from memories.models import AuditEvent, MemoryRow
from tests.mem0_api.conftest import TOKEN


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
