"""An id of another tenant is answered exactly as an unknown id, on every door: the same HTTP
status and the same body (the id the caller sent aside), so a token that acts for one tenant
never learns that an id exists in another. Within a tenant, another user's id stays a 403
(README "The internal API"): the tenant's own agents may know its ids.

The decision is made once, in ``memories.selectors.memory_owned_row``; these tests ask each
door (``/v1``, ``/mem0``, the user API; MCP in ``tests/edges/mcp/test_server.py``)."""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from lifecycle.ingest import ingest_submit
from memories import services
from memories.admission import Message
from memories.models import AuditEvent, MemoryRow
from memories.scope import scope_for_user, scope_of
from memories.types import MemoryScope
from tests.memories.conftest import TOKEN, V1, assert_error, body

pytestmark = pytest.mark.django_db

OWNER = scope_of(tenant_id="acme", user_id="alice")
NEIGHBOUR = scope_of(tenant_id="acme", user_id="bob")  # the same tenant, another user
STRANGER = scope_of(tenant_id="beta", user_id="mallory")  # another tenant
BETA_TOKEN = "tok-beta-only-0123456789"  # POCO_SERVICE_TOKENS entry name:token:beta
SECRET_TEXT = "用户的项目代号是“北极星”。"

# Every by-id operation of /v1, with what it needs besides the id.
BY_ID: list[tuple[str, dict[str, Any]]] = [
    ("related", {}),
    ("history", {}),
    ("update-item", {"text": "用户的项目代号是“南十字”。"}),
    ("delete-item", {}),
    ("manage", {"action": "update", "text": "用户的项目代号是“南十字”。"}),
    ("manage", {"action": "delete"}),
]
BY_ID_IDS = ["related", "history", "update-item", "delete-item", "manage-update", "manage-delete"]


@pytest.fixture
def tokens(settings) -> None:
    settings.SERVICE_TOKENS = [TOKEN, f"beta-agents:{BETA_TOKEN}:beta"]


@pytest.fixture
def foreign_id(agent) -> str:
    """A real memory of tenant acme."""
    outcome = services.memory_add(scope=OWNER, text=SECRET_TEXT, actor=agent)
    assert outcome.memory_id is not None, outcome
    return outcome.memory_id


def unchanged(memory_id: str) -> bool:
    row = MemoryRow.objects.get(id=memory_id)
    trail = AuditEvent.objects.filter(memory_id=memory_id).values_list("event", flat=True)
    return row.content == SECRET_TEXT and list(trail) == ["ADD"]


def seen(response: Any, memory_id: str) -> tuple[int, str]:
    """The status and body, with the id the caller sent (echoed in write answers) masked."""
    text = response.content.decode().replace(memory_id, "<sent id>")
    assert SECRET_TEXT not in text and "acme" not in text and "alice" not in text, text
    return response.status_code, text


def beta_v1() -> V1:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {BETA_TOKEN}")
    return V1(client)


@pytest.mark.parametrize(("op", "extra"), BY_ID, ids=BY_ID_IDS)
def test_v1_answers_another_tenants_id_as_an_unknown_one(tokens, foreign_id, op, extra):
    v1 = beta_v1()
    random_id = str(uuid.uuid4())
    real = v1.post(op, body(STRANGER, memory_id=foreign_id, **extra))
    unknown = v1.post(op, body(STRANGER, memory_id=random_id, **extra))
    assert seen(real, foreign_id) == seen(unknown, random_id)
    assert real.status_code in (200, 404), real.content
    assert real.json()["status"] == "not_found"
    assert unchanged(foreign_id)


@pytest.mark.parametrize(("op", "extra"), BY_ID, ids=BY_ID_IDS)
def test_v1_still_refuses_another_users_id_of_the_same_tenant(v1, foreign_id, op, extra):
    refused = v1.post(op, body(NEIGHBOUR, memory_id=foreign_id, **extra))
    assert refused.status_code == 403, refused.content
    assert refused.json()["status"] == "forbidden"
    assert SECRET_TEXT not in refused.content.decode()
    assert unchanged(foreign_id)


