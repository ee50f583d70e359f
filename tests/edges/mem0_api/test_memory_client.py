"""mem0ai's own ``MemoryClient`` (the pinned version) against /mem0 on a live server: a
program written for Mem0's hosted API, changed only in ``host`` and ``api_key``."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest

from memories.instants import service_day
from memories.models import MemoryRow
from tests.edges.mem0_api.conftest import OTHER_TOKEN, TOKEN, WIDE_TOKEN
from tests.lifecycle.conftest import run_queue

SECRET = "My OpenAI key is sk-proj-4fJ8kLm2Qx9Rt7Vb3Nc6Wz1Yp5Hd0Sg"


def day(offset: int) -> str:
    """A date ``offset`` days from today, today counted where the service counts days (its time
    zone, Asia/Shanghai by default): a UTC date is yesterday there from 16:00 UTC on."""
    return (service_day() + timedelta(days=offset)).isoformat()


def test_the_clients_telemetry_is_off(client):
    from mem0.memory import telemetry

    assert telemetry.MEM0_TELEMETRY is False
    assert client.org_id == "poco-memory"
    assert client.project_id == "acme"  # the one tenant the token is bound to


def test_add_without_inference_stores_each_text_once(client):
    from_string = client.add("I prefer answers in English.", user_id="alice", infer=False)
    [item] = from_string["results"]
    assert item["event"] == "ADD" and item["memory"] == "I prefer answers in English."

    from_dict = client.add(
        {"role": "user", "content": "My cat is called Miso."},
        filters={"user_id": "alice"},
        infer=False,
    )
    assert [r["event"] for r in from_dict["results"]] == ["ADD"]

    from_list = client.add(
        [
            {"role": "system", "content": "You are a helpful assistant."},
            {"role": "user", "content": "I live in Lisbon."},
            {"role": "assistant", "content": "Noted: the user lives in Lisbon."},
        ],
        user_id="alice",
        run_id="run-7",
        infer=False,
    )
    assert [r["event"] for r in from_list["results"]] == ["ADD", "ADD"]  # system text aside

    again = client.add("I prefer answers in English.", user_id="alice", infer=False)
    assert again["results"][0]["event"] == "NONE"  # a duplicate is the stored memory, unchanged
    assert again["results"][0]["id"] == item["id"]

    stored = client.get(from_list["results"][0]["id"])
    assert stored["memory"] == "I live in Lisbon."
    assert stored["user_id"] == "alice"
    assert client.history(stored["id"])[0]["metadata"]["run_id"] == "run-7"
    assert MemoryRow.objects.count() == 4


def test_add_with_inference_is_the_durable_ingest_and_its_event_can_be_followed(client):
    answer = client.add(
        [
            {"role": "user", "content": "以后所有技术方案都使用简体中文，项目叫“Poco”。"},
            {"role": "assistant", "content": "好的，已确认：Poco 的技术方案统一使用简体中文。"},
        ],
        user_id="alice",
        agent_id="planner",
        metadata={"channel": "chat"},
    )
    [queued] = answer["results"]
    assert queued["status"] == "PENDING" and queued["event_id"]
    assert MemoryRow.objects.count() == 0  # extraction happens in the queue

    run_queue()

    event = client.client.get(f"/v1/event/{queued['event_id']}/").json()
    assert event["status"] == "SUCCEEDED", event
    assert event["results"] and {r["event"] for r in event["results"]} == {"ADD"}
    listed = client.get_all(filters={"user_id": "alice"})
    assert {r["id"] for r in listed["results"]} == {r["id"] for r in event["results"]}
    assert any("简体中文" in r["memory"] for r in listed["results"])


def test_get_all_filters_and_pages(client):
    for text in ("I drink green tea.", "I run on Sundays.", "I work on Poco."):
        client.add(text, user_id="alice", infer=False)
    client.add("Bob likes chess.", user_id="bob", infer=False)

    first = client.get_all(filters={"user_id": "alice"}, page=1, page_size=2)
    assert first["count"] == 3 and len(first["results"]) == 2
    assert first["next"] and first["previous"] is None
    second = client.get_all(filters={"user_id": "alice"}, page=2, page_size=2)
    assert len(second["results"]) == 1 and second["next"] is None and second["previous"]
    pages = {r["id"] for r in first["results"]} | {r["id"] for r in second["results"]}
    assert len(pages) == 3
    assert all(r["user_id"] == "alice" for r in first["results"] + second["results"])

    since = {"AND": [{"user_id": "alice"}, {"created_at": {"gte": day(-1), "lte": day(0)}}]}
    assert client.get_all(filters=since)["count"] == 3
    future = {"AND": [{"user_id": "alice"}, {"created_at": {"gt": day(0)}}]}
    assert client.get_all(filters=future)["count"] == 0
    facts = {"AND": [{"user_id": "alice"}, {"categories": {"in": ["fact"]}}]}
    assert client.get_all(filters=facts)["count"] == 3
    goals = {"AND": [{"user_id": "alice"}, {"categories": {"in": ["goal"]}}]}
    assert client.get_all(filters=goals)["count"] == 0


def test_search_with_filters(client):
    client.add("I drink green tea every morning.", user_id="alice", infer=False)
    client.add("Bob drinks green tea too.", user_id="bob", infer=False)

    found = client.search("green tea", filters={"user_id": "alice"}, top_k=5)
    assert [r["memory"] for r in found["results"]] == ["I drink green tea every morning."]
    assert 0 < found["results"][0]["score"] <= 1
    older = {"AND": [{"user_id": "alice"}, {"created_at": {"lt": day(-1)}}]}
    assert client.search("green tea", filters=older)["results"] == []
    goals = {"user_id": "alice", "categories": ["goal"]}
    assert client.search("green tea", filters=goals)["results"] == []


def test_each_search_result_says_whether_it_is_evidence_or_related(client):
    # An answer fills top_k with the user's nearest other memories after its evidence; /v1 marks
    # them, and a Mem0 client must be able to tell them apart too.
    client.add("I drink green tea every morning.", user_id="alice", infer=False)
    client.add("My cat is called Doudou.", user_id="alice", infer=False)
    client.add("I am learning Spanish on weekends.", user_id="alice", infer=False)

    found = client.search("green tea", filters={"user_id": "alice"}, top_k=5)["results"]

    assert found[0]["memory"] == "I drink green tea every morning."
    assert found[0]["metadata"]["match"] == "evidence"
    assert all(hit["metadata"]["match"] in ("evidence", "related") for hit in found)
    assert [hit["metadata"]["match"] for hit in found[1:]] == ["related"] * (len(found) - 1)


def test_an_explicit_add_without_a_category_is_categorised_by_its_wording(client):
    # As an ingest's facts are (memories.categories); a caller's category still wins on /v1.
    added = client.add("I prefer answers in English.", user_id="alice", infer=False)
    memory = client.get(added["results"][0]["id"])
    assert memory["categories"] == ["preference"]


def test_get_update_history_delete(client):
    from mem0.exceptions import MemoryNotFoundError

    memory_id = client.add("I prefer short answers.", user_id="alice", infer=False)["results"][0][
        "id"
    ]
    updated = client.update(memory_id, text="I prefer short answers with the conclusion first.")
    assert updated["id"] == memory_id
    assert updated["memory"] == "I prefer short answers with the conclusion first."
    assert client.get(memory_id)["memory"] == updated["memory"]

    history = client.history(memory_id)
    assert [h["event"] for h in history] == ["ADD", "UPDATE"]
    assert history[1]["old_memory"] == "I prefer short answers."
    assert history[1]["new_memory"] == updated["memory"]

    assert client.delete(memory_id)["message"]
    with pytest.raises(MemoryNotFoundError):
        client.get(memory_id)
    assert client.search("short answers", filters={"user_id": "alice"})["results"] == []
    assert not MemoryRow.objects.filter(id=memory_id).exists()

    # As in Mem0, the history outlives the memory and ends in DELETE; here without any text.
    history = client.history(memory_id)
    assert [h["event"] for h in history] == ["ADD", "UPDATE", "DELETE"]
    assert all(h["old_memory"] is None and h["new_memory"] is None for h in history)
    assert {h["memory_id"] for h in history} == {memory_id}
    assert "short answers" not in json.dumps(history)


def test_a_deleted_memorys_history_stays_in_its_tenant_and_user(client, mem0_host):
    from mem0 import MemoryClient
    from mem0.exceptions import MemoryNotFoundError

    memory_id = client.add("I drink green tea.", user_id="alice", infer=False)["results"][0]["id"]
    client.delete(memory_id)
    assert [h["event"] for h in client.history(memory_id)] == ["ADD", "DELETE"]
    other_tenant = MemoryClient(api_key=OTHER_TOKEN, host=mem0_host)
    with pytest.raises(MemoryNotFoundError):
        other_tenant.history(memory_id)
    # Named as another user's, a deleted id is unknown (404), not confirmed as alice's.
    answer = client.client.get(f"/v1/memories/{memory_id}/history/", params={"user_id": "bob"})
    assert answer.status_code == 404
    never = "00000000-0000-4000-8000-000000000000"
    with pytest.raises(MemoryNotFoundError):
        client.history(never)


def test_delete_all_deletes_one_user_only(client):
    client.add("I drink green tea.", user_id="alice", infer=False)
    client.add("Bob likes chess.", user_id="bob", infer=False)

    assert client.delete_all(filters={"user_id": "alice"})["message"]
    assert client.get_all(filters={"user_id": "alice"})["count"] == 0
    assert client.get_all(filters={"user_id": "bob"})["count"] == 1


def test_batch_update_and_delete(client):
    ids = [
        client.add(text, user_id="alice", infer=False)["results"][0]["id"]
        for text in ("I drink green tea.", "I run on Sundays.")
    ]
    updated = client.batch_update(
        [
            {"memory_id": ids[0], "text": "I drink oolong tea."},
            {"memory_id": ids[1], "text": "I run on Saturdays."},
        ]
    )
    assert updated["message"] == "Successfully updated 2 memories"
    assert client.get(ids[0])["memory"] == "I drink oolong tea."

    deleted = client.batch_delete([{"memory_id": memory_id} for memory_id in ids])
    assert deleted["message"] == "Successfully deleted 2 memories"
    assert client.get_all(filters={"user_id": "alice"})["count"] == 0


def test_feedback_is_recorded_and_changes_nothing(client):
    memory_id = client.add("I drink green tea.", user_id="alice", infer=False)["results"][0]["id"]
    answer = client.feedback(memory_id, feedback="positive", feedback_reason="accurate")
    assert answer["feedback"] == "POSITIVE" and answer["memory_id"] == memory_id
    assert client.get(memory_id)["memory"] == "I drink green tea."


# --- refusals -----------------------------------------------------------------------------------
def test_a_bad_token_is_refused_when_the_client_is_built(mem0_host):
    from mem0 import MemoryClient

    with pytest.raises(ValueError, match="invalid service token"):
        MemoryClient(api_key="not-a-token", host=mem0_host)


def test_a_secret_is_refused_and_nothing_is_stored(client):
    from mem0.exceptions import ValidationError

    with pytest.raises(ValidationError, match="refused by admission"):
        client.add(SECRET, user_id="alice", infer=False)
    with pytest.raises(ValidationError, match="refused by admission"):
        client.add(SECRET, user_id="alice")
    memory_id = client.add("I drink green tea.", user_id="alice", infer=False)["results"][0]["id"]
    with pytest.raises(ValidationError, match="rejected"):
        client.update(memory_id, text=SECRET)
    assert client.get(memory_id)["memory"] == "I drink green tea."
    assert MemoryRow.objects.count() == 1


def test_another_users_or_tenants_memory_is_refused(client, mem0_host):
    from mem0 import MemoryClient
    from mem0.exceptions import AuthenticationError, MemoryNotFoundError

    memory_id = client.add("I drink green tea.", user_id="alice", infer=False)["results"][0]["id"]

    # Naming the user: another user's id is 403, as on /v1.
    as_bob = client.client.get(f"/v1/memories/{memory_id}/", params={"user_id": "bob"})
    assert as_bob.status_code == 403 and as_bob.json()["detail"]

    # A token bound to another tenant never learns the id exists, nor sees alice there.
    other = MemoryClient(api_key=OTHER_TOKEN, host=mem0_host)
    with pytest.raises(MemoryNotFoundError):
        other.get(memory_id)
    with pytest.raises(MemoryNotFoundError):
        other.delete(memory_id)
    assert other.get_all(filters={"user_id": "alice"})["count"] == 0
    assert other.search("green tea", filters={"user_id": "alice"})["results"] == []

    # ... nor acts for another tenant by naming it.
    with pytest.raises(AuthenticationError, match="may not act for tenant 'acme'"):
        other.client.headers["X-Poco-Tenant-Id"] = "acme"
        other.get_all(filters={"user_id": "alice"})
    assert client.get(memory_id)["memory"] == "I drink green tea."


def test_a_token_for_every_tenant_names_it_in_a_header(mem0_host, client):
    import httpx
    from mem0 import MemoryClient
    from mem0.exceptions import ValidationError

    memory_id = client.add("I drink green tea.", user_id="alice", infer=False)["results"][0]["id"]
    unnamed = MemoryClient(api_key=WIDE_TOKEN, host=mem0_host)
    with pytest.raises(ValidationError, match="X-Poco-Tenant-Id"):
        unnamed.get_all(filters={"user_id": "alice"})
    named = MemoryClient(
        api_key=WIDE_TOKEN,
        host=mem0_host,
        client=httpx.Client(headers={"X-Poco-Tenant-Id": "acme"}),
    )
    assert named.project_id == "acme"
    assert named.get(memory_id)["memory"] == "I drink green tea."


@pytest.mark.parametrize(
    ("filters", "message"),
    [
        ({"AND": [{"user_id": "alice"}, {"agent_id": "planner"}]}, "agent_id"),
        ({"user_id": "alice", "run_id": "run-7"}, "run_id"),
        ({"AND": [{"user_id": "alice"}, {"metadata": {"channel": "chat"}}]}, "metadata"),
        ({"OR": [{"user_id": "alice"}, {"user_id": "bob"}]}, "OR"),
        ({"user_id": "*"}, "never spans users"),
        ({"user_id": "alice", "categories": {"in": ["fact", "goal"]}}, "one category"),
        ({"agent_id": "planner"}, "agent_id"),
        ({}, "name the user"),
    ],
)
def test_a_filter_that_cannot_be_honoured_is_refused(client, filters, message):
    from mem0.exceptions import ValidationError

    client.add("I drink green tea.", user_id="alice", infer=False)
    with pytest.raises(ValidationError, match=message):
        client.get_all(filters=filters)
    with pytest.raises(ValidationError, match=message):
        client.search("green tea", filters=filters)


def test_delete_all_never_widens_a_narrower_delete(client):
    from mem0.exceptions import ValidationError

    client.add("I drink green tea.", user_id="alice", run_id="run-7", infer=False)
    with pytest.raises(ValidationError, match="user_id only"):
        client.delete_all(filters={"user_id": "alice", "run_id": "run-7"})
    with pytest.raises(ValidationError, match="name the user"):
        client.delete_all()
    assert client.get_all(filters={"user_id": "alice"})["count"] == 1


def test_what_only_the_hosted_platform_has_answers_not_supported(client):
    from mem0.exceptions import MemoryError as Mem0Error

    with pytest.raises(Mem0Error, match="not supported by this server"):
        client.get_webhooks(project_id="acme")
    with pytest.raises(Mem0Error, match="not supported by this server"):
        client.project.get()
    with pytest.raises(Mem0Error, match="not supported by this server"):
        client.get_profile("alice")


@pytest.mark.parametrize("method", ["GET", "POST", "DELETE"])
@pytest.mark.parametrize("path", ["v2/memories/search/", "v1/webhooks/", "nothing"])
@pytest.mark.parametrize("token", [TOKEN, WIDE_TOKEN])
def test_not_supported_answers_501_whoever_calls(mem0_host, method, path, token):
    # A token and a tenant header, as an older client sends them, must not turn the 501 into a
    # server error: the catch-all knows no caller, so it checks no tenant.
    import httpx

    headers = {"Authorization": f"Token {token}", "X-Poco-Tenant-Id": "acme"}
    response = httpx.request(method, f"{mem0_host}/{path}", headers=headers, json={"query": "x"})

    assert response.status_code == 501, response.text
    assert "not supported by this server" in response.json()["detail"]


def test_rate_limits_answer_the_clients_rate_limit_error(client, settings):
    from mem0.exceptions import RateLimitError

    settings.RATE_LIMITS = {**settings.RATE_LIMITS, ("scope", "search"): 2}
    settings.RATE_WINDOW_SECONDS = 3600  # no window ends between its requests
    client.search("tea", filters={"user_id": "alice"})
    client.search("tea", filters={"user_id": "alice"})
    with pytest.raises(RateLimitError) as refused:
        client.search("tea", filters={"user_id": "alice"})
    assert refused.value.debug_info.get("retry_after", 0) >= 1


def test_the_async_client(mem0_host):
    import asyncio

    from mem0 import AsyncMemoryClient

    async def flow() -> None:
        client = AsyncMemoryClient(api_key=TOKEN, host=mem0_host)
        added = await client.add("I drink green tea.", user_id="alice", infer=False)
        memory_id = added["results"][0]["id"]
        found = await client.search("green tea", filters={"user_id": "alice"})
        assert [r["id"] for r in found["results"]] == [memory_id]
        listed = await client.get_all(filters={"user_id": "alice"})
        assert listed["count"] == 1
        assert (await client.get(memory_id))["memory"] == "I drink green tea."
        await client.delete(memory_id)
        assert (await client.get_all(filters={"user_id": "alice"}))["count"] == 0

    asyncio.run(flow())


def test_users_lists_the_tenants_users_and_delete_users_forgets_one(client, mem0_host):
    from mem0 import MemoryClient
    from mem0.exceptions import ValidationError

    client.add("I drink green tea.", user_id="alice", infer=False)
    client.add("I run on Sundays.", user_id="alice", infer=False)
    client.add("Bob likes chess.", user_id="bob", infer=False)
    other = MemoryClient(api_key=OTHER_TOKEN, host=mem0_host)
    other.add("Carol likes jazz.", user_id="carol", infer=False)

    users = {u["name"]: u["total_memories"] for u in client.users()["results"]}
    assert users == {"alice": 2, "bob": 1}  # tenant beta's carol is not listed
    assert all(u["type"] == "user" for u in client.users()["results"])

    client.delete_users(user_id="bob")
    assert client.get_all(filters={"user_id": "bob"})["count"] == 0
    assert client.get_all(filters={"user_id": "alice"})["count"] == 2
    with pytest.raises(ValidationError, match="not supported"):
        client.delete_users(agent_id="planner")
    assert [u["name"] for u in other.users()["results"]] == ["carol"]


def test_options_that_cannot_be_honoured_are_refused_not_dropped(client):
    from mem0.exceptions import ValidationError

    memory_id = client.add("I drink green tea.", user_id="alice", infer=False)["results"][0]["id"]
    refusals = [
        (
            lambda: client.add("I run.", user_id="alice", infer=False, metadata={"a": "b"}),
            "metadata",
        ),
        (
            lambda: client.add("I run.", user_id="alice", custom_categories=[{"x": "y"}]),
            "unknown field",
        ),
        (lambda: client.update(memory_id, metadata={"a": "b"}), "metadata"),
        (lambda: client.delete(memory_id, delete_linked=True), "delete_linked"),
        (lambda: client.get_all(filters={"user_id": "alice"}, show_expired=True), "show_expired"),
        (
            lambda: client.get_all(
                filters={"AND": [{"user_id": "alice"}, {"updated_at": {"gte": "2026-01-01"}}]}
            ),
            "updated_at",
        ),
        # get_all and search read their filters alike (one helper): the same refusals.
        *(
            (lambda call=call: call(filters={"user_id": "alice"}, latest_only=False), "latest_only")
            for call in (client.get_all, lambda **kw: client.search("tea", **kw))
        ),
        *(
            (lambda call=call: call(filters={"user_id": "alice"}, categories=[]), "one category")
            for call in (client.get_all, lambda **kw: client.search("tea", **kw))
        ),
    ]
    for call, message in refusals:
        with pytest.raises(ValidationError, match=message):
            call()
    assert client.get(memory_id)["memory"] == "I drink green tea."
    assert MemoryRow.objects.count() == 1


def test_expiration_date_is_the_memorys_validity(client):
    from mem0.exceptions import ValidationError

    added = client.add(
        "I am in Lisbon this week.", user_id="alice", infer=False, expiration_date=day(7)
    )
    memory_id = added["results"][0]["id"]
    assert client.get(memory_id)["expiration_date"] == day(7)
    client.update(memory_id, text="I am in Porto this week.", expiration_date=None)
    assert client.get(memory_id)["expiration_date"] is None  # never expires

    with pytest.raises(ValidationError, match="valid_until_past"):
        client.add("I was in Madrid.", user_id="alice", infer=False, expiration_date=day(-1))
    with pytest.raises(ValidationError, match="app_id"):
        client.add("I run.", user_id="alice", app_id="crm", infer=False)
    assert MemoryRow.objects.count() == 1
