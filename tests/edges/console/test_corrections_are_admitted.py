"""A correction is new text: it passes the same admission gate as a new fact, on every edge."""

from __future__ import annotations

from memories.models import AuditEvent, MemoryRow

SECRET = "以后部署都用这个口令：password=Sup3r-Secret-42"


def test_console_correction_with_a_credential_is_refused_inline(
    alice_client, alice_scope, remember
):
    memory_id = remember(alice_scope, "用户偏好简洁的回答。")
    response = alice_client.post(
        f"/memories/{memory_id}/edit/", {"text": SECRET, "category": "preference"}
    )
    assert response.status_code == 422
    assert "凭据" in response.content.decode()
    assert "Sup3r-Secret-42" not in MemoryRow.objects.get(id=memory_id).content
    assert not AuditEvent.objects.filter(event="UPDATE").exists()
