"""The meaning-and-value judge on every door: /v1 manage, /mem0 add and update, ingest (a
conversation, metadata), import, memory keys and run ids. Nothing refused is stored or echoed.

The gate's own tests (``test_meaning.py``) walk the whole table; here one representative of
each kind goes through each door, so a door that skipped the judge shows at once.
"""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from lifecycle.models import IngestJob
from memories.export_document import EXPORT_FORMAT
from memories.models import AuditEvent, MemoryRow
from memories.services import memory_add
from memories.types import WriteStatus
from tests.memories.admission.meaning_cases import ASKED, SECRETS
from tests.memories.conftest import body

pytestmark = pytest.mark.django_db

BY_ID = dict(SECRETS)
# One of each kind: natural phrasing, a disguise, a code, a structured value, a language.
SAMPLE = [
    BY_ID[case]
    for case in (
        "ko-natural",
        "spelled-out",
        "emoji-dog",
        "otp-is",
        "pin-chinese-numerals",
        "seed-phrase-12",
        "wif-key-bare",
        "ssn",
        "rot13",
        "th",
    )
]
MEM0_TOKEN = "tok-acme-0123456789"
KEPT = "用户偏好简洁的回答，结论先行。"


def stored() -> tuple[int, int, int]:
    return MemoryRow.objects.count(), AuditEvent.objects.count(), IngestJob.objects.count()


def never_kept(*secrets: str) -> None:
    kept = str(list(MemoryRow.objects.values_list("payload", flat=True)))
    kept += str(list(AuditEvent.objects.values_list("old_text", "new_text")))
    kept += str(list(IngestJob.objects.values_list("messages", "metadata")))
    assert [secret for secret in secrets if secret in kept] == []


@pytest.fixture
def mem0(settings) -> APIClient:
    settings.SERVICE_TOKENS = [f"agents:{MEM0_TOKEN}:acme"]
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {MEM0_TOKEN}")
    return client


def test_manage_add_refuses_each_kind(v1, scope):
    for text in SAMPLE:
        answer = v1.post("manage", body(scope, action="add", text=text)).json()
        assert (answer["status"], answer["reason"]) in (
            ("rejected", "credential"),
            ("rejected", "sensitive_identifier"),
        ), text
        assert text not in str(answer)
    assert stored() == (0, 0, 0)


def test_mem0_add_and_update_refuse_it(mem0, scope, agent):
    text = BY_ID["ko-natural"]
    for infer in (False, True):
        response = mem0.post(
            "/mem0/v3/memories/add/",
            {
                "messages": [{"role": "user", "content": text}],
                "user_id": scope.user_id,
                "infer": infer,
            },
            format="json",
        )
        assert response.status_code == 400, response.content
        assert text not in response.content.decode()
    kept = memory_add(scope=scope, text=KEPT, actor=agent)
    assert kept.status == WriteStatus.ADDED
    response = mem0.put(f"/mem0/v1/memories/{kept.memory_id}/", {"text": text}, format="json")
    assert response.status_code >= 400 or response.json().get("event") == "NONE"
    assert MemoryRow.objects.get(id=kept.memory_id).content == KEPT
    never_kept("Kiwi21Moss")


def test_ingest_refuses_an_answer_to_a_request_for_a_password(v1, scope):
    question, answer = ASKED
    messages = [{"role": "assistant", "content": question}, {"role": "user", "content": answer}]
    response = v1.post("ingest", body(scope, messages=messages, source="chat"))

    assert (response.json()["status"], response.json()["reason"]) == ("rejected", "credential")
    assert stored() == (0, 0, 0)


def test_ingest_refuses_a_secret_in_its_metadata(v1, scope):
    messages = [{"role": "user", "content": KEPT}]
    response = v1.post(
        "ingest",
        body(scope, messages=messages, source="chat", metadata={"note": BY_ID["ko-natural-ga"]}),
    )
    assert response.json()["status"] == "rejected"
    never_kept("Kiwi83Moss")


def test_import_refuses_each_secret_item(v1, scope):
    items = [{"content": KEPT}] + [{"content": text} for text in SAMPLE[:4]]
    document = {"format": EXPORT_FORMAT, "version": 1, "memories": items}
    data = v1.post("import", body(scope, document=document)).json()

    assert (data["added"], data["rejected"]) == (1, 4)
    never_kept("Kiwi21Moss", "Kiwi02Moss", "Kiwi58Moss", "492889")


def test_memory_keys_and_run_ids_holding_secrets_are_refused(v1, scope):
    for key in ("wifi.kiwi300moss", "secret.abc123def456"):
        answer = v1.post("manage", body(scope, action="add", text=KEPT, memory_key=key))
        assert answer.status_code == 400 or answer.json()["status"] == "rejected", key
    answer = v1.post("manage", body(scope, action="add", text=KEPT, run_id="run-13912345678"))
    assert answer.status_code == 400
    assert "13912345678" not in answer.content.decode()
    assert stored() == (0, 0, 0)
