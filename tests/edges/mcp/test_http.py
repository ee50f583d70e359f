"""The /mcp gate on the real server: service token, scope headers, Host/Origin, and the
tool-call counters on /metrics. Raw HTTP where the status code is the point, the SDK's client
where the protocol is."""

from __future__ import annotations

import httpx2
import pytest
from mcp import MCPError
from prometheus_client.parser import text_string_to_metric_families

from accounts.models import TokenRefusal
from memories.models import MemoryRow
from tests.edges.mcp.conftest import Agent, scope_headers

LIST_TOOLS = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
PROTOCOL = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


def add_call(text: str) -> dict:
    arguments = {"action": "add", "text": text}
    params = {"name": "manage_user_memory", "arguments": arguments}
    return {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": params}


def assert_error_shape(answer: httpx2.Response, code: str) -> dict:
    """The project's one error shape, as /v1 answers it."""
    body = answer.json()
    assert set(body) == {"success", "status", "error"}, body
    assert body["success"] is False and body["status"] == code
    assert set(body["error"]) == {"code", "message", "fields"} and body["error"]["code"] == code
    return body


@pytest.fixture
def post(live_url, mcp_token, transactional_db):
    def send(body: dict, **headers: str) -> httpx2.Response:
        return httpx2.post(f"{live_url}/mcp", json=body, headers={**PROTOCOL, **headers})

    return send


@pytest.fixture
def authorized(mcp_token, scope) -> dict[str, str]:
    return {"Authorization": f"Bearer {mcp_token}", **scope_headers(scope)}


def test_a_listing_with_token_and_scope_names_both_tools(post, authorized):
    answer = post(LIST_TOOLS, **authorized)
    assert answer.status_code == 200
    assert "search_user_memory" in answer.text and "manage_user_memory" in answer.text


@pytest.mark.parametrize(
    "authorization", [None, "Bearer wrong-token", "Basic dXNlcjpwYXNz", "Bearer"]
)
def test_without_a_valid_token_nothing_is_listed(post, scope, authorization):
    headers = scope_headers(scope)
    if authorization is not None:
        headers["Authorization"] = authorization
    answer = post(LIST_TOOLS, **headers)
    assert answer.status_code == 401
    assert answer.headers["WWW-Authenticate"] == "Bearer"
    assert_error_shape(answer, "unauthorized")
    assert "search_user_memory" not in answer.text


def test_the_sdk_client_without_a_token_gets_no_session(live_url, scope, transactional_db):
    with pytest.raises(BaseExceptionGroup) as failure:
        Agent(live_url, scope_headers(scope)).tool_names()
    assert failure.group_contains(MCPError, match="error response")


def test_missing_scope_headers_are_a_clear_error_and_nothing_runs(post, mcp_token, scope):
    token = {"Authorization": f"Bearer {mcp_token}"}
    add = add_call("用户偏好简洁直接的回答。")
    answer = post(add, **token)
    assert answer.status_code == 400
    fields = assert_error_shape(answer, "invalid_request")["error"]["fields"]
    assert set(fields) == {"X-Poco-Tenant-Id", "X-Poco-User-Id"}

    only_tenant = post(add, **token, **{"X-Poco-Tenant-Id": "acme"})
    assert only_tenant.status_code == 400
    assert set(only_tenant.json()["error"]["fields"]) == {"X-Poco-User-Id"}

    malformed = {**scope_headers(scope), "X-Poco-User-Id": "alice:bob"}
    bad_scope = post(add, **token, **malformed)
    assert bad_scope.status_code == 400
    assert set(bad_scope.json()["error"]["fields"]) == {"X-Poco-User-Id"}
    assert not MemoryRow.objects.exists()


def test_an_overlong_run_id_is_refused(post, authorized):
    answer = post(LIST_TOOLS, **authorized, **{"X-Poco-Run-Id": "r" * 129})
    assert answer.status_code == 400
    assert set(answer.json()["error"]["fields"]) == {"X-Poco-Run-Id"}


def test_a_foreign_host_is_refused(post, authorized):
    answer = post(LIST_TOOLS, **authorized, Host="rebound.example.com")
    assert answer.status_code == 421
    assert_error_shape(answer, "invalid_host")
    assert "search_user_memory" not in answer.text


def test_origins_follow_allowed_hosts_and_csrf_trusted_origins(
    post, authorized, live_url, settings
):
    settings.CSRF_TRUSTED_ORIGINS = ["https://*.example.com"]
    assert post(LIST_TOOLS, **authorized, Origin="http://evil.example.org").status_code == 403
    assert post(LIST_TOOLS, **authorized, Origin=live_url).status_code == 200
    assert post(LIST_TOOLS, **authorized, Origin="https://agents.example.com").status_code == 200
    assert post(LIST_TOOLS, **authorized, Origin="http://agents.example.com").status_code == 403


def tool_calls(live_url: str, token: str) -> dict[tuple[str, str], float]:
    page = httpx2.get(f"{live_url}/metrics", headers={"Authorization": f"Bearer {token}"})
    assert page.status_code == 200
    counts = {}
    for family in text_string_to_metric_families(page.text):
        if family.name == "memory_mcp_tool_calls":
            for sample in family.samples:
                if sample.name.endswith("_total"):
                    counts[(sample.labels["tool"], sample.labels["outcome"])] = sample.value
    return counts


def test_metrics_count_tool_calls_by_tool_and_outcome(agent_for, scope, live_url, mcp_token):
    agent = agent_for(scope)
    before = tool_calls(live_url, mcp_token)
    agent.call("search_user_memory", query="回答风格")
    agent.call("manage_user_memory", action="none")
    agent.call("manage_user_memory", action="none")
    agent.call("manage_user_memory", action="add")  # no text: an error, never reaches memory
    after = tool_calls(live_url, mcp_token)

    def grew(tool: str, outcome: str) -> float:
        return after.get((tool, outcome), 0) - before.get((tool, outcome), 0)

    assert grew("search_user_memory", "ok") == 1
    assert grew("manage_user_memory", "no_effect") == 2
    assert grew("manage_user_memory", "error") == 1


# --- the same security headers as every other answer -------------------------------------------
SECURITY_HEADERS = (
    "Cache-Control",
    "Content-Security-Policy",
    "X-Content-Type-Options",
    "X-Frame-Options",
    "Referrer-Policy",
    "Cross-Origin-Opener-Policy",
)


def test_mcp_answers_carry_the_security_headers_of_every_other_answer(
    post, authorized, live_url, scope
):
    v1 = httpx2.post(f"{live_url}/v1/memories/search", json={}, headers=authorized)
    assert v1.status_code == 400
    assert v1.headers["X-Content-Type-Options"] == "nosniff"
    expected = {name: v1.headers[name] for name in SECURITY_HEADERS}
    assert expected["Cache-Control"] == "no-store"
    for answer in (
        post(LIST_TOOLS, **authorized),  # the tools
        post(LIST_TOOLS, **scope_headers(scope)),  # the gate's 401
        httpx2.put(f"{live_url}/mcp", headers={**PROTOCOL, **authorized}),  # the SDK's refusal
    ):
        assert {name: answer.headers.get(name) for name in SECURITY_HEADERS} == expected


# --- tokens bound to tenants -------------------------------------------------------------------
def test_a_token_bound_to_other_tenants_is_refused_and_recorded(post, settings, scope):
    settings.SERVICE_TOKENS = ["beta:beta-secret-Zr93mXc4:tenant-b", "acme:acme-secret-Q1:acme"]
    refused = post(
        add_call("用户偏好简洁直接的回答。"),
        **{"Authorization": "Bearer beta-secret-Zr93mXc4", **scope_headers(scope)},
    )
    assert refused.status_code == 403
    assert "acme" in assert_error_shape(refused, "forbidden")["error"]["message"]
    assert not MemoryRow.objects.exists()
    [row] = TokenRefusal.objects.all()
    assert (row.token_name, row.tenant_id, row.edge) == ("beta", scope.tenant_id, "mcp")

    own = post(LIST_TOOLS, **{"Authorization": "Bearer acme-secret-Q1", **scope_headers(scope)})
    assert own.status_code == 200 and "search_user_memory" in own.text


# --- the body: a key twice, too large ----------------------------------------------------------
def test_a_key_sent_twice_is_refused_before_the_sdk_reads_it(
    live_url, authorized, transactional_db
):
    raw = (
        '{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": '
        '"manage_user_memory", "arguments": {"action": "none", "action": "add", '
        '"text": "用户偏好简洁直接的回答。"}}}'
    )
    answer = httpx2.post(
        f"{live_url}/mcp", content=raw.encode(), headers={**PROTOCOL, **authorized}
    )
    assert answer.status_code == 400
    assert "action" in assert_error_shape(answer, "malformed_json")["error"]["message"]
    assert not MemoryRow.objects.exists()


def test_a_body_past_the_upload_limit_is_413(post, authorized, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10_000
    answer = post({**LIST_TOOLS, "params": {"pad": "x" * 20_000}}, **authorized)
    assert answer.status_code == 413
    assert_error_shape(answer, "payload_too_large")
    assert post(LIST_TOOLS, **authorized).status_code == 200


# --- the methods /mcp answers ------------------------------------------------------------------
@pytest.mark.parametrize("method", ["GET", "DELETE", "PUT"])
def test_only_post_is_served_and_nothing_is_held_open(live_url, authorized, method):
    """Stateless: every POST stands alone, so there is no event stream for a GET to hold open
    and no session for a DELETE to end. The spec lets a server answer such a GET 405; the
    answer closes at once, in the one error shape, with the headers of every other answer."""
    with httpx2.Client(timeout=10) as client:
        answer = client.request(method, f"{live_url}/mcp", headers={**PROTOCOL, **authorized})
    assert answer.status_code == 405, answer.text
    assert answer.headers["Allow"] == "POST"
    assert answer.headers["Cache-Control"] == "no-store"
    assert_error_shape(answer, "method_not_allowed")
