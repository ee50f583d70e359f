"""Every /v1 body rule answers JSON in the one error shape: nesting, a key sent twice, huge
integers, NUL characters, the size limit, media types, and a server error."""

from __future__ import annotations

import json
from typing import Any

import pytest

from memories import selectors
from tests.edges.api.conftest import (
    ALICE,
    INGEST,
    POST_OPS,
    counts,
    with_stored,
)
from tests.memories.conftest import assert_error, assert_invalid

pytestmark = pytest.mark.django_db

# --- every edge answers JSON in the one error shape --------------------------------------------
V1_POSTS = [*POST_OPS, "ingest"]
USER_BASE = "/api/v1/user-customer-settings/memories"


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
