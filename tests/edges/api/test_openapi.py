"""The published OpenAPI document of /v1: every path, the bearer token, each status with a body
and an example, the input rules; no relations anywhere."""

from __future__ import annotations

import re
from typing import Any

import pytest

from edges.api import urls as v1_urls
from tests.edges.api.conftest import (
    POST_OPS,
    UNKNOWN_ID,
    keys_anywhere,
)
from tests.memories.conftest import body

pytestmark = pytest.mark.django_db


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