def beta_mem0() -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {BETA_TOKEN}")
    return client


@pytest.mark.parametrize(
    ("method", "suffix", "payload"),
    [
        ("get", "", None),
        ("get", "history/", None),
        ("put", "", {"text": "I drink black coffee."}),
        ("delete", "", None),
    ],
    ids=["get", "history", "update", "delete"],
)
def test_mem0_answers_another_tenants_id_as_an_unknown_one_also_naming_a_user(
    tokens, foreign_id, method, suffix, payload
):
    mem0 = beta_mem0()
    random_id = str(uuid.uuid4())
    for params in ("", f"?user_id={STRANGER.user_id}"):
        answers = [
            getattr(mem0, method)(
                f"/mem0/v1/memories/{memory_id}/{suffix}{params}", payload, format="json"
            )
            for memory_id in (foreign_id, random_id)
        ]
        assert seen(answers[0], foreign_id) == seen(answers[1], random_id), params
        assert answers[0].status_code == 404, answers[0].content
    assert unchanged(foreign_id)


def test_mem0_still_refuses_another_users_id_of_the_same_tenant(settings, foreign_id):
    settings.SERVICE_TOKENS = [f"acme-agents:{BETA_TOKEN}:acme"]
    refused = beta_mem0().get(f"/mem0/v1/memories/{foreign_id}/?user_id={NEIGHBOUR.user_id}")
    assert refused.status_code == 403, refused.content
    assert SECRET_TEXT not in refused.content.decode()


@pytest.fixture
def stranger_client(django_user_model, settings) -> tuple[Client, MemoryScope]:
    """A signed-in user of the console's tenant (``POCO_CONSOLE_TENANT_ID``), not acme."""
    settings.CONSOLE_TENANT_ID = "beta"
    user = django_user_model.objects.create_user(username="mallory", password="mallory-pass-1")
    client = Client()
    client.force_login(user)
    scope = scope_for_user(user)
    assert scope.tenant_id != OWNER.tenant_id
    return client, scope


@pytest.mark.parametrize(
    ("method", "suffix"),
    [
        ("get", ""),
        ("get", "/related"),
        ("get", "/history"),
        ("post", "/update"),
        ("post", "/delete"),
    ],
)
def test_the_user_api_answers_another_tenants_id_as_an_unknown_one(
    stranger_client, foreign_id, method, suffix
):
    client, _ = stranger_client
    base = "/api/v1/user-customer-settings/memories"
    data = json.dumps({"text": "篡改"}) if suffix == "/update" else "{}"
    answers = []
    for memory_id in (foreign_id, str(uuid.uuid4())):
        path = f"{base}/{memory_id}{suffix}"
        if method == "get":
            answers.append((client.get(path), memory_id))
        else:
            answers.append((client.post(path, data, content_type="application/json"), memory_id))
    assert_error(answers[0][0], 404, "not_found")
    assert seen(*answers[0]) == seen(*answers[1])
    assert unchanged(foreign_id)


def test_v1_answers_another_tenants_ingest_job_as_an_unknown_one(tokens):
    queued = ingest_submit(
        scope=OWNER,
        messages=[
            Message(role="user", content="以后所有技术方案都使用简体中文，优先考虑易维护性。"),
            Message(role="assistant", content="好的，已确认：后续技术方案统一使用简体中文。"),
        ],
        source="task_completed",
    )
    assert queued.job_id is not None, queued
    v1 = beta_v1()
    query = f"?tenant_id={STRANGER.tenant_id}&user_id={STRANGER.user_id}"
    real, unknown = (
        v1.client.get(f"/v1/memories/ingest/{job_id}{query}")
        for job_id in (queued.job_id, str(uuid.uuid4()))
    )
    assert (real.status_code, real.json()) == (unknown.status_code, unknown.json())
