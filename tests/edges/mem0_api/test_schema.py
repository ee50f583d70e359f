"""/mem0/schema describes the door in a document of its own (tag ``mem0``); /v1/schema stays
the internal contract."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

OPERATIONS = {
    ("/mem0/v1/ping/", "get"),
    ("/mem0/v3/memories/add/", "post"),
    ("/mem0/v3/memories/", "post"),
    ("/mem0/v3/memories/search/", "post"),
    ("/mem0/v1/memories/", "delete"),
    ("/mem0/v1/memories/{memory_id}/", "get"),
    ("/mem0/v1/memories/{memory_id}/", "put"),
    ("/mem0/v1/memories/{memory_id}/", "delete"),
    ("/mem0/v1/memories/{memory_id}/history/", "get"),
    ("/mem0/v1/batch/", "put"),
    ("/mem0/v1/batch/", "delete"),
    ("/mem0/v1/feedback/", "post"),
    ("/mem0/v1/event/{event_id}/", "get"),
    ("/mem0/v1/entities/", "get"),
    ("/mem0/v2/entities/{entity_type}/{name}/", "delete"),
}


@pytest.mark.django_db
def test_the_door_has_its_own_document():
    document = APIClient().get("/mem0/schema?format=json").json()
    operations = {
        (path, method): operation
        for path, methods in document["paths"].items()
        for method, operation in methods.items()
        if method in ("get", "post", "put", "delete", "patch")
    }
    assert set(operations) == OPERATIONS
    for operation in operations.values():
        assert operation["tags"] == ["mem0"]
        assert operation["security"] == [{"mem0Token": []}]
        assert {"200", "400", "401", "404"} <= set(operation["responses"])
    scheme = document["components"]["securitySchemes"]["mem0Token"]
    assert scheme == {
        "type": "apiKey",
        "in": "header",
        "name": "Authorization",
        "description": "Token <service token>",
    }
    memory = document["components"]["schemas"]["MemoryOut"]["properties"]
    assert {"id", "memory", "user_id", "categories", "created_at"} <= set(memory)

    internal = APIClient().get("/v1/schema?format=json").json()
    assert not [path for path in internal["paths"] if path.startswith("/mem0/")]


def test_every_ingest_job_status_is_an_event_status():
    from edges.mem0_api.shapes import EVENT_STATUS
    from lifecycle.models import IngestJob

    assert set(EVENT_STATUS) == set(IngestJob.Status.values)
    assert set(EVENT_STATUS.values()) == {"PENDING", "RUNNING", "SUCCEEDED", "FAILED"}
