"""导出我的记忆: the user API and console downloads (JSON and CSV) of the user's own memories."""

from __future__ import annotations

import csv
import io
import json

import pytest

from memories.scope import scope_of
from tests.memories.ops.portability.conftest import FACTS, store

pytestmark = pytest.mark.django_db


def test_user_api_exports_the_signed_in_users_memories_as_json(alice_client, alice_scope, agent):
    store(alice_scope, agent)
    store(scope_of(tenant_id=alice_scope.tenant_id, user_id="bob"), agent, FACTS[:1])
    answer = alice_client.get("/api/v1/user-customer-settings/memories/export.json")
    assert answer.status_code == 200
    assert answer["Content-Disposition"].startswith("attachment;")
    document = json.loads(answer.content.decode("utf-8"))
    assert document["scope"]["user_id"] == "alice"
    assert len(document["memories"]) == 3


def test_csv_download_has_a_bom_and_reads_back_in_chinese(alice_client, alice_scope, agent):
    store(alice_scope, agent)
    answer = alice_client.get("/api/v1/user-customer-settings/memories/export.csv")
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/csv")
    assert answer.content.startswith("\ufeff".encode())
    rows = list(csv.DictReader(io.StringIO(answer.content.decode("utf-8-sig"))))
    assert {row["内容"] for row in rows} == {text for text, _ in FACTS}
    assert {row["状态"] for row in rows} == {"有效"}  # in words, for a person


def test_export_needs_a_signed_in_user(client, db):
    assert client.get("/api/v1/user-customer-settings/memories/export.json").status_code == 401
    answer = client.get("/memories/export.csv")
    assert answer.status_code == 302 and "/accounts/login/" in answer["Location"]


def test_console_list_links_both_downloads(alice_client, alice_scope, agent):
    store(alice_scope, agent, FACTS[:1])
    page = alice_client.get("/memories/").content.decode()
    assert "导出我的记忆" in page
    assert 'href="/memories/export.json"' in page and 'href="/memories/export.csv"' in page
    answer = alice_client.get("/memories/export.json")
    assert answer.status_code == 200
    assert json.loads(answer.content)["memories"][0]["content"] == FACTS[0][0]
