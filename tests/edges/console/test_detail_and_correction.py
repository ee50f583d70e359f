"""A memory's page and its inline correction."""

from __future__ import annotations

from html import escape

import pytest
from django.urls import reverse

from memories import services
from memories.selectors import memory_get, memory_history
from memories.types import (
    WriteOutcome,
    WriteStatus,
)
from tests.edges.console.pages import HTMX, LIN, WEEKLY, html, shown

pytestmark = pytest.mark.django_db


# --- detail -----------------------------------------------------------------------------------
def test_detail_shows_text_metadata_related_and_history(alice_client, alice_scope, remember):
    memory_id = remember(alice_scope, WEEKLY, category="preference", source="ingest")
    related_id = remember(alice_scope, "周报需要在周五下班前发给“林清”。")
    page = html(alice_client.get(reverse("console:memory_detail", args=[memory_id])))
    assert shown(WEEKLY) in page
    assert memory_id in page
    assert "偏好" in page and "任务沉淀" in page
    assert reverse("console:memory_detail", args=[related_id]) in page  # related memories
    assert "变更轨迹" in page and "你的助手在任务中记下" in page
    assert ">ADD<" not in page and "agent-test" not in page  # codes and ids stay in the admin


def test_detail_of_another_users_memory_is_404_without_content(alice_client, bob_scope, remember):
    memory_id = remember(bob_scope, LIN)
    response = alice_client.get(reverse("console:memory_detail", args=[memory_id]))
    assert response.status_code == 404
    assert "林清" not in html(response)


def test_detail_of_unknown_id_is_404(alice_client):
    response = alice_client.get(
        reverse("console:memory_detail", args=["00000000-0000-0000-0000-000000000000"])
    )
    assert response.status_code == 404


def test_not_a_uuid_is_404(alice_client):
    assert alice_client.get("/memories/not-a-uuid/").status_code == 404


# --- correction -------------------------------------------------------------------------------
def test_edit_form_fragment_is_prefilled(alice_client, alice_scope, remember):
    memory_id = remember(alice_scope, WEEKLY, category="preference")
    response = alice_client.get(reverse("console:memory_edit", args=[memory_id]), **HTMX)
    page = html(response)
    assert "<html" not in page
    assert "纠正记忆" in page and shown(WEEKLY) in page
    assert '<option value="preference" selected>' in page


def test_edit_page_without_javascript(alice_client, alice_scope, remember):
    memory_id = remember(alice_scope, WEEKLY)
    page = html(alice_client.get(reverse("console:memory_edit", args=[memory_id])))
    assert "<html" in page and 'name="text"' in page


def test_correction_keeps_the_id_and_adds_history(alice_client, alice_scope, remember):
    memory_id = remember(alice_scope, WEEKLY, category="preference")
    corrected = "周报使用“飞书”文档撰写，周五前发给“林清”。"
    response = alice_client.post(
        reverse("console:memory_edit", args=[memory_id]),
        {"text": corrected, "category": "preference"},
        **HTMX,
    )
    page = html(response)
    assert response.status_code == 200
    assert response["HX-Retarget"] == "#detail-body"
    assert "已纠正" in page and escape(corrected) in page
    assert memory_get(scope=alice_scope, memory_id=memory_id).content == corrected
    history = memory_history(scope=alice_scope, memory_id=memory_id)
    assert [e.event for e in history] == ["ADD", "UPDATE"]
    assert history[-1].old_text == WEEKLY and history[-1].new_text == corrected
    assert history[-1].actor_kind == "user" and history[-1].actor_id == "alice"
    assert history[-1].source == "console"
    assert "<del>" in page and "你在管理页纠正" in page  # the trail shows old → new


def test_correction_without_javascript_redirects_with_message(alice_client, alice_scope, remember):
    memory_id = remember(alice_scope, WEEKLY)
    response = alice_client.post(
        reverse("console:memory_edit", args=[memory_id]),
        {"text": "周报改用“钉钉”文档撰写。", "category": "fact"},
        follow=True,
    )
    assert response.redirect_chain[-1][0] == reverse("console:memory_detail", args=[memory_id])
    assert "已纠正" in html(response)


def test_unchanged_correction_says_so(alice_client, alice_scope, remember):
    memory_id = remember(alice_scope, WEEKLY)
    response = alice_client.post(
        reverse("console:memory_edit", args=[memory_id]),
        {"text": WEEKLY, "category": "fact"},
        **HTMX,
    )
    assert "内容没有变化" in html(response)


def test_empty_correction_shows_inline_error(alice_client, alice_scope, remember):
    memory_id = remember(alice_scope, WEEKLY)
    response = alice_client.post(
        reverse("console:memory_edit", args=[memory_id]),
        {"text": "  ", "category": "fact"},
        **HTMX,
    )
    assert response.status_code == 422
    assert 'id="text-error"' in html(response) and "记忆内容不能为空" in html(response)
    assert memory_get(scope=alice_scope, memory_id=memory_id).content == WEEKLY


def test_correction_backend_error_is_a_failure(alice_client, alice_scope, remember, monkeypatch):
    memory_id = remember(alice_scope, WEEKLY)
    monkeypatch.setattr(
        services,
        "memory_update",
        lambda **_: WriteOutcome(status=WriteStatus.BACKEND_ERROR, memory_id=memory_id),
    )
    response = alice_client.post(
        reverse("console:memory_edit", args=[memory_id]),
        {"text": "新的内容。", "category": "fact"},
        **HTMX,
    )
    page = html(response)
    assert response.status_code == 503
    assert "纠正失败" in page and "已纠正" not in page


def test_correcting_another_users_memory_is_404_and_changes_nothing(
    alice_client, bob_scope, remember
):
    memory_id = remember(bob_scope, LIN)
    response = alice_client.post(
        reverse("console:memory_edit", args=[memory_id]), {"text": "篡改", "category": "fact"}
    )
    assert response.status_code == 404
    assert memory_get(scope=bob_scope, memory_id=memory_id).content == LIN
