"""Bad input at the /v1 edge: a 400 naming the fields (malformed JSON, a bad scope or field, a
type that would need coercing, an unknown field), and nothing written anywhere."""

from __future__ import annotations

import pytest

from memories.scope import scope_of
from memories.types import ScopeError
from tests.edges.api.conftest import (
    ALICE,
    INGEST,
    counts,
    memory_text,
    with_stored,
)
from tests.memories.conftest import assert_error, assert_invalid

pytestmark = pytest.mark.django_db


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
        scope_of(tenant_id="acme", user_id="alice\n")


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
        ("search", {"query": "x", "top_k": 1e20}, "top_k"),
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


def test_a_whole_number_written_with_a_point_is_that_integer(v1, stored):
    """The schema is JSON Schema 2020-12, where 5.0 is the integer 5 (and Schemathesis sends it
    as such): it is read as 5, never refused, while 5.5 is."""
    answer = v1.post("search", {**ALICE, "query": "技术方案", "top_k": 1.0, "min_score": 0.0})
    assert answer.status_code == 200, answer.content
    assert len(answer.json()["items"]) == 1
    listed = v1.post("list-user", {**ALICE, "page": 1.0, "page_size": 5e0})
    assert listed.status_code == 200, listed.content
    assert (listed.json()["page"], listed.json()["page_size"]) == (1, 5)


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
