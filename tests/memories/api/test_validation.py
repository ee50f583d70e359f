"""Bad input at the /v1 edge: a 400 naming the fields, and nothing written anywhere.

Also the other refusals of the edge (401 without a valid service token, 405 for the wrong
method), the published OpenAPI document and ``/health``.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.db import connection
from rest_framework.test import APIClient

from memories import selectors, services
from memories.api import urls as v1_urls
from memories.models import AuditEvent
from memories.types import MemoryScope, ScopeError
from tests.memories.conftest import TOKEN, assert_error, assert_invalid, body

pytestmark = pytest.mark.django_db

ALICE = {"tenant_id": "acme", "user_id": "alice"}
UNKNOWN_ID = "00000000-0000-4000-8000-000000000000"


@pytest.fixture
def stored(scope, agent) -> str:
    """One real memory, so a request that slipped through validation could change something."""
    outcome = services.memory_add(
        scope=scope, text='用户偏好简体中文技术方案，项目叫"Poco"。', actor=agent
    )
    assert outcome.memory_id is not None
    return outcome.memory_id


def counts() -> tuple[int, int, int]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM poco_memories")
        memories = cursor.fetchone()[0]
        cursor.execute("SELECT count(*) FROM poco_memories_entities")
        entities = cursor.fetchone()[0]
    return memories, entities, AuditEvent.objects.count()


def memory_text(memory_id: str) -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT payload->>'data' FROM poco_memories WHERE id = %s", [memory_id])
        return cursor.fetchone()[0]


def keys_anywhere(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in keys_anywhere(v)}
    if isinstance(value, list):
        return {k for v in value for k in keys_anywhere(v)}
    return set()


# --- 400: malformed JSON -----------------------------------------------------------------------
@pytest.mark.parametrize(
    "raw",
    [
        '{"tenant_id": "acme", "user_id": ',
        "{'tenant_id': 'acme'}",
        '{"tenant_id": "acme", "user_id": "alice", "query": "x", "min_score": NaN}',
        b"\xff\xfe not utf-8",
    ],
    ids=["truncated", "single-quotes", "nan", "not-utf8"],
)
@pytest.mark.parametrize("op", ["search", "manage", "delete-item", "delete-user"])
def test_malformed_json_is_400_malformed_json(v1, stored, op, raw):
    before = counts()
    response = v1.client.post(f"/v1/memories/{op}", data=raw, content_type="application/json")
    assert assert_error(response, 400, "malformed_json")["error"]["fields"] == {}
    assert counts() == before


def test_body_that_is_not_an_object_is_400(v1, stored):
    before = counts()
    for payload in ([ALICE], ["acme", "alice"], "acme:alice", 42):
        for op in ("search", "manage", "delete-user", "list-user"):
            assert_invalid(v1.post(op, payload), "non_field_errors")
    assert counts() == before


def test_form_encoded_body_is_415(v1, stored):
    before = counts()
    response = v1.client.post(
        "/v1/memories/delete-user",
        data="tenant_id=acme&user_id=alice",
        content_type="application/x-www-form-urlencoded",
    )
    assert_error(response, 415, "unsupported_media_type")
    assert counts() == before


# --- 400: field errors, nothing changed --------------------------------------------------------
BAD_SCOPES = [
    pytest.param({"user_id": "alice"}, ["tenant_id"], id="no-tenant"),
    pytest.param({"tenant_id": "acme"}, ["user_id"], id="no-user"),
    pytest.param({}, ["tenant_id", "user_id"], id="no-scope"),
    pytest.param({"tenant_id": "acme", "user_id": "acme:alice"}, ["user_id"], id="user-colon"),
    pytest.param({"tenant_id": "acme:x", "user_id": "alice"}, ["tenant_id"], id="tenant-colon"),
    pytest.param({"tenant_id": "acme", "user_id": "ali ce"}, ["user_id"], id="inner-space"),
    pytest.param({"tenant_id": "acme", "user_id": " alice"}, ["user_id"], id="leading-space"),
    pytest.param({"tenant_id": "acme", "user_id": "alice "}, ["user_id"], id="trailing-space"),
    pytest.param({"tenant_id": "acme", "user_id": "alice\n"}, ["user_id"], id="newline"),
    pytest.param({"tenant_id": "acme", "user_id": "a" * 65}, ["user_id"], id="65-chars"),
    pytest.param({"tenant_id": "acme", "user_id": ""}, ["user_id"], id="empty"),
    pytest.param({"tenant_id": "acme", "user_id": None}, ["user_id"], id="null"),
    pytest.param({"tenant_id": "acme", "user_id": {"id": "alice"}}, ["user_id"], id="object"),
    pytest.param({"tenant_id": "acme", "user_id": "用户"}, ["user_id"], id="han"),
]


SCOPED_REQUESTS = [
    ("search", {"query": "技术方案"}),
    ("list-user", {}),
    ("overview", {}),
    ("topics", {}),
    ("related", {"memory_id": "STORED"}),
    ("history", {"memory_id": "STORED"}),
    ("update-item", {"memory_id": "STORED", "text": "用户偏好英文"}),
    ("delete-item", {"memory_id": "STORED"}),
    ("delete-user", {}),
    ("manage", {"action": "add", "text": "用户偏好英文技术方案"}),
    ("manage", {"action": "delete", "memory_id": "STORED"}),
]


def with_stored(fields: dict[str, Any], stored: str) -> dict[str, Any]:
    """Put the real id where a field says STORED: a request that slipped through would act."""

    def swap(value: Any) -> Any:
        if isinstance(value, list):
            return [swap(x) for x in value]
        return stored if value == "STORED" else value

    return {k: swap(v) for k, v in fields.items()}


@pytest.mark.parametrize(("scope_fields", "bad"), BAD_SCOPES)
def test_bad_scope_is_400_naming_the_field(v1, stored, scope_fields, bad):
    before = counts()
    for op, extra in SCOPED_REQUESTS:
        assert_invalid(v1.post(op, {**scope_fields, **with_stored(extra, stored)}), *bad)
    assert counts() == before
    assert memory_text(stored) == '用户偏好简体中文技术方案，项目叫"Poco"。'  # as admitted


def test_scope_id_of_exactly_64_characters_is_accepted(v1):
    answer = v1.post("list-user", {"tenant_id": "t" * 64, "user_id": "u" * 64})
    assert answer.status_code == 200
    assert answer.json()["total"] == 0


def test_scope_value_rejects_a_trailing_newline():
    with pytest.raises(ScopeError):
        MemoryScope(tenant_id="acme", user_id="alice\n")


@pytest.mark.parametrize(
    "op, fields, bad",
    [
        ("search", {"query": "x" * 2001}, ["query"]),
        ("search", {"query": ""}, ["query"]),
        ("search", {"query": "   "}, ["query"]),
        ("search", {}, ["query"]),
        ("search", {"query": "技术方案", "top_k": 0}, ["top_k"]),
        ("search", {"query": "技术方案", "top_k": 51}, ["top_k"]),
        ("search", {"query": "技术方案", "top_k": -1}, ["top_k"]),
        ("search", {"query": "技术方案", "top_k": "many"}, ["top_k"]),
        ("search", {"query": "技术方案", "min_score": 1.5}, ["min_score"]),
        ("search", {"query": "技术方案", "min_score": -0.1}, ["min_score"]),
        ("manage", {"action": "merge", "text": "用户偏好英文"}, ["action"]),
        ("manage", {"text": "用户偏好英文"}, ["action"]),
        ("manage", {"action": "update", "text": "用户偏好英文"}, ["memory_id"]),
        ("manage", {"action": "delete"}, ["memory_id"]),
        ("manage", {"action": "add"}, ["text"]),
        ("manage", {"action": "add", "text": "   "}, ["text"]),
        ("manage", {"action": "add", "text": "x" * 2001}, ["text"]),
        ("manage", {"action": "update", "memory_id": "STORED"}, ["text"]),
        ("manage", {"action": "delete", "memory_id": "not-a-uuid"}, ["memory_id"]),
        ("manage", {"action": "add", "text": "用户偏好英文", "category": "gossip"}, ["category"]),
        ("manage", {"action": "add", "text": "用户偏好英文", "confidence": 2}, ["confidence"]),
        ("update-item", {"memory_id": "STORED"}, ["text"]),
        ("update-item", {"memory_id": "STORED", "text": ""}, ["text"]),
        ("update-item", {"memory_id": "12345", "text": "用户偏好英文"}, ["memory_id"]),
        ("update-item", {"text": "用户偏好英文"}, ["memory_id"]),
        ("delete-item", {"memory_id": "not-a-uuid"}, ["memory_id"]),
        ("delete-item", {}, ["memory_id"]),
        ("history", {"memory_id": "1 OR 1=1"}, ["memory_id"]),
        ("related", {"memory_id": "STORED", "limit": 0}, ["limit"]),
        ("related", {"memory_id": ["STORED"]}, ["memory_id"]),
        ("list-user", {"page": 0}, ["page"]),
        ("list-user", {"page_size": 101}, ["page_size"]),
        ("list-user", {"category": "gossip"}, ["category"]),
        ("topics", {"limit": 0}, ["limit"]),
    ],
)
def test_bad_fields_are_400_and_change_nothing(v1, stored, op, fields, bad):
    fields = with_stored(fields, stored)
    before = counts()
    text_before = memory_text(stored)
    assert_invalid(v1.post(op, {**ALICE, **fields}), *bad)
    assert counts() == before
    assert memory_text(stored) == text_before


def test_several_bad_fields_are_all_named(v1, stored):
    before = counts()
    answer = v1.post("search", {"user_id": "a:b", "query": "x" * 2001, "top_k": 0})
    assert_invalid(answer, "tenant_id", "user_id", "query", "top_k")
    assert counts() == before


def test_query_of_exactly_2000_characters_is_accepted(v1, stored):
    answer = v1.post("search", {**ALICE, "query": "技" * 2000, "top_k": 50})
    assert answer.status_code == 200
    assert answer.json()["available"] is True


# --- 401 / 405 ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "authorization",
    [
        None,
        "",
        "Bearer",
        "Bearer ",
        "Bearer wrong-token",
        f"Bearer {TOKEN}x",
        f"Token {TOKEN}",
        f"bearer {TOKEN}",
        f"Basic {TOKEN}",
        TOKEN,
    ],
    ids=[
        "none",
        "empty",
        "scheme-only",
        "scheme-blank",
        "wrong-token",
        "token-prefix",
        "token-scheme",
        "lowercase-scheme",
        "basic-scheme",
        "bare-token",
    ],
)
@pytest.mark.parametrize("op", ["search", "manage", "delete-item", "delete-user", "list-user"])
def test_missing_or_invalid_authorization_is_401(settings, stored, scope, op, authorization):
    settings.SERVICE_TOKENS = [TOKEN]
    client = APIClient()
    if authorization is not None:
        client.credentials(HTTP_AUTHORIZATION=authorization)
    before = counts()
    payload = body(scope, action="delete", memory_id=stored, query="技术方案", text="用户偏好英文")
    answer = client.post(f"/v1/memories/{op}", payload, format="json")
    assert_error(answer, 401, "unauthorized")
    assert answer["WWW-Authenticate"] == "Bearer"
    assert "items" not in answer.json()
    assert counts() == before


def test_auth_is_checked_before_the_body_is_parsed(settings):
    settings.SERVICE_TOKENS = [TOKEN]
    answer = APIClient().post(
        "/v1/memories/search", data="{not json", content_type="application/json"
    )
    assert_error(answer, 401, "unauthorized")


def test_no_configured_token_means_nobody_gets_in(settings, scope):
    settings.SERVICE_TOKENS = []
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Bearer ")
    assert client.post("/v1/memories/overview", body(scope), format="json").status_code == 401
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {TOKEN}")
    assert client.post("/v1/memories/overview", body(scope), format="json").status_code == 401


POST_OPS = [
    "search",
    "manage",
    "list-user",
    "overview",
    "topics",
    "related",
    "history",
    "update-item",
    "delete-item",
    "delete-user",
]


@pytest.mark.parametrize("method", ["get", "put", "patch", "delete"])
@pytest.mark.parametrize("op", POST_OPS)
def test_other_methods_on_post_endpoints_are_405(v1, stored, op, method):
    before = counts()
    answer = getattr(v1.client, method)(f"/v1/memories/{op}", format="json")
    assert_error(answer, 405, "method_not_allowed")
    assert counts() == before


# --- the published contract --------------------------------------------------------------------
def v1_memory_paths() -> set[str]:
    """Every /v1/memories/* route in the URLconf, in OpenAPI spelling."""
    paths = set()
    for pattern in v1_urls.urlpatterns:
        route = str(pattern.pattern)
        if route.startswith("memories/"):
            paths.add("/v1/" + re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", route))
    return paths


@pytest.fixture
def openapi(client) -> dict[str, Any]:
    answer = client.get("/v1/schema?format=json")
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("application/vnd.oai.openapi+json")
    return answer.json()


def resolve(document: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        schema = document["components"]["schemas"][name]
    return schema


def test_schema_lists_every_v1_memories_path_and_nothing_else(openapi):
    assert openapi["openapi"].startswith("3.")
    expected = {f"/v1/memories/{op}" for op in POST_OPS}
    assert expected <= v1_memory_paths()
    assert set(openapi["paths"]) == v1_memory_paths()
    for path in expected:
        assert set(openapi["paths"][path]) == {"post"}, path
    assert not any("graph" in p or "relations" in p for p in openapi["paths"])


def test_schema_is_served_as_json_for_an_openapi_json_accept_header(client, openapi):
    for accept in ("application/vnd.oai.openapi+json", "application/json"):
        answer = client.get("/v1/schema", HTTP_ACCEPT=accept)
        assert answer.status_code == 200
        assert answer.json()["paths"] == openapi["paths"]


def test_schema_declares_the_bearer_service_token(openapi):
    schemes = openapi["components"]["securitySchemes"]
    assert {"type": "http", "scheme": "bearer"} in schemes.values()
    name = next(n for n, s in schemes.items() if s.get("scheme") == "bearer")
    for path, operations in openapi["paths"].items():
        for operation in operations.values():
            assert {name: []} in operation["security"], path


def test_search_response_schema_is_the_published_contract(openapi):
    ok = openapi["paths"]["/v1/memories/search"]["post"]["responses"]["200"]
    search = resolve(openapi, ok["content"]["application/json"]["schema"])
    assert set(search["properties"]) == {"items", "total", "available", "error_reason"}
    assert "null" in search["properties"]["error_reason"]["type"]
    item = resolve(openapi, search["properties"]["items"]["items"])
    assert {"id", "content", "score", "metadata"} <= set(item["properties"])


ERROR_STATUSES = {"400", "401", "403", "413", "415", "500", "503"}
BY_ID_READS = {"/v1/memories/related", "/v1/memories/history", "/v1/memories/ingest/{job_id}"}


def test_schema_documents_every_status_with_a_body_and_an_example(openapi):
    for path, operations in openapi["paths"].items():
        for method, operation in operations.items():
            responses = operation["responses"]
            assert set(responses) >= ERROR_STATUSES, (path, set(responses))
            if path in BY_ID_READS:
                assert {"403", "404"} <= set(responses), path
            for code, response in responses.items():
                assert "application/json" in response["content"], (path, code)
            examples = [
                *operation.get("requestBody", {})
                .get("content", {})
                .get("application/json", {})
                .get("examples", {})
                .values(),
                *responses["200"]["content"]["application/json"].get("examples", {}).values(),
            ]
            assert examples, (method, path)
    error = resolve(
        openapi,
        openapi["paths"]["/v1/memories/search"]["post"]["responses"]["400"]["content"][
            "application/json"
        ]["schema"],
    )
    assert set(error["required"]) == {"success", "status", "error"}


def test_schema_publishes_the_input_rules(openapi):
    schemas = openapi["components"]["schemas"]
    ingest, manage, listing = (
        schemas["IngestInputRequest"],
        schemas["ManageInputRequest"],
        schemas["ListInputRequest"],
    )
    assert ingest["oneOf"] == [{"required": ["messages"]}, {"required": ["text"]}]
    assert ingest["additionalProperties"] is False
    add = next(v for v in manage["oneOf"] if v["properties"]["action"]["enum"] == ["add"])
    assert add["required"] == ["text"]
    assert (listing["properties"]["page"]["minimum"], listing["properties"]["page"]["maximum"]) == (
        1,
        10_000,
    )
    assert schemas["CategoryEnum"]["enum"] == [
        "preference",
        "fact",
        "goal",
        "project",
        "constraint",
    ]


def test_schema_never_mentions_relations(openapi):
    assert "relations" not in keys_anywhere(openapi)
    assert not any("relation" in name.lower() for name in openapi["components"]["schemas"])


def test_no_response_contains_relations(v1, scope, stored):
    answers = [
        v1.post("search", body(scope, query="Poco 项目的技术方案", min_score=0.0)),
        v1.post("search", body(scope, query="")),
        v1.post("list-user", body(scope)),
        v1.post("overview", body(scope)),
        v1.post("topics", body(scope)),
        v1.post("related", body(scope, memory_id=stored)),
        v1.post("history", body(scope, memory_id=stored)),
        v1.post("history", body(scope, memory_id=UNKNOWN_ID)),
        v1.post("update-item", body(scope, memory_id=stored, text="用户偏好简体中文技术方案。")),
        v1.post("manage", body(scope, action="add", text="团队沟通用“飞书”。")),
        v1.post("manage", body(scope, action="none")),
        v1.post("delete-item", body(scope, memory_id=stored)),
        v1.post("delete-user", body(scope)),
    ]
    for answer in answers:
        assert answer.status_code in (200, 400, 404), answer.content
        assert "relations" not in keys_anywhere(answer.json()), answer.json()


# --- /health -----------------------------------------------------------------------------------
def test_health_answers_200_without_a_token(client):
    answer = client.get("/health")
    assert answer.status_code == 200
    assert answer.json() == {"status": "ok", "database": True}


# --- every edge answers JSON in the one error shape --------------------------------------------
V1_POSTS = [*POST_OPS, "ingest"]
USER_BASE = "/api/v1/user-customer-settings/memories"
INGEST = {"messages": [{"role": "user", "content": "我偏好简体中文回答。"}]}


def nested(levels: int) -> str:
    return '{"tenant_id": "acme", "user_id": "alice", "m": ' + "[" * levels + "]" * levels + "}"


@pytest.mark.parametrize("op", V1_POSTS)
def test_deeply_nested_json_is_400_on_every_post_endpoint(v1, stored, op):
    before = counts()
    answer = v1.client.post(
        f"/v1/memories/{op}", data=nested(1000), content_type="application/json"
    )
    assert_error(answer, 400, "malformed_json")
    assert counts() == before


@pytest.mark.parametrize("op", V1_POSTS)
def test_a_key_sent_twice_is_400_on_every_post_endpoint(v1, stored, op):
    """{"user_id": "alice", "user_id": "bob"} wrote to bob: decoders keep the last key, while a
    proxy, a log or a reviewer may read the first."""
    before = counts()
    raw = '{"tenant_id": "acme", "user_id": "alice", "user_id": "bob", "action": "add", '
    raw += '"text": "用户偏好简洁的回答。", "query": "回答"}'
    answer = v1.client.post(f"/v1/memories/{op}", data=raw, content_type="application/json")
    data = assert_error(answer, 400, "malformed_json")
    assert "user_id" in data["error"]["message"]
    assert counts() == before


def test_a_key_twice_in_a_nested_object_is_400_too(v1, stored):
    raw = json.dumps({**ALICE, "run_id": "r1", "source": "task_completed"})[:-1]
    raw += ', "messages": [{"role": "user", "role": "system", "content": "以后都用中文回答。"}]}'
    assert_error(
        v1.client.post("/v1/memories/ingest", data=raw, content_type="application/json"),
        400,
        "malformed_json",
    )


def test_a_query_parameter_sent_twice_is_400_naming_it(v1):
    """?user_id=alice&user_id=bob read bob's job: a query string keeps the last value, while a
    proxy, a log or a reviewer may read the first."""
    messages = [
        {"role": "user", "content": "以后都用简体中文回答。"},
        {"role": "assistant", "content": "好的。"},
    ]
    accepted = v1.post("ingest", {"tenant_id": "acme", "user_id": "bob", "messages": messages})
    assert accepted.status_code == 202, accepted.content
    job = accepted.json()["job_id"]
    for query in (
        "user_id=alice&user_id=bob",
        "user_id=bob&user_id=bob",
        "tenant_id=acme&user_id=bob",
    ):
        answer = v1.client.get(f"/v1/memories/ingest/{job}?tenant_id=acme&{query}")
        data = assert_error(answer, 400, "invalid_request")
        assert "more than once" in str(data["error"]["fields"]), data
    assert v1.client.get(f"/v1/memories/ingest/{job}?tenant_id=acme&user_id=bob").status_code == 200


@pytest.mark.parametrize(
    "op, fields, bad",
    [
        ("list-user", {"page": 10**18}, "page"),
        ("list-user", {"page_size": 10**18}, "page_size"),
        ("topics", {"limit": 10**18}, "limit"),
        ("search", {"query": "x", "top_k": 10**30}, "top_k"),
        ("related", {"memory_id": "STORED", "limit": -(10**18)}, "limit"),
    ],
)
def test_huge_integers_are_400_not_an_outage(v1, stored, op, fields, bad):
    assert_invalid(v1.post(op, {**ALICE, **with_stored(fields, stored)}), bad)


def test_page_bound_is_published_and_the_last_page_is_answered(v1, stored):
    assert v1.post("list-user", {**ALICE, "page": 10_000}).status_code == 200
    assert_invalid(v1.post("list-user", {**ALICE, "page": 10_001}), "page")


@pytest.mark.parametrize(
    "op, fields, bad",
    [
        ("search", {"query": "技术\u0000方案"}, "query"),
        ("manage", {"action": "add", "text": "用户\u0000偏好英文"}, "text"),
        ("manage", {"action": "none", "run_id": "r\u0000"}, "run_id"),
        ("update-item", {"memory_id": "STORED", "text": "x\u0000"}, "text"),
        ("list-user", {"query": "\u0000"}, "query"),
        ("ingest", {**INGEST, "metadata": {"k": "v\u0000"}}, "metadata"),
        ("ingest", {**INGEST, "metadata": {"k\u0000": "v"}}, "metadata"),
        ("ingest", {"messages": [{"role": "user", "content": "偏好\u0000中文"}]}, "messages"),
        ("ingest", {"text": "偏好\u0000中文"}, "text"),
    ],
)
def test_nul_characters_anywhere_are_400(v1, stored, op, fields, bad):
    before = counts()
    answer = v1.post(op, {**ALICE, **with_stored(fields, stored)})
    assert_invalid(answer, bad)
    assert counts() == before
    # Said as what it is (an id's alphabet excludes it): Django's Chinese for its own NUL
    # message, which DRF added beside ours, reads "blank not allowed".
    said = json.dumps(answer.json()["error"]["fields"][bad], ensure_ascii=False)
    assert "NUL" in said or "an id of at most" in said, said
    assert "空字符串" not in said, said


def test_ten_megabyte_body_is_413_json(v1, stored):
    before = counts()
    text = "x" * (10 * 1024 * 1024)
    answer = v1.post("manage", {**ALICE, "action": "add", "text": text})
    assert_error(answer, 413, "payload_too_large")
    assert counts() == before


@pytest.mark.parametrize("content_type", ["text/plain", "application/xml", "multipart/form-data"])
def test_unsupported_media_types_are_415_json(v1, stored, content_type):
    answer = v1.client.post(
        "/v1/memories/search", data=json.dumps({**ALICE, "query": "x"}), content_type=content_type
    )
    assert_error(answer, 415, "unsupported_media_type")


@pytest.mark.parametrize("debug", [False, True])
def test_a_server_error_is_500_json_never_a_debug_page(v1, settings, monkeypatch, debug):
    settings.DEBUG = debug

    def broken(**_: Any):
        raise RuntimeError("a bug of ours")

    monkeypatch.setattr(selectors, "memory_overview", broken)
    v1.client.raise_request_exception = False
    answer = v1.post("overview", ALICE)
    data = assert_error(answer, 500, "server_error")
    assert "a bug of ours" not in answer.content.decode()
    assert "Traceback" not in answer.content.decode()
    assert data["error"]["fields"] == {}


# --- no silent coercion ------------------------------------------------------------------------
@pytest.mark.parametrize(
    "op, fields, bad",
    [
        ("list-user", {"tenant_id": 5}, "tenant_id"),
        ("list-user", {"user_id": 12345}, "user_id"),
        ("manage", {"action": "add", "text": 0}, "text"),
        ("manage", {"action": "add", "text": True}, "text"),
        ("manage", {"action": "delete", "memory_id": False}, "memory_id"),
        ("manage", {"action": "delete", "memory_id": 12345}, "memory_id"),
        ("delete-item", {"memory_id": 0}, "memory_id"),
        ("history", {"memory_id": "STORED_HEX"}, "memory_id"),
        ("search", {"query": "x", "top_k": "5"}, "top_k"),
        ("search", {"query": "x", "top_k": True}, "top_k"),
        ("search", {"query": "x", "top_k": 5.5}, "top_k"),
        ("search", {"query": "x", "min_score": "0.5"}, "min_score"),
        ("search", {"query": "x", "min_score": False}, "min_score"),
        ("search", {"query": 42}, "query"),
        ("list-user", {"page": "2"}, "page"),
        ("list-user", {"page": True}, "page"),
        ("manage", {"action": "add", "text": "偏好英文", "confidence": "0.9"}, "confidence"),
        ("manage", {"action": 1}, "action"),
        ("manage", {"action": "add", "text": "偏好英文", "category": ["fact"]}, "category"),
        ("ingest", {"text": 7}, "text"),
        ("ingest", {**INGEST, "metadata": {"k": 1}}, "metadata"),
        ("ingest", {**INGEST, "metadata": ["k"]}, "metadata"),
        ("ingest", {"messages": [{"role": "user", "content": 5}]}, "messages"),
    ],
)
def test_no_silent_coercion(v1, stored, op, fields, bad):
    swap = {"STORED_HEX": stored.replace("-", "")}
    fields = {k: swap.get(v, v) if isinstance(v, str) else v for k, v in fields.items()}
    before = counts()
    assert_invalid(v1.post(op, {**ALICE, **with_stored(fields, stored)}), bad)
    assert counts() == before
    assert memory_text(stored) == '用户偏好简体中文技术方案，项目叫"Poco"。'


@pytest.mark.parametrize(
    "op, fields, unknown",
    [
        ("search", {"query": "x", "limit": 3}, "limit"),
        ("manage", {"action": "add", "text": "偏好英文", "memory": "x"}, "memory"),
        ("delete-user", {"confirm": True}, "confirm"),
        ("ingest", {**INGEST, "session": "s"}, "session"),
        ("ingest", {"messages": [{"role": "user", "content": "偏好", "name": "a"}]}, "messages"),
    ],
)
def test_unknown_fields_are_400_naming_them(v1, stored, op, fields, unknown):
    before = counts()
    assert_invalid(v1.post(op, {**ALICE, **fields}), unknown)
    assert counts() == before


@pytest.mark.parametrize("authorization", [None, "Bearer wrong", f"Token {TOKEN}", "Bearer "])
def test_metrics_needs_the_service_token(client, settings, authorization):
    settings.SERVICE_TOKENS = [TOKEN]
    settings.DEBUG = False
    extra = {"HTTP_AUTHORIZATION": authorization} if authorization is not None else {}
    answer = client.get("/metrics", **extra)
    assert answer.status_code == 401
    assert answer["WWW-Authenticate"] == "Bearer"
    assert b"memory_rows" not in answer.content


def test_metrics_answers_with_the_service_token(client, settings):
    settings.SERVICE_TOKENS = [TOKEN]
    settings.DEBUG = False
    answer = client.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}")
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/plain")
    assert b"memory_rows" in answer.content
