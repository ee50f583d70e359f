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
