"""Named service tokens: ``POCO_SERVICE_TOKENS=name:token,…`` and ``name:token:t1+t2``.

The audit trail and /metrics record the name that acted, never the token; rotating is adding
the new entry beside the old one, then removing the old one — an env change, no database change.
A token bound to tenants acts for those only: any other is refused with 403 on every door that
takes a token, and the refusal is recorded.
"""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from rest_framework.test import APIClient
from starlette.datastructures import Headers

from accounts.checks import service_token_reach
from accounts.models import TokenRefusal
from edges.api import urls as v1_urls
from edges.mcp.connection import ConnectionRefused, connection_from_headers
from infra import service_tokens
from lifecycle.models import IngestJob
from memories.models import AuditEvent, MemoryRow
from memories.scope import scope_of
from tests.memories.conftest import assert_error, body
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
    tokens = service_tokens.parse(["executor:abc", "def", " mcp.prod-2:g "])
    assert [(t.name, t.secret, t.tenants) for t in tokens] == [
        ("executor", "abc", None),
        ("token-2", "def", None),
        ("mcp.prod-2", "g", None),
    ]
    assert "abc" not in repr(tokens)


def test_a_tenant_list_binds_the_token_and_an_empty_one_binds_it_to_none():
    free, bound, scraper = service_tokens.parse(["free:a", "beta:b:tenant-b+t.c@x", "prom:c:"])
    assert free.tenants is None and free.serves("anyone") and free.operator
    assert bound.tenants == {"tenant-b", "t.c@x"}
    assert bound.serves("tenant-b") and bound.serves("t.c@x") and not bound.serves("tenant-a")
    assert not bound.operator
    assert scraper.tenants == frozenset() and not scraper.serves("tenant-b") and scraper.operator
    assert "b" not in repr(bound).replace("beta", "").replace("tenant-b", "")


@pytest.mark.parametrize(
    ("entries", "problem"),
    [
        (["a b:x"], "entry 1: a token name is"),
        (["a:"], "entry 1 (a): the token is empty"),
        (["a:x", "a:y"], "entry 2: the name 'a' is used twice"),
        (["a:x", "b:x"], "entry 2 (b): the same token is listed twice"),
        (["a:x:y:z"], "entry 1: name:token or name:token:tenantA+tenantB"),
        (["a:x:acme+"], "entry 1 (a): a tenant is 1-64 of"),
        (["a:x:ac me"], "entry 1 (a): a tenant is 1-64 of"),
    ],
)
def test_bad_entries_are_refused_without_showing_the_token(entries, problem):
    with pytest.raises(ValueError, match="^" + re.escape(problem)):
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


# --- tokens bound to tenants -------------------------------------------------------------------
ALPHA = "alpha-secret-Kq71vBn2"
BETA = "beta-secret-Zr93mXc4"
SCRAPER = "scraper-secret-Hy64pLw8"
A = scope_of(tenant_id="tenant-a", user_id="alice")
B = scope_of(tenant_id="tenant-b", user_id="bob")
UNKNOWN_JOB = "00000000-0000-4000-8000-000000000000"


@pytest.fixture
def bound_tokens(settings):
    settings.SERVICE_TOKENS = [
        f"alpha:{ALPHA}:tenant-a",
        f"beta:{BETA}:tenant-b+tenant-c",
        f"scraper:{SCRAPER}:",
        f"executor:{OLD}",
    ]


def v1_doors(memory_id: str) -> dict[str, dict]:
    """Every POST door of /v1 with a body that would act if the scope were let through."""
    document = {
        "format": "poco-memory-export",
        "version": 1,
        "memories": [{"content": "用户偏好深色主题。", "category": "preference"}],
    }
    return {
        "search": {"query": "回答风格"},
        "context": {"input": "帮我写一份技术方案，按我的偏好来", "run_kind": "interactive"},
        "ingest": {"run_id": "r1", "messages": [{"role": "user", "content": "以后都用英文。"}]},
        "manage": {"action": "add", "text": "用户喜欢长篇大论。"},
        "list-user": {},
        "overview": {},
        "topics": {},
        "related": {"memory_id": memory_id},
        "history": {"memory_id": memory_id},
        "update-item": {"memory_id": memory_id, "text": "用户偏好冗长的回答。"},
        "delete-item": {"memory_id": memory_id},
        "delete-user": {},
        "export": {},
        "import": {"document": document},
    }


