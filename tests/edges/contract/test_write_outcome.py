"""The one write result (``memories.types.WriteOutcome``) and the shapes every edge derives
from it: /v1's body, MCP's pydantic model and the HTTP status table agree on every status."""

from __future__ import annotations

import pytest

from edges.contract import mcp_shapes, shapes
from edges.contract.outcomes import OUTCOME_HTTP_STATUS, Edge, http_status
from memories.types import DeleteOutcome, DeleteStatus, WriteOutcome, WriteStatus


def test_every_delete_status_is_a_write_status_with_an_http_status():
    assert {s.value for s in DeleteStatus} <= {s.value for s in WriteStatus}
    assert set(OUTCOME_HTTP_STATUS) == set(WriteStatus)
    assert sorted(s.value for s in WriteStatus) == shapes.WRITE_STATUSES


@pytest.mark.parametrize("status", list(WriteStatus))
def test_v1_and_mcp_answer_the_same_body_for_every_status(status):
    outcome = WriteOutcome(status=status, memory_id="m-1", reason="why", action="add")
    body = dict(shapes.WriteOutput(outcome).data)
    assert body == {
        "action": "add",
        "success": outcome.success,
        "status": status.value,
        "memory_id": "m-1",
        "inserted_count": 0,
        "reason": "why",
        "superseded_id": None,
    }
    assert mcp_shapes.McpManageOutput.model_validate(body).model_dump(mode="json") == body


def test_refused_is_a_decided_answer_on_every_edge():
    outcome = WriteOutcome(status=WriteStatus.REFUSED, reason="memory_save_disabled")
    assert not outcome.success
    assert [http_status(outcome.status, edge) for edge in Edge] == [200, 200, 200]


@pytest.mark.parametrize(
    ("deleted", "expected"),
    [
        (DeleteOutcome(status=DeleteStatus.DELETED, deleted_count=1), ("deleted", True, None)),
        (DeleteOutcome(status=DeleteStatus.NOT_FOUND), ("not_found", False, "not_found")),
        (
            DeleteOutcome(status=DeleteStatus.BACKEND_ERROR, reason="db down"),
            ("backend_error", False, "db down"),
        ),
    ],
)
def test_a_delete_by_id_reads_as_a_write(deleted, expected):
    outcome = WriteOutcome.of_delete("m-1", deleted)
    assert (outcome.status, outcome.success, outcome.reason) == expected
    assert (outcome.action, outcome.memory_id) == ("delete", "m-1")
