"""Scope isolation on every /v1 endpoint.

The victim is ``acme:alice``.  Two intruders try everything: another user of the same tenant
(``acme:bob``) and the same user id under another tenant (``other:alice``).  Another user's id
in the same tenant is ``forbidden`` (403) with nothing about the memory in the answer; another
tenant's id is answered as an unknown one (``not_found``), so its existence is never confirmed.
Reads never show another scope's rows, and afterwards the victim's rows, entity links and
audit trail are untouched.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.db import connection

from memories import services
from memories.models import AuditEvent
from memories.scope import scope_of
from memories.types import MemoryScope
from tests.memories.conftest import WRITE_ANSWER_KEYS, assert_error, body

pytestmark = pytest.mark.django_db

VICTIM_FACTS = (
    "需求对接人是“林清”，每周三同步一次进度。",
    "团队沟通统一用“飞书”，周报要结论先行。",
)
VICTIM_CORRECTION = "团队沟通统一用“飞书”，周报要结论先行，控制在一页以内。"
INTRUDER_FACT = "用户喜欢用 Markdown 写会议纪要。"
# Words that would betray the victim's memories if they showed up in any answer.
VICTIM_MARKERS = ("林清", "飞书", "周三", "结论先行", "acme:alice", "preference")

# superseded_id is always null here: nothing of the other scope was replaced.
FORBIDDEN_WRITE_KEYS = WRITE_ANSWER_KEYS
FORBIDDEN_DELETE_KEYS = {"success", "status", "deleted_count", "reason"}
REFUSAL_KEYS = {"status", "success", "error"}  # the one error shape
VICTIM_TENANT = "acme"


@pytest.fixture(
    params=[
        scope_of(tenant_id="acme", user_id="bob"),
        scope_of(tenant_id="other", user_id="alice"),
    ],
    ids=["same-tenant-other-user", "same-user-id-other-tenant"],
)
def intruder(request) -> MemoryScope:
    return request.param


@pytest.fixture
def victim_ids(scope, agent) -> list[str]:
    ids = []
    for text in VICTIM_FACTS:
        outcome = services.memory_add(scope=scope, text=text, actor=agent, category="preference")
        assert outcome.memory_id is not None, outcome
        ids.append(outcome.memory_id)
    corrected = services.memory_update(
        scope=scope, memory_id=ids[1], text=VICTIM_CORRECTION, actor=agent
    )
    assert corrected.success, corrected
    return ids


@pytest.fixture
def intruder_id(intruder, agent) -> str:
    outcome = services.memory_add(scope=intruder, text=INTRUDER_FACT, actor=agent)
    assert outcome.memory_id is not None, outcome
    return outcome.memory_id


def scope_snapshot(scope: MemoryScope) -> dict[str, Any]:
    """Everything stored for a scope: main rows (with vectors), entity rows, audit trail."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT id::text, payload, vector::text FROM poco_memories "
            "WHERE payload->>'user_id' = %s ORDER BY id",
            [scope.key],
        )
        rows = cursor.fetchall()
        cursor.execute(
            "SELECT id::text, payload FROM poco_memories_entities "
            "WHERE payload->>'user_id' = %s ORDER BY id",
            [scope.key],
        )
        entities = cursor.fetchall()
    audit = list(
        AuditEvent.objects.filter(tenant_id=scope.tenant_id, user_id=scope.user_id)
        .order_by("id")
        .values()
    )
    return {"rows": rows, "entities": entities, "audit": audit}


def answer_text(response) -> str:
    return json.dumps(response.json(), ensure_ascii=False)


def assert_reveals_nothing(response) -> None:
    text = answer_text(response)
    for marker in VICTIM_MARKERS:
        assert marker not in text, f"{marker!r} leaked in {text}"
    for fact in (*VICTIM_FACTS, VICTIM_CORRECTION):
        assert fact not in text


def refusal(intruder: MemoryScope) -> tuple[set[int], str]:
    """What an intruder hears: "not yours" within the victim's tenant, "no such id" outside it."""
    if intruder.tenant_id == VICTIM_TENANT:
        return {403}, "forbidden"
    return {200, 404}, "not_found"  # the /v1 outcome or the by-id read of an unknown id


