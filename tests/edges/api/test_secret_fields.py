"""Every field a client can send beside a memory is either an id (a short token of a fixed
alphabet: 400 naming the field) or free text the write's admission reads (``rejected`` as a
credential or identifier). Nothing is stored either way, and no answer repeats the secret."""

from __future__ import annotations

import json
from typing import Any

import pytest
from starlette.datastructures import Headers

from edges.mcp.connection import ConnectionRefused, connection_from_headers
from lifecycle.models import IngestJob, IngestRejection, RunLedger
from memories.export_document import EXPORT_FORMAT
from memories.models import AuditEvent, MemoryRow
from tests.memories.admission.fakes import j
from tests.memories.conftest import assert_invalid, body

pytestmark = pytest.mark.django_db

GITHUB_TOKEN = j("ghp_", "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8")
PASSWORD = j("password=", "hunter2024")
IN_IDS = [PASSWORD, f"api_key: {GITHUB_TOKEN}", GITHUB_TOKEN, "run 42 for alice"]
MESSAGES = [
    {"role": "user", "content": "以后所有技术方案都使用简体中文。"},
    {"role": "assistant", "content": "好的，已确认：技术方案统一使用简体中文。"},
]


def stored() -> tuple[int, ...]:
    return (
        MemoryRow.objects.count(),
        AuditEvent.objects.count(),
        IngestJob.objects.count(),
        RunLedger.objects.count(),
    )


def refused_as_field(response, field: str, secret: str) -> None:
    assert_invalid(response, field)
    assert secret not in response.content.decode()


@pytest.mark.parametrize("value", IN_IDS)
@pytest.mark.parametrize("field", ["run_id", "run_kind"])
def test_manage_refuses_free_text_and_secrets_in_its_ids(v1, scope, field, value):
    fields: dict[str, Any] = {"action": "add", "text": "用户偏好简洁的回答。", field: value}
    refused_as_field(v1.post("manage", body(scope, **fields)), field, value)
    assert stored() == (0, 0, 0, 0)


@pytest.mark.parametrize("value", IN_IDS)
@pytest.mark.parametrize("field", ["run_id", "run_kind", "source"])
def test_ingest_refuses_free_text_and_secrets_in_its_ids(v1, scope, field, value):
    fields = {"messages": MESSAGES, field: value}
    refused_as_field(v1.post("ingest", body(scope, **fields)), field, value)
    assert stored() == (0, 0, 0, 0)


def test_context_refuses_a_run_kind_that_is_not_an_id(v1, scope):
    response = v1.post("context", body(scope, input="写一份方案", run_kind=PASSWORD))
    refused_as_field(response, "run_kind", PASSWORD)


@pytest.mark.parametrize(
    "metadata",
    [
        {"note": f"api_key: {GITHUB_TOKEN}"},
        {"password": "hunter2024"},
        {"ticket": "the deploy uses " + PASSWORD},
        {"contact": "有事打 139 1234 5678"},
    ],
)
def test_ingest_metadata_values_are_admitted_like_the_messages(v1, scope, metadata):
    response = v1.post("ingest", body(scope, messages=MESSAGES, metadata=metadata))

    assert response.status_code == 200, response.content
    answer = response.json()
    assert answer["accepted"] is False and answer["status"] == "rejected"
    assert answer["reason"] in ("credential", "sensitive_identifier")
    assert not IngestJob.objects.exists()
    assert all(value not in response.content.decode() for value in metadata.values())
    assert list(IngestRejection.objects.values_list("reason", flat=True)) == [answer["reason"]]


@pytest.mark.parametrize("key", ["api key", GITHUB_TOKEN, "密码", "x" * 65])
def test_ingest_metadata_keys_are_ids(v1, scope, key):
    response = v1.post("ingest", body(scope, messages=MESSAGES, metadata={key: "1"}))
    refused_as_field(response, "metadata", key)
    assert stored() == (0, 0, 0, 0)


def test_ingest_with_ordinary_ids_and_metadata_is_queued(v1, scope):
    response = v1.post(
        "ingest",
        body(
            scope,
            messages=MESSAGES,
            run_id="run-42",
            run_kind="interactive",
            metadata={"client.version": "2.3.1", "ticket": "PROJ-1234 整理周报"},
        ),
    )
    assert response.status_code == 202, response.content


@pytest.mark.parametrize("value", IN_IDS)
def test_import_refuses_a_source_ref_that_is_not_an_id(v1, scope, value):
    document = {
        "format": EXPORT_FORMAT,
        "version": 1,
        "memories": [{"content": "用户喜欢先看结论。", "source_ref": value}],
    }
    response = v1.post("import", body(scope, document=document))

    refused_as_field(response, "document", value)
    assert "source_ref" in json.dumps(response.json()["error"]["fields"])
    assert stored() == (0, 0, 0, 0)


@pytest.mark.parametrize("header", ["X-Poco-Run-Id", "X-Poco-Run-Kind"])
@pytest.mark.parametrize("value", [PASSWORD, GITHUB_TOKEN])
def test_mcp_refuses_run_headers_that_are_not_ids(settings, header, value):
    settings.SERVICE_TOKENS = ["agent:mcp-token-Zq81kLmN"]
    headers = {
        "Authorization": "Bearer mcp-token-Zq81kLmN",
        "X-Poco-Tenant-Id": "acme",
        "X-Poco-User-Id": "alice",
        header: value,
    }
    with pytest.raises(ConnectionRefused) as refused:
        connection_from_headers(Headers(headers))

    assert refused.value.status == 400 and list(refused.value.fields) == [header]
    assert value not in json.dumps(refused.value.fields)
