from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

TOKEN = "test-service-token"


class V1:
    """A /v1 caller with a valid service token."""

    def __init__(self, client: APIClient) -> None:
        self.client = client

    def post(self, op: str, body: Any, **extra: Any):
        return self.client.post(f"/v1/memories/{op}", body, format="json", **extra)


@pytest.fixture
def v1(settings, db) -> V1:
    settings.SERVICE_TOKENS = [TOKEN]
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {TOKEN}")
    return V1(client)


def body(scope, **fields: Any) -> dict[str, Any]:
    return {"tenant_id": scope.tenant_id, "user_id": scope.user_id, **fields}


def assert_error(response, http_status: int, code: str, *fields: str) -> dict[str, Any]:
    """The one error shape: ``{success: false, status, error: {code, message, fields}}``."""
    assert response.status_code == http_status, response.content
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    data = response.json()
    assert set(data) == {"success", "status", "error"}, data
    assert data["success"] is False
    assert data["status"] == code
    assert set(data["error"]) == {"code", "message", "fields"}, data
    assert data["error"]["code"] == code
    assert isinstance(data["error"]["message"], str) and data["error"]["message"]
    assert isinstance(data["error"]["fields"], dict)
    for field in fields:
        assert field in data["error"]["fields"], data
        assert data["error"]["fields"][field], data
    return data


def assert_invalid(response, *fields: str) -> None:
    assert_error(response, 400, "invalid_request", *fields)
