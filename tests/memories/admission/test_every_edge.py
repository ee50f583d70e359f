"""Every disguised secret is refused on every write edge, changes nothing, and is never echoed.

Admission sits inside ``memories.services.memory_add``/``memory_update``: these
tests go through each door a caller has — the service itself, /v1 manage add and update,
/v1 update-item, /v1 ingest, the console's inline correction, the user API and the admin's
correction — with the whole table of ``disguised.py``.

One test per edge walks the whole table and reports every case that got through, so a
regression names all the forms it lets in at once.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from lifecycle.models import IngestJob
from memories.models import AuditEvent, MemoryRow
from memories.scope import scope_for_user
from memories.services import memory_add
from memories.types import Actor, ActorKind, MemoryScope, Source, WriteStatus
from tests.memories.admission.disguised import DISGUISED, SPLIT_ID_MESSAGES, Disguise
from tests.memories.conftest import body

pytestmark = pytest.mark.django_db

KEPT = "用户偏好简洁的回答，结论先行。"
AGENT = Actor(kind=ActorKind.AGENT, id="agent-test")
USER_API = "/api/v1/user-customer-settings/memories"
# The console and the admin give the user's own text back in the form to fix; the refusal
# itself (messages, errors, everything outside the textarea) must not repeat it.
TEXTAREA = re.compile(r"<textarea[^>]*>.*?</textarea>", re.DOTALL)

Attempt = Callable[[Disguise], Any]


@pytest.fixture
def signed_in(django_user_model) -> tuple[Client, MemoryScope]:
    """A browser session of a user, and that user's scope."""
    user = django_user_model.objects.create_user(username="alice", password="alice-pass-1")
    client = Client()
    client.force_login(user)
    return client, scope_for_user(user)


def kept_memory(scope: MemoryScope) -> str:
    outcome = memory_add(scope=scope, text=KEPT, actor=AGENT)
    assert outcome.status == WriteStatus.ADDED and outcome.memory_id
    return outcome.memory_id


def state(scope: MemoryScope) -> tuple[Any, ...]:
    rows = sorted(
        MemoryRow.objects.filter(payload__user_id=scope.key).values_list("id", "payload__data")
    )
    return rows, AuditEvent.objects.count(), IngestJob.objects.count()


def api_refusal(response) -> tuple[str, str | None]:
    answer = response.json()
    return answer.get("status"), answer.get("reason")


def page_refusal(response) -> tuple[str, str | None]:
    # A refused correction re-renders the form (422 in the console, 200 in the admin).
    return ("rejected" if response.status_code in (200, 422) else str(response.status_code)), None


def walk(scope: MemoryScope, attempt: Attempt, *, outside_form: bool = False) -> None:
    """Try every disguise through ``attempt``; collect each one that was not refused, changed
    something, or was echoed back."""
    before = state(scope)
    problems = []
    for case in DISGUISED:
        response = attempt(case)
        if isinstance(response, tuple):
            status, reason = response
            echoed = False
        else:
            text = response.content.decode()
            if outside_form:
                text = TEXTAREA.sub("", text)
                status, reason = page_refusal(response)
            else:
                status, reason = api_refusal(response)
            echoed = case.secret in text
        if status != "rejected" or reason not in (case.reason, None):
            problems.append((case.id, status, reason))
        if echoed:
            problems.append((case.id, "echoed"))
        if state(scope) != before:
            problems.append((case.id, "changed the store"))
            before = state(scope)
    assert problems == []
    audit = str(list(AuditEvent.objects.values_list("old_text", "new_text")))
    assert not [case.id for case in DISGUISED if case.secret in audit]


def test_the_service_refuses_every_disguise(scope):
    def attempt(case: Disguise):
        outcome = memory_add(scope=scope, text=case.text, actor=AGENT, source=Source.IMPORT)
        return outcome.status.value, outcome.reason

    walk(scope, attempt)


def test_manage_add_refuses_every_disguise(v1, scope):
    walk(scope, lambda case: v1.post("manage", body(scope, action="add", text=case.text)))


def test_manage_update_refuses_every_disguise(v1, scope):
    memory_id = kept_memory(scope)
    walk(
        scope,
        lambda case: v1.post(
            "manage", body(scope, action="update", memory_id=memory_id, text=case.text)
        ),
    )


def test_update_item_refuses_every_disguise(v1, scope):
    memory_id = kept_memory(scope)
    walk(
        scope,
        lambda case: v1.post("update-item", body(scope, memory_id=memory_id, text=case.text)),
    )


def test_ingest_refuses_every_disguise(v1, scope):
    def attempt(case: Disguise):
        messages = [
            {"role": "user", "content": case.text},
            {"role": "assistant", "content": "好的，已记录。"},
        ]
        return v1.post("ingest", body(scope, messages=messages, source="task_completed"))

    walk(scope, attempt)


def test_ingest_refuses_an_id_split_over_two_messages(v1, scope):
    messages = [{"role": "user", "content": text} for text in SPLIT_ID_MESSAGES]
    response = v1.post("ingest", body(scope, messages=messages, source="chat"))

    assert api_refusal(response) == ("rejected", "sensitive_identifier")
    assert not IngestJob.objects.exists()
    assert "0307" not in response.content.decode()


def test_console_correction_refuses_every_disguise(signed_in):
    alice_client, alice_scope = signed_in
    memory_id = kept_memory(alice_scope)
    url = f"/memories/{memory_id}/edit/"
    walk(
        alice_scope,
        lambda case: alice_client.post(url, {"text": case.text, "category": "preference"}),
        outside_form=True,
    )
    assert MemoryRow.objects.get(id=memory_id).content == KEPT


def test_user_api_correction_refuses_every_disguise(signed_in):
    alice_client, alice_scope = signed_in
    memory_id = kept_memory(alice_scope)

    def attempt(case: Disguise):
        return alice_client.post(
            f"{USER_API}/{memory_id}/update",
            json.dumps({"text": case.text}),
            content_type="application/json",
        )

    walk(alice_scope, attempt)


def test_admin_correction_refuses_every_disguise(admin_client, scope):
    memory_id = kept_memory(scope)
    url = reverse("admin:memories_memoryrow_correct", args=[memory_id])
    walk(
        scope,
        lambda case: admin_client.post(url, {"text": case.text, "category": "preference"}),
        outside_form=True,
    )
    assert MemoryRow.objects.get(id=memory_id).content == KEPT