def assert_forbidden(response, *, keys: set[str], intruder: MemoryScope) -> None:
    statuses, status = refusal(intruder)
    assert response.status_code in statuses, response.json()
    assert response.json()["status"] == status
    assert response.json()["success"] is False
    assert set(response.json()) <= keys  # no content, metadata, timestamps or items
    assert response.json().get("reason") in (None, "forbidden", "not_found")
    assert response.json().get("superseded_id") is None
    assert_reveals_nothing(response)


# --- by-id endpoints: another scope's id is forbidden and nothing changes -------------------
@pytest.mark.parametrize(
    ("op", "extra", "keys"),
    [
        ("related", {}, REFUSAL_KEYS),
        ("history", {}, REFUSAL_KEYS),
        ("update-item", {"text": "用户要求所有输出改用英文。"}, FORBIDDEN_WRITE_KEYS),
        ("delete-item", {}, FORBIDDEN_DELETE_KEYS),
        (
            "manage",
            {"action": "update", "text": "用户要求所有输出改用英文。"},
            FORBIDDEN_WRITE_KEYS,
        ),
        ("manage", {"action": "delete"}, FORBIDDEN_WRITE_KEYS),
    ],
    ids=["related", "history", "update-item", "delete-item", "manage-update", "manage-delete"],
)
def test_another_scopes_id_is_forbidden_and_left_untouched(
    v1, scope, intruder, victim_ids, intruder_id, op, extra, keys
):
    before = scope_snapshot(scope)
    intruder_before = scope_snapshot(intruder)

    for memory_id in victim_ids:
        response = v1.post(op, body(intruder, memory_id=memory_id, **extra))
        assert_forbidden(response, keys=keys, intruder=intruder)
        if "memory_id" in response.json():
            assert response.json()["memory_id"] == memory_id  # only what the caller sent

    assert scope_snapshot(scope) == before
    assert scope_snapshot(intruder) == intruder_before  # refusals leave no audit rows either
    assert not AuditEvent.objects.filter(
        memory_id__in=victim_ids, tenant_id=intruder.tenant_id, user_id=intruder.user_id
    ).exists()
    # The owner still has the memory, unchanged, under the same id.
    owner = v1.post("history", body(scope, memory_id=victim_ids[1])).json()["items"]
    assert [e["event"] for e in owner] == ["ADD", "UPDATE"]
    assert owner[1]["new_text"] == VICTIM_CORRECTION


def test_forbidden_and_unknown_ids_are_told_apart_only_by_status(v1, scope, intruder, victim_ids):
    """A refusal says "not yours", never what the memory is; an unknown id is just not found,
    and so is another tenant's."""
    unknown = "00000000-0000-4000-8000-000000000000"
    refused = v1.post("history", body(intruder, memory_id=victim_ids[0]))
    missing = v1.post("history", body(intruder, memory_id=unknown))
    assert_error(missing, 404, "not_found")
    if intruder.tenant_id == VICTIM_TENANT:
        assert_error(refused, 403, "forbidden")
    else:
        assert refused.json() == missing.json()
        assert_error(refused, 404, "not_found")


def test_history_of_a_deleted_memory_stays_hidden_from_other_scopes(
    v1, scope, intruder, victim_ids, agent
):
    deleted = services.memory_delete(scope=scope, memory_id=victim_ids[0], actor=agent)
    assert deleted.success
    # The tombstone exists for the owner …
    owner = v1.post("history", body(scope, memory_id=victim_ids[0]))
    assert [e["event"] for e in owner.json()["items"]] == ["ADD", "DELETE"]
    # … and nobody else can even tell that it ever existed.
    other = v1.post("history", body(intruder, memory_id=victim_ids[0]))
    assert other.status_code == 404
    assert_error(other, 404, "not_found")


# --- reads: never another scope's rows -------------------------------------------------------
def test_search_never_returns_another_scopes_memories(v1, scope, intruder, victim_ids, intruder_id):
    for query in ("林清", "飞书", "团队沟通和周报", "需求对接人是谁", "会议纪要"):
        own = v1.post("search", body(intruder, query=query, top_k=50, min_score=0.0))
        assert own.status_code == 200
        assert own.json()["available"] is True
        assert [item["id"] for item in own.json()["items"]] == [intruder_id]
        assert own.json()["total"] == 1
        assert_reveals_nothing(own)

    # Control: the same query finds the victim's memory for the victim.
    victim = v1.post("search", body(scope, query="林清", top_k=50, min_score=0.0)).json()
    assert victim["items"][0]["id"] == victim_ids[0]
    assert intruder_id not in {item["id"] for item in victim["items"]}


