"""Named service tokens (issue 14 §3): ``POCO_SERVICE_TOKENS=name:token,…``.

The audit trail and /metrics record the name that acted, never the token; rotating is adding
the new entry beside the old one, then removing the old one — an env change, no database change.
"""

from __future__ import annotations

import subprocess
import sys

import pytest
from rest_framework.test import APIClient
from starlette.datastructures import Headers

from memories.mcp.connection import ConnectionRefused, connection_from_headers
from memories.models import AuditEvent
from poco_memory import service_tokens
from tests.memories.conftest import body
from tests.processes import ROOT, child_env

OLD = "old-secret-Zq81kLmN"
NEW = "new-secret-Pw29xYtR"

pytestmark = pytest.mark.django_db


def client(token: str) -> APIClient:
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return api


def add(token: str, scope, text: str):
    return client(token).post(
        "/v1/memories/manage", body(scope, action="add", text=text), format="json"
    )


def test_entries_are_named_and_bare_tokens_get_their_position():
    tokens = service_tokens.parse(["executor:abc", "def", " mcp.prod-2:g:h "])
    assert [(t.name, t.secret) for t in tokens] == [
        ("executor", "abc"),
        ("token-2", "def"),
        ("mcp.prod-2", "g:h"),  # only the first colon separates the name
    ]
    assert "abc" not in repr(tokens)


@pytest.mark.parametrize(
    ("entries", "problem"),
    [
        (["a b:x"], "entry 1: a token name is"),
        (["a:"], "entry 1 (a): the token is empty"),
        (["a:x", "a:y"], "entry 2: the name 'a' is used twice"),
        (["a:x", "b:x"], "entry 2 (b): the same token is listed twice"),
    ],
)
def test_bad_entries_are_refused_without_showing_the_token(entries, problem):
    with pytest.raises(ValueError, match="^" + problem.replace("(", r"\(").replace(")", r"\)")):
        service_tokens.parse(entries)


def test_a_bad_setting_stops_the_process_and_names_no_token(tmp_path):
    result = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        env=child_env(
            DJANGO_SETTINGS_MODULE="poco_memory.settings",
            POCO_DATA_DIR=str(tmp_path),
            POCO_SERVICE_TOKENS=f"ci:{OLD},ci:{NEW}",
        ),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode != 0
    assert "POCO_SERVICE_TOKENS: entry 2: the name 'ci' is used twice" in result.stderr
    assert OLD not in result.stderr and NEW not in result.stderr


def test_audit_trail_and_metrics_record_the_token_name(settings, scope):
    settings.SERVICE_TOKENS = [f"executor:{OLD}", f"scraper:{NEW}"]

    added = add(OLD, scope, "用户偏好简洁的回答。")

    assert added.status_code == 200, added.content
    event = AuditEvent.objects.get(memory_id=added.json()["memory_id"])
    assert (event.actor_kind, event.actor_id) == ("agent", "executor")
    scraped = client(NEW).get("/metrics")
    assert scraped.status_code == 200
    text = scraped.content.decode()
    assert 'memory_service_calls_total{edge="v1",token="executor"}' in text
    assert 'memory_service_calls_total{edge="metrics",token="scraper"}' in text
    assert OLD not in text and NEW not in text


def test_rotation_adds_the_new_token_then_removes_the_old(settings, scope):
    settings.SERVICE_TOKENS = [f"executor:{OLD}"]
    assert add(OLD, scope, "用户习惯每周一整理周报。").status_code == 200
    assert add(NEW, scope, "用户喜欢喝绿茶。").status_code == 401

    settings.SERVICE_TOKENS = [f"executor:{OLD}", f"executor-2:{NEW}"]  # both work meanwhile
    assert add(OLD, scope, "用户偏好中文回答。").status_code == 200
    assert add(NEW, scope, "用户喜欢喝绿茶。").status_code == 200

    settings.SERVICE_TOKENS = [f"executor-2:{NEW}"]
    assert add(OLD, scope, "用户住在杭州。").status_code == 401
    actors = list(AuditEvent.objects.order_by("id").values_list("actor_id", flat=True))
    assert actors == ["executor", "executor", "executor-2"]


def test_mcp_connections_act_under_the_token_name(settings):
    settings.SERVICE_TOKENS = [f"mcp-client:{NEW}"]
    headers = {"X-Poco-Tenant-Id": "acme", "X-Poco-User-Id": "alice"}

    connection = connection_from_headers(Headers({**headers, "Authorization": f"Bearer {NEW}"}))

    assert connection.actor.id == "mcp-client"
    with pytest.raises(ConnectionRefused):
        connection_from_headers(Headers({**headers, "Authorization": f"Bearer {OLD}"}))