def test_every_v1_door_refuses_a_token_bound_to_other_tenants(bound_tokens):
    added = add(ALPHA, A, "用户偏好简洁的回答。")
    assert added.status_code == 200, added.content
    memory_id = added.json()["memory_id"]
    doors = v1_doors(memory_id)
    posts = {p.name for p in v1_urls.urlpatterns if p.name not in ("schema", "ingest-status")}
    assert set(doors) == posts  # a new door must be added here

    for op, fields in doors.items():
        answer = client(BETA).post(f"/v1/memories/{op}", body(A, **fields), format="json")
        data = assert_error(answer, 403, "forbidden")
        assert "tenant-a" in data["error"]["message"], op
        assert memory_id not in answer.content.decode()
    status = client(BETA).get(f"/v1/memories/ingest/{UNKNOWN_JOB}?tenant_id=tenant-a&user_id=x")
    assert_error(status, 403, "forbidden")

    assert [(str(r.id), r.content) for r in MemoryRow.objects.all()] == [
        (memory_id, "用户偏好简洁的回答。")
    ]
    assert not IngestJob.objects.exists()
    refusals = TokenRefusal.objects.all()
    assert refusals.count() == len(doors) + 1
    assert {(r.token_name, r.tenant_id, r.edge) for r in refusals} == {("beta", "tenant-a", "v1")}


def test_a_bound_token_acts_for_its_own_tenants_and_an_unbound_one_for_all(bound_tokens):
    assert add(BETA, B, "用户偏好深色主题。").status_code == 200
    other = scope_of(tenant_id="tenant-c", user_id="carol")
    assert add(BETA, other, "用户偏好浅色主题。").status_code == 200
    assert add(OLD, A, "用户住在杭州。").status_code == 200  # no list: every tenant
    assert add(OLD, B, "用户住在苏州。").status_code == 200
    assert add(SCRAPER, B, "用户住在无锡。").status_code == 403  # an empty list: no tenant
    assert not TokenRefusal.objects.exclude(token_name="scraper").exists()


def test_metrics_answer_tokens_bound_to_no_tenant_and_refuse_bound_ones(bound_tokens):
    assert client(SCRAPER).get("/metrics").status_code == 200
    assert client(OLD).get("/metrics").status_code == 200
    refused = client(BETA).get("/metrics")
    assert_error(refused, 403, "forbidden")
    assert b"memory_rows" not in refused.content
    [row] = TokenRefusal.objects.all()
    assert (row.token_name, row.tenant_id, row.edge) == ("beta", "", "metrics")
    scraped = client(SCRAPER).get("/metrics").content.decode()
    assert 'memory_service_refused_total{edge="metrics",token="beta"}' in scraped


def test_mcp_refuses_a_token_bound_to_other_tenants_before_any_tool(bound_tokens):
    headers = {"X-Poco-Tenant-Id": "tenant-a", "X-Poco-User-Id": "alice"}
    with pytest.raises(ConnectionRefused) as refused:
        connection_from_headers(Headers({**headers, "Authorization": f"Bearer {BETA}"}))
    assert (refused.value.status, refused.value.error) == (403, "forbidden")
    [row] = TokenRefusal.objects.all()
    assert (row.token_name, row.tenant_id, row.edge) == ("beta", "tenant-a", "mcp")
    allowed = connection_from_headers(Headers({**headers, "Authorization": f"Bearer {ALPHA}"}))
    assert allowed.scope == A and allowed.actor.id == "alpha"


def test_rotation_keeps_the_tenant_list(settings):
    settings.SERVICE_TOKENS = [f"beta:{OLD}:tenant-b", f"beta-2:{NEW}:tenant-b"]
    assert add(OLD, B, "用户偏好中文回答。").status_code == 200
    assert add(NEW, B, "用户喜欢喝绿茶。").status_code == 200
    assert add(NEW, A, "用户喜欢喝红茶。").status_code == 403
    settings.SERVICE_TOKENS = [f"beta-2:{NEW}:tenant-b"]
    assert add(OLD, B, "用户住在杭州。").status_code == 401


def test_production_warns_for_each_token_that_acts_for_every_tenant(settings):
    settings.PRODUCTION = True
    settings.SERVICE_TOKENS = [f"executor:{OLD}", f"beta:{NEW}:tenant-b", f"scraper:{SCRAPER}:"]
    warnings = service_token_reach()
    assert [w.id for w in warnings] == ["poco.W001"]
    assert "'executor' acts for every tenant" in warnings[0].msg
    assert OLD not in warnings[0].msg
    settings.PRODUCTION = False
    assert service_token_reach() == []


def test_the_launcher_prints_the_warning_at_start_in_production(tmp_path):
    """The warning, on stderr, before anything else happens (the database is not reachable)."""
    result = subprocess.run(
        [sys.executable, "-m", "poco_memory.launcher"],
        env=child_env(
            POCO_ENV="production",
            POCO_SECRET_KEY="x" * 50,
            POCO_ALLOWED_HOSTS="localhost",
            POCO_DATA_DIR=str(tmp_path),
            DATABASE_URL="postgresql://nobody@127.0.0.1:1/none?connect_timeout=1",
            POCO_SERVICE_TOKENS=f"executor:{OLD},beta:{NEW}:tenant-b",
        ),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "warning: service token 'executor' acts for every tenant" in result.stderr
    assert "'beta'" not in result.stderr
    assert OLD not in result.stderr + result.stdout and NEW not in result.stderr + result.stdout
