"""Who may call /v1 and how: 401 without a valid service token, 405 for the wrong method,
``/health`` open to all, ``/metrics`` behind the service token."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.edges.api.conftest import (
    POST_OPS,
    counts,
)
from tests.memories.conftest import TOKEN, assert_error, body

pytestmark = pytest.mark.django_db


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


@pytest.mark.parametrize("method", ["get", "put", "patch", "delete"])
@pytest.mark.parametrize("op", POST_OPS)
def test_other_methods_on_post_endpoints_are_405(v1, stored, op, method):
    before = counts()
    answer = getattr(v1.client, method)(f"/v1/memories/{op}", format="json")
    assert_error(answer, 405, "method_not_allowed")
    assert counts() == before


# --- /health -----------------------------------------------------------------------------------
def test_health_answers_200_without_a_token(client):
    answer = client.get("/health")
    assert answer.status_code == 200
    assert answer.json() == {"status": "ok", "database": True}


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
