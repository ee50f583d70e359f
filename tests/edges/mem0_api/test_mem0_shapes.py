"""What /mem0 answers looks like Mem0's own: a search result carries ``created_at`` and
``updated_at`` as Mem0's ``MemoryItem`` does (mem0ai 2.2.1, ``mem0/configs/base.py``), and a
history holds Mem0's event names only — ``ADD``, ``UPDATE``, ``DELETE``: Mem0 writes no history
for a write that changed nothing, so neither does this door show one."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from memories.models import AuditEvent
from tests.edges.mem0_api.conftest import TOKEN, TOKENS

pytestmark = pytest.mark.django_db

MEM0_EVENTS = {"ADD", "UPDATE", "DELETE"}


@pytest.fixture
def mem0(settings) -> APIClient:
    settings.SERVICE_TOKENS = TOKENS
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {TOKEN}")
    return client


def add(mem0: APIClient, text: str) -> dict:
    answer = mem0.post(
        "/mem0/v3/memories/add/",
        {"messages": text, "user_id": "alice", "infer": False},
        format="json",
    )
    assert answer.status_code == 200, answer.content
    return answer.json()["results"][0]


def test_a_search_result_carries_when_the_memory_was_created_and_changed(mem0):
    memory_id = add(mem0, "I drink green tea every morning.")["id"]
    corrected = mem0.put(
        f"/mem0/v1/memories/{memory_id}/",
        {"text": "I drink oolong tea every morning."},
        format="json",
    )
    assert corrected.status_code == 200, corrected.content
    stored = mem0.get(f"/mem0/v1/memories/{memory_id}/").json()

    answer = mem0.post(
        "/mem0/v3/memories/search/",
        {"query": "oolong tea", "filters": {"user_id": "alice"}},
        format="json",
    )
    assert answer.status_code == 200, answer.content
    [hit] = [r for r in answer.json()["results"] if r["id"] == memory_id]
    assert hit["created_at"] == stored["created_at"] is not None
    assert hit["updated_at"] == stored["updated_at"] is not None
    assert hit["updated_at"] > hit["created_at"]


def test_a_history_holds_mem0s_event_names_only(mem0):
    memory_id = add(mem0, "I prefer short answers.")["id"]
    duplicate = add(mem0, "I prefer short answers.")
    assert (duplicate["id"], duplicate["event"]) == (memory_id, "NONE")
    assert AuditEvent.objects.filter(memory_id=memory_id, event="NOOP").exists()
    mem0.put(
        f"/mem0/v1/memories/{memory_id}/", {"text": "I prefer very short answers."}, format="json"
    )
    mem0.delete(f"/mem0/v1/memories/{memory_id}/")

    history = mem0.get(f"/mem0/v1/memories/{memory_id}/history/")
    assert history.status_code == 200, history.content
    events = [entry["event"] for entry in history.json()]
    assert events == ["ADD", "UPDATE", "DELETE"]
    assert set(events) <= MEM0_EVENTS


def test_the_schema_publishes_both_shapes(mem0):
    schemas = mem0.get("/mem0/schema?format=json").json()["components"]["schemas"]
    assert {"created_at", "updated_at"} <= set(schemas["HitOut"]["properties"])
    event = schemas["HistoryOut"]["properties"]["event"]
    if "$ref" in event:
        event = schemas[event["$ref"].rsplit("/", 1)[-1]]
    assert set(event["enum"]) == MEM0_EVENTS, event
