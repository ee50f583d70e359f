"""/api/v1/user-customer-settings/memories*: session auth, CSRF, the signed-in user's scope only."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from memories import selectors, services
from memories.models import MemoryRow
from memories.selectors import memory_get, memory_history, memory_switches
from memories.types import DeleteOutcome, DeleteStatus, SearchResult, WriteOutcome, WriteStatus
from tests.memories.conftest import assert_error, assert_invalid

pytestmark = pytest.mark.django_db

BASE = "/api/v1/user-customer-settings/memories"
WEEKLY = "周报使用“飞书”文档撰写，结论先行。"
LIN = "“林清”负责“Poco”项目的前端文档评审。"
ENGLISH = "Prefers TypeScript for new front-end modules."


def post(client: Client, path: str, body: object | None = None, **extra):
    return client.post(
        f"{BASE}{path}", json.dumps(body or {}), content_type="application/json", **extra
    )


def no_content_leak(response, *texts: str) -> None:
    body = response.content.decode()
    for text in texts:
        assert text not in body


# --- authentication and CSRF ------------------------------------------------------------------
@pytest.mark.parametrize("path", ["/vector", "/overview", "/topics", "/switches", "/search?q=x"])
def test_reads_need_a_session(client, path):
    response = client.get(f"{BASE}{path}")
    assert_error(response, 401, "unauthorized")


def test_writes_need_a_session(client):
    assert post(client, "/delete-all", {"confirm": True}).status_code == 401


def test_csrf_is_enforced_for_session_writes(alice, alice_scope, remember):
    memory_id = remember(alice_scope, WEEKLY)
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    refused = post(client, f"/{memory_id}/update", {"text": "改写"})
    assert "CSRF" in assert_error(refused, 403, "forbidden")["error"]["message"]
    assert memory_get(scope=alice_scope, memory_id=memory_id).content == WEEKLY

    client.get("/")  # the console page sets the CSRF cookie
    token = client.cookies["csrftoken"].value
    accepted = post(
        client, f"/{memory_id}/update", {"text": "改写后的事实。"}, HTTP_X_CSRFTOKEN=token
    )
    assert accepted.status_code == 200, accepted.json()
    assert memory_get(scope=alice_scope, memory_id=memory_id).content == "改写后的事实。"


# --- reads ------------------------------------------------------------------------------------
def test_list_is_the_signed_in_users_only(alice_client, alice_scope, bob_scope, remember):
    remember(alice_scope, WEEKLY)
    remember(bob_scope, LIN)
    # no parameter can widen the scope
    assert_invalid(alice_client.get(f"{BASE}/vector", {"user_id": "bob"}), "user_id")
    response = alice_client.get(f"{BASE}/vector")
    body = response.json()
    assert response.status_code == 200
    assert body["total"] == 1
    assert [item["content"] for item in body["items"]] == [WEEKLY]
    assert body["items"][0]["category"] == "fact"
    no_content_leak(response, "林清")


def test_list_search_filters_and_paging(alice_client, alice_scope, remember):
    remember(alice_scope, WEEKLY, category="preference", source="ingest")
    remember(alice_scope, ENGLISH, category="constraint", source="console")
    remember(alice_scope, LIN, category="fact")
    assert alice_client.get(f"{BASE}/vector", {"q": "飞书"}).json()["total"] == 1
    assert (
        alice_client.get(f"{BASE}/vector", {"category": "constraint"}).json()["items"][0]["content"]
        == ENGLISH
    )
    assert alice_client.get(f"{BASE}/vector", {"source": "ingest"}).json()["total"] == 1
    paged = alice_client.get(f"{BASE}/vector", {"page": 2, "page_size": 2}).json()
    assert (paged["total"], paged["pages"], len(paged["items"])) == (3, 2, 1)
    topic = next(t for t in selectors.topic_heatmap(scope=alice_scope) if t.text == "林清")
    by_topic = alice_client.get(f"{BASE}/vector", {"topic": topic.id}).json()
    assert [i["content"] for i in by_topic["items"]] == [LIN]


def test_bad_list_parameters_are_400_with_field_errors(alice_client):
    response = alice_client.get(
        f"{BASE}/vector", {"category": "bogus", "page": 0, "page_size": 1000}
    )
    assert_invalid(response, "category", "page", "page_size")


def test_a_source_no_memory_can_have_is_400_on_both_list_doors(alice_client, alice_scope, v1):
    """One declaration of the list filters: ``source`` is a choice of the known sources on the
    user API and on /v1 alike (/v1 took any string and answered an empty list)."""
    assert_invalid(alice_client.get(f"{BASE}/vector", {"source": "ingets"}), "source")
    scope = {"tenant_id": alice_scope.tenant_id, "user_id": alice_scope.user_id}
    assert_invalid(v1.post("list-user", {**scope, "source": "ingets"}), "source")
    assert v1.post("list-user", {**scope, "source": "ingest"}).status_code == 200


def test_search_answers_available_with_hits(alice_client, alice_scope, remember):
    remember(alice_scope, "用户偏好使用简体中文回答，结论先行，说明保持简洁。")
    body = alice_client.get(f"{BASE}/search", {"q": "用户偏好用简体中文回答"}).json()
    assert body["available"] is True and body["error_reason"] is None
    assert body["total"] >= 1
    assert set(body["items"][0]) == {"id", "content", "score", "metadata"}


def test_search_outage_is_available_false(alice_client, monkeypatch):
    monkeypatch.setattr(
        selectors,
        "memory_search",
        lambda **_: SearchResult(items=(), available=False, error_reason="search failed"),
    )
    body = alice_client.get(f"{BASE}/search", {"q": "周报"}).json()
    assert body == {"items": [], "total": 0, "available": False, "error_reason": "search failed"}


def test_search_needs_a_query(alice_client):
    response = alice_client.get(f"{BASE}/search")
    assert_invalid(response, "q")


@pytest.mark.parametrize(("path", "query"), [("/vector", "q=a&q=b"), ("/search", "q=a&q=b")])
def test_a_query_parameter_sent_twice_is_400_naming_it(alice_client, path, query):
    """As /v1 and /mem0 read them: Django kept the last value, a proxy or a log the first."""
    assert_invalid(alice_client.get(f"{BASE}{path}?{query}"), "q")


def test_overview_and_topics(alice_client, alice_scope, remember):
    remember(alice_scope, WEEKLY, source="ingest")
    remember(alice_scope, LIN)
    overview = alice_client.get(f"{BASE}/overview").json()
    assert overview["total"] == 2 and overview["added_30d"] == 2
    assert overview["sources"] == {"ingest": 1, "manage": 1}
    assert len(overview["daily"]) == 90 and overview["daily"][-1]["adds"] == 2
    topics = alice_client.get(f"{BASE}/topics", {"limit": 50}).json()["items"]
    assert {"飞书", "林清", "Poco"} <= {t["text"] for t in topics}


def test_detail_related_and_history_of_own_memory(alice_client, alice_scope, remember):
    memory_id = remember(alice_scope, WEEKLY)
    other_id = remember(alice_scope, "周报需要在周五下班前发给“林清”。")
    detail = alice_client.get(f"{BASE}/{memory_id}").json()
    assert detail["id"] == memory_id and detail["content"] == WEEKLY
    related = alice_client.get(f"{BASE}/{memory_id}/related").json()["items"]
    assert [r["id"] for r in related] == [other_id]
    history = alice_client.get(f"{BASE}/{memory_id}/history").json()
    assert history["memory_id"] == memory_id
    assert [e["event"] for e in history["items"]] == ["ADD"]


@pytest.mark.parametrize("suffix", ["", "/related", "/history"])
def test_another_users_memory_is_403_without_content(alice_client, bob_scope, remember, suffix):
    memory_id = remember(bob_scope, LIN)
    response = alice_client.get(f"{BASE}/{memory_id}{suffix}")
    assert_error(response, 403, "forbidden")
    no_content_leak(response, "林清", "Poco")


@pytest.mark.parametrize("suffix", ["", "/related", "/history"])
def test_unknown_memory_is_404(alice_client, suffix):
    response = alice_client.get(f"{BASE}/00000000-0000-0000-0000-000000000000{suffix}")
    assert_error(response, 404, "not_found")


# --- writes -----------------------------------------------------------------------------------
def test_update_keeps_the_id_and_records_history(alice_client, alice_scope, remember):
    memory_id = remember(alice_scope, WEEKLY, category="preference")
    corrected = "周报改用“钉钉”文档撰写。"
    response = post(alice_client, f"/{memory_id}/update", {"text": corrected})
    assert response.status_code == 200
    assert response.json() == {
        "success": True,
        "status": "updated",
        "memory_id": memory_id,
        "reason": None,
        "superseded_id": None,
    }
    record = memory_get(scope=alice_scope, memory_id=memory_id)
    assert record.content == corrected
    assert record.category == "preference"
    last = memory_history(scope=alice_scope, memory_id=memory_id)[-1]
    assert (last.event, last.old_text, last.new_text) == (
        "UPDATE",
        WEEKLY,
        corrected,
    )
    assert (last.actor_kind, last.actor_id, last.source) == ("user", "alice", "console")


def test_update_validates_input(alice_client, alice_scope, remember):
    memory_id = remember(alice_scope, WEEKLY)
    response = post(alice_client, f"/{memory_id}/update", {"text": "", "category": "x"})
    assert_invalid(response, "text", "category")
    too_long = post(alice_client, f"/{memory_id}/update", {"text": "长" * 2001})
    assert too_long.status_code == 400


def test_update_of_another_users_memory_is_refused(alice_client, bob_scope, remember):
    memory_id = remember(bob_scope, LIN)
    response = post(alice_client, f"/{memory_id}/update", {"text": "篡改"})
    assert_error(response, 403, "forbidden")
    assert memory_get(scope=bob_scope, memory_id=memory_id).content == LIN


def test_update_backend_error_is_503(alice_client, alice_scope, remember, monkeypatch):
    memory_id = remember(alice_scope, WEEKLY)
    monkeypatch.setattr(
        services,
        "memory_update",
        lambda **_: WriteOutcome(
            status=WriteStatus.BACKEND_ERROR, memory_id=memory_id, reason="update failed"
        ),
    )
    response = post(alice_client, f"/{memory_id}/update", {"text": "新的事实。"})
    assert response.status_code == 503
    assert response.json()["success"] is False
    assert response.json()["status"] == "backend_error"


def test_delete_one(alice_client, alice_scope, remember):
    memory_id = remember(alice_scope, WEEKLY)
    response = post(alice_client, f"/{memory_id}/delete")
    assert response.status_code == 200
    assert response.json() == {
        "success": True,
        "status": "deleted",
        "deleted_count": 1,
        "reason": None,
    }
    assert not MemoryRow.objects.filter(id=memory_id).exists()
    again = post(alice_client, f"/{memory_id}/delete")
    assert_error(again, 404, "not_found")


def test_delete_of_another_users_memory_is_refused(alice_client, bob_scope, remember):
    memory_id = remember(bob_scope, LIN)
    response = post(alice_client, f"/{memory_id}/delete")
    assert_error(response, 403, "forbidden")
    assert MemoryRow.objects.filter(id=memory_id).exists()


@pytest.mark.parametrize(
    ("status", "http_status"),
    [(DeleteStatus.PARTIAL_CLEANUP, 500), (DeleteStatus.BACKEND_ERROR, 503)],
)
def test_failed_delete_is_reported_as_failure(
    alice_client, alice_scope, remember, monkeypatch, status, http_status
):
    memory_id = remember(alice_scope, WEEKLY)
    monkeypatch.setattr(
        services,
        "memory_delete",
        lambda **_: DeleteOutcome(status=status, deleted_count=1, reason="entity cleanup"),
    )
    response = post(alice_client, f"/{memory_id}/delete")
    assert response.status_code == http_status
    assert response.json()["success"] is False
    assert response.json()["status"] == status.value


def test_delete_all_needs_confirmation_and_keeps_other_users(
    alice_client, alice_scope, bob_scope, remember
):
    remember(alice_scope, WEEKLY)
    remember(alice_scope, ENGLISH)
    bobs = remember(bob_scope, LIN)
    unconfirmed = post(alice_client, "/delete-all", {"confirm": False})
    assert_invalid(unconfirmed, "confirm")
    assert selectors.memory_list(scope=alice_scope).total == 2
    response = post(alice_client, "/delete-all", {"confirm": True})
    assert response.status_code == 200
    assert response.json() == {
        "success": True,
        "status": "deleted",
        "deleted_count": 2,
        "reason": None,
    }
    assert selectors.memory_list(scope=alice_scope).total == 0
    assert MemoryRow.objects.filter(id=bobs).exists()


def test_delete_all_partial_cleanup_is_a_failure(alice_client, monkeypatch):
    monkeypatch.setattr(
        services,
        "memory_delete_user",
        lambda **_: DeleteOutcome(status=DeleteStatus.PARTIAL_CLEANUP, deleted_count=4),
    )
    response = post(alice_client, "/delete-all", {"confirm": True})
    assert response.status_code == 500
    assert response.json()["success"] is False and response.json()["deleted_count"] == 4


def test_switches_read_and_change(alice_client, alice_scope):
    assert alice_client.get(f"{BASE}/switches").json() == {
        "memory_save_enabled": True,
        "memory_reference_enabled": True,
    }
    response = post(alice_client, "/switches/update", {"memory_save_enabled": False})
    assert response.json() == {"memory_save_enabled": False, "memory_reference_enabled": True}
    assert memory_switches(scope=alice_scope).memory_save_enabled is False
    post(alice_client, "/switches/update", {"memory_reference_enabled": False})
    assert alice_client.get(f"{BASE}/switches").json() == {
        "memory_save_enabled": False,
        "memory_reference_enabled": False,
    }


def test_switches_update_needs_a_switch(alice_client):
    response = post(alice_client, "/switches/update", {})
    assert response.status_code == 400
    bad = post(alice_client, "/switches/update", {"memory_save_enabled": "maybe"})
    assert_invalid(bad, "memory_save_enabled")


def test_malformed_json_is_400(alice_client, alice_scope, remember):
    memory_id = remember(alice_scope, WEEKLY)
    response = alice_client.post(
        f"{BASE}/{memory_id}/update", "{not json", content_type="application/json"
    )
    assert_error(response, 400, "malformed_json")
    assert memory_get(scope=alice_scope, memory_id=memory_id).content == WEEKLY


# --- governance -------------------------------------------------------------------------------
def test_list_takes_status_and_key_and_update_sets_expiry(alice_client, alice_scope):
    from memories.types import Actor, ActorKind

    agent = Actor(kind=ActorKind.AGENT, id="agent-test")
    key = "preference.answer_language"
    old = services.memory_add(
        scope=alice_scope, text="以后默认用中文回答", actor=agent, memory_key=key
    )
    new = services.memory_add(
        scope=alice_scope, text="以后默认用英文回答", actor=agent, memory_key=key
    )

    def ids(**params) -> list[str]:
        response = alice_client.get(f"{BASE}/vector", params)
        assert response.status_code == 200, response.content
        return [item["id"] for item in response.json()["items"]]

    assert ids() == [new.memory_id]
    assert ids(status="superseded") == [old.memory_id]
    assert sorted(ids(status="all", memory_key=key)) == sorted([old.memory_id, new.memory_id])
    assert_invalid(alice_client.get(f"{BASE}/vector", {"status": "gone"}), "status")

    answer = post(
        alice_client,
        f"/{new.memory_id}/update",
        {"text": "以后默认用英文回答", "valid_until": None},
    )
    assert answer.status_code == 200 and answer.json()["status"] == "updated"
    assert answer.json()["superseded_id"] is None
    assert MemoryRow.objects.get(id=new.memory_id).payload["valid_until"] is None
