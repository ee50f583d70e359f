"""Deleting one memory and all of them; failures never shown as success."""

from __future__ import annotations

import pytest
from django.urls import reverse

from memories import selectors, services
from memories.models import AuditEvent, MemoryRow
from memories.types import (
    DeleteOutcome,
    DeleteStatus,
)
from tests.edges.console.pages import ENGLISH, HTMX, LIN, WEEKLY, html, shown

pytestmark = pytest.mark.django_db


# --- deletion ---------------------------------------------------------------------------------
def test_delete_confirmation_fragment(alice_client, alice_scope, remember):
    memory_id = remember(alice_scope, WEEKLY)
    page = html(alice_client.get(reverse("console:memory_delete", args=[memory_id]), **HTMX))
    assert "<html" not in page
    assert "确定删除这条记忆" in page and "确认删除" in page


def test_delete_removes_the_memory_and_redirects(alice_client, alice_scope, remember):
    memory_id = remember(alice_scope, WEEKLY)
    response = alice_client.post(reverse("console:memory_delete", args=[memory_id]), **HTMX)
    assert response.status_code == 200
    assert response["HX-Redirect"] == reverse("console:memories")
    assert not MemoryRow.objects.filter(id=memory_id).exists()
    listing = html(alice_client.get(reverse("console:memories")))
    assert "已删除这条记忆" in listing and shown(WEEKLY) not in listing


def test_delete_without_javascript(alice_client, alice_scope, remember):
    memory_id = remember(alice_scope, WEEKLY)
    confirm = html(alice_client.get(reverse("console:memory_delete", args=[memory_id])))
    assert "<html" in confirm and "确认删除" in confirm
    response = alice_client.post(reverse("console:memory_delete", args=[memory_id]))
    assert response.status_code == 302
    assert not MemoryRow.objects.filter(id=memory_id).exists()


@pytest.mark.parametrize(
    ("status", "http_status", "headline"),
    [
        (DeleteStatus.PARTIAL_CLEANUP, 500, "删除没有完全完成"),
        (DeleteStatus.BACKEND_ERROR, 503, "删除失败"),
    ],
)
def test_failed_delete_is_never_shown_as_success(
    alice_client, alice_scope, remember, monkeypatch, status, http_status, headline
):
    # The service's outcome is the fact under test: the page must say what it says.
    memory_id = remember(alice_scope, WEEKLY)
    monkeypatch.setattr(
        services, "memory_delete", lambda **_: DeleteOutcome(status=status, deleted_count=1)
    )
    response = alice_client.post(reverse("console:memory_delete", args=[memory_id]), **HTMX)
    page = html(response)
    assert response.status_code == http_status
    assert headline in page and f'data-outcome="{status.value}"' in page
    assert "HX-Redirect" not in response
    assert "已删除这条记忆" not in page


def test_deleting_another_users_memory_is_404_and_keeps_it(alice_client, bob_scope, remember):
    memory_id = remember(bob_scope, LIN)
    response = alice_client.post(reverse("console:memory_delete", args=[memory_id]))
    assert response.status_code == 404
    assert MemoryRow.objects.filter(id=memory_id).exists()


def test_delete_all_needs_the_typed_phrase(alice_client, alice_scope, remember):
    remember(alice_scope, WEEKLY)
    page = html(alice_client.get(reverse("console:memory_delete_all")))
    assert "删除全部" in page and "1</strong> 条记忆" in page
    response = alice_client.post(reverse("console:memory_delete_all"), {"confirm": "删除"}, **HTMX)
    assert response.status_code == 422
    assert 'id="confirm-error"' in html(response)
    assert selectors.memory_list(scope=alice_scope).total == 1


def test_delete_all_deletes_only_own_memories(alice_client, alice_scope, bob_scope, remember):
    remember(alice_scope, WEEKLY)
    remember(alice_scope, ENGLISH)
    bobs = remember(bob_scope, LIN)
    response = alice_client.post(
        reverse("console:memory_delete_all"), {"confirm": "删除全部"}, **HTMX
    )
    assert response["HX-Redirect"] == reverse("console:memories")
    assert selectors.memory_list(scope=alice_scope).total == 0
    assert MemoryRow.objects.filter(id=bobs).exists()
    listing = html(alice_client.get(reverse("console:memories")))
    assert "已删除全部 2 条记忆" in listing
    deletes = AuditEvent.objects.filter(user_id="alice", event="DELETE")
    assert deletes.count() == 2 and not deletes.exclude(new_text="", old_text="").exists()


def test_delete_all_partial_cleanup_is_a_failure(alice_client, alice_scope, remember, monkeypatch):
    remember(alice_scope, WEEKLY)
    monkeypatch.setattr(
        services,
        "memory_delete_user",
        lambda **_: DeleteOutcome(status=DeleteStatus.PARTIAL_CLEANUP, deleted_count=3),
    )
    response = alice_client.post(
        reverse("console:memory_delete_all"), {"confirm": "删除全部"}, **HTMX
    )
    page = html(response)
    assert response.status_code == 500
    assert "删除没有完全完成" in page and "已删除 3 条记忆" in page
    assert "HX-Redirect" not in response
