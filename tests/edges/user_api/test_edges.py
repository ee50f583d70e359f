"""Bad input at the user API's edge: JSON in the one error shape, strict types, nothing changed."""

from __future__ import annotations

import json

import pytest

from memories import selectors
from tests.memories.conftest import assert_error, assert_invalid

pytestmark = pytest.mark.django_db

BASE = "/api/v1/user-customer-settings/memories"


def post(client, path: str, raw: str):
    return client.post(f"{BASE}{path}", raw, content_type="application/json")


def test_deeply_nested_json_is_400(alice_client):
    raw = '{"memory_save_enabled": ' + "[" * 1000 + "]" * 1000 + "}"
    assert_error(post(alice_client, "/switches/update", raw), 400, "malformed_json")


def test_a_key_sent_twice_is_400(alice_client, alice_scope):
    raw = '{"memory_save_enabled": true, "memory_save_enabled": false}'
    answer = post(alice_client, "/switches/update", raw)
    assert "memory_save_enabled" in assert_error(answer, 400, "malformed_json")["error"]["message"]
    assert selectors.memory_switches(scope=alice_scope).memory_save_enabled is True


def test_ten_megabyte_body_is_413_json(alice_client, alice_scope):
    raw = json.dumps({"memory_save_enabled": False, "pad": "x" * (10 * 1024 * 1024)})
    assert_error(post(alice_client, "/switches/update", raw), 413, "payload_too_large")
    assert selectors.memory_switches(scope=alice_scope).memory_save_enabled is True


@pytest.mark.parametrize(
    "path", [f"{BASE}/not-a-uuid", f"{BASE}/not-a-uuid/history", "/api/v1/user-customer-settings/x"]
)
@pytest.mark.parametrize("debug", [False, True])
def test_unknown_urls_are_404_json(alice_client, settings, path, debug):
    settings.DEBUG = debug
    assert_error(alice_client.get(path), 404, "not_found")


def test_unknown_url_without_a_session_is_still_json(client):
    assert_error(client.get(f"{BASE}/not-a-uuid"), 404, "not_found")


def test_wrong_method_is_405_json(alice_client):
    assert_error(alice_client.delete(f"{BASE}/vector"), 405, "method_not_allowed")


def test_form_body_is_415_json(alice_client):
    answer = alice_client.post(f"{BASE}/switches/update", {"memory_save_enabled": "false"})
    assert_error(answer, 415, "unsupported_media_type")


@pytest.mark.parametrize("body", [{"confirm": "true"}, {"confirm": 1}, {"confirm": True, "x": 1}])
def test_delete_all_needs_a_real_boolean_true(alice_client, alice_scope, remember, body):
    remember(alice_scope, "周报使用“飞书”文档撰写。")
    assert_error(post(alice_client, "/delete-all", json.dumps(body)), 400, "invalid_request")
    assert selectors.memory_list(scope=alice_scope).total == 1


@pytest.mark.parametrize(
    "body, bad",
    [
        ({"memory_save_enabled": "false"}, "memory_save_enabled"),
        ({"memory_save_enabled": 0}, "memory_save_enabled"),
        ({"x": True}, "x"),
    ],
)
def test_switches_are_strict(alice_client, alice_scope, body, bad):
    assert_invalid(post(alice_client, "/switches/update", json.dumps(body)), bad)
    assert selectors.memory_switches(scope=alice_scope).memory_save_enabled is True


@pytest.mark.parametrize(
    "body, bad",
    [({"text": 0}, "text"), ({"text": "a\u0000b"}, "text"), ({"text": "ok", "id": 1}, "id")],
)
def test_update_is_strict(alice_client, alice_scope, remember, body, bad):
    memory_id = remember(alice_scope, "周报使用飞书文档撰写。")
    assert_invalid(post(alice_client, f"/{memory_id}/update", json.dumps(body)), bad)
    assert selectors.memory_get(scope=alice_scope, memory_id=memory_id).content == (
        "周报使用飞书文档撰写。"
    )


@pytest.mark.parametrize(
    "params, bad",
    [
        ({"page": 10**18}, "page"),
        ({"page": "abc"}, "page"),
        ({"q": "a\u0000"}, "q"),
        ({"user_id": "bob"}, "user_id"),
    ],
)
def test_list_parameters_are_bounded_and_known(alice_client, params, bad):
    assert_invalid(alice_client.get(f"{BASE}/vector", params), bad)