def test_list_user_never_shows_another_scopes_memories(
    v1, scope, intruder, victim_ids, intruder_id
):
    listed = v1.post("list-user", body(intruder, page_size=100))
    assert listed.status_code == 200
    assert [item["id"] for item in listed.json()["items"]] == [intruder_id]
    assert listed.json()["total"] == 1
    assert_reveals_nothing(listed)

    by_text = v1.post("list-user", body(intruder, query="飞书"))
    assert by_text.json()["items"] == [] and by_text.json()["total"] == 0

    victim_topics = v1.post("topics", body(scope)).json()["items"]
    feishu = next(t for t in victim_topics if t["text"] == "飞书")
    for topic in (feishu["id"], feishu["text"]):
        by_topic = v1.post("list-user", body(intruder, topic=topic))
        assert by_topic.json()["items"] == [] and by_topic.json()["total"] == 0

    owner = v1.post("list-user", body(scope, page_size=100)).json()
    assert {item["id"] for item in owner["items"]} == set(victim_ids)


def test_overview_counts_only_the_callers_scope(v1, scope, intruder, victim_ids, intruder_id):
    overview = v1.post("overview", body(intruder))
    assert overview.status_code == 200
    data = overview.json()
    assert data["total"] == 1
    assert data["added_30d"] == 1
    assert data["updated_30d"] == 0  # the victim's UPDATE is not ours
    assert data["categories"] == {"fact": 1}
    assert data["sources"] == {"manage": 1}
    assert sum(day["adds"] for day in data["daily"]) == 1
    assert sum(day["updates"] for day in data["daily"]) == 0

    owner = v1.post("overview", body(scope)).json()
    assert owner["total"] == 2
    assert owner["categories"] == {"preference": 2}
    assert owner["updated_30d"] == 1


def test_topics_never_include_another_scopes_entities(v1, scope, intruder, victim_ids, intruder_id):
    intruder_topics = v1.post("topics", body(intruder))
    assert intruder_topics.status_code == 200
    texts = {t["text"] for t in intruder_topics.json()["items"]}
    assert "林清" not in texts and "飞书" not in texts
    assert_reveals_nothing(intruder_topics)

    owner_topics = {t["text"] for t in v1.post("topics", body(scope)).json()["items"]}
    assert {"林清", "飞书"} <= owner_topics


def test_related_of_own_memory_never_lists_another_scopes_memories(
    v1, scope, intruder, victim_ids, intruder_id, agent
):
    # A second, different fact ("统一用 Markdown" would restate INTRUDER_FACT: a NOOP now).
    services.memory_add(scope=intruder, text="用户的会议纪要要在当天发给全组。", actor=agent)
    related = v1.post("related", body(intruder, memory_id=intruder_id, limit=20))
    assert related.status_code == 200
    ids = {item["id"] for item in related.json()["items"]}
    assert len(ids) == 1
    assert ids.isdisjoint(victim_ids)
    assert_reveals_nothing(related)


def test_same_text_in_two_scopes_is_two_memories(v1, scope, intruder, victim_ids):
    """Duplicate detection is per scope: the intruder never gets the victim's id back."""
    added = v1.post("manage", body(intruder, action="add", text=VICTIM_FACTS[0]))
    assert added.status_code == 200
    assert added.json()["status"] == "added"
    assert added.json()["memory_id"] not in victim_ids


# --- delete-user ------------------------------------------------------------------------------
def test_delete_user_only_deletes_the_callers_scope(v1, scope, intruder, victim_ids, intruder_id):
    before = scope_snapshot(scope)

    deleted = v1.post("delete-user", body(intruder))
    assert deleted.status_code == 200
    assert deleted.json() == {
        "success": True,
        "status": "deleted",
        "deleted_count": 1,
        "reason": None,
    }
    assert scope_snapshot(intruder)["rows"] == []
    assert scope_snapshot(scope) == before

    again = v1.post("delete-user", body(intruder))
    assert again.json()["deleted_count"] == 0
    assert scope_snapshot(scope) == before
