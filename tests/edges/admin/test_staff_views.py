"""Staff reading a user's memories leaves a trace: who, when, which page, in the
audit trail and on the user's support view, never the memories' text."""

from __future__ import annotations

import pytest
from django.urls import reverse

from memories.models import AuditEvent, EntityRow
from memories.selectors import memories_last_changed, memory_history, memory_overview
from memories.services import memory_delete_user
from memories.types import Actor, ActorKind, DeleteStatus

pytestmark = pytest.mark.django_db

LIN = "“林清”负责“Poco”项目的前端文档评审。"
WANG = "“王磊”每周一更新设计文档。"


def views(scope):
    return AuditEvent.objects.filter(
        tenant_id=scope.tenant_id, user_id=scope.user_id, event=AuditEvent.Event.VIEW
    )


def test_opening_a_memory_records_who_when_and_which_page(admin_client, alice_scope, remember):
    memory_id = remember(alice_scope, LIN)
    assert (
        admin_client.get(reverse("admin:memories_memoryrow_change", args=[memory_id])).status_code
        == 200
    )
    assert (
        admin_client.get(reverse("admin:memories_memoryrow_correct", args=[memory_id])).status_code
        == 200
    )
    rows = list(views(alice_scope).order_by("id"))
    assert [(str(r.memory_id), r.page, r.actor_kind, r.actor_id) for r in rows] == [
        (memory_id, "memory", ActorKind.STAFF, "admin"),
        (memory_id, "correct", ActorKind.STAFF, "admin"),
    ]
    assert all(r.created_at and not (r.old_text or r.new_text or r.changes) for r in rows)


def test_the_memory_list_records_a_view_for_each_user_shown(
    admin_client, alice_scope, bob_scope, remember
):
    remember(alice_scope, LIN)
    remember(bob_scope, WANG)
    listing = admin_client.get(reverse("admin:memories_memoryrow_changelist"), {"q": "林清"})
    assert listing.status_code == 200
    seen = views(alice_scope).get()
    assert (seen.page, seen.memory_id, seen.actor_id) == ("memory_list", None, "admin")
    assert not views(bob_scope).exists()  # not on the page, not viewed
    # the search words staff typed are content too: they are not kept
    assert "林清" not in str(AuditEvent.objects.filter(event="VIEW").values())


def test_an_entity_page_lists_memories_so_opening_it_is_a_view(admin_client, alice_scope, remember):
    remember(alice_scope, LIN)
    entity = next(e for e in EntityRow.objects.all() if e.payload.get("data") == "林清")
    admin_client.get(reverse("admin:memories_entityrow_change", args=[entity.pk]))
    assert list(views(alice_scope).values_list("page", "memory_id")) == [("entity", None)]


def test_support_view_records_and_shows_staff_views(admin_client, alice_scope, remember):
    memory_id = remember(alice_scope, LIN)
    admin_client.get(reverse("admin:memories_memoryrow_change", args=[memory_id]))
    page = admin_client.get(
        reverse("admin:memories_support"), {"scope": alice_scope.key}
    ).content.decode()
    assert list(views(alice_scope).order_by("id").values_list("page", flat=True)) == [
        "memory",
        "support",
    ]
    section = page.split('data-section="staff-views"', 1)[1].split("</table>", 1)[0]
    assert "管理员 admin" in section and "记忆详情" in section and "用户支持视图" in section
    # the change history stays a history of changes
    audit = page.split('data-section="audit"', 1)[1].split("</table>", 1)[0]
    assert "VIEW" not in audit


def test_a_view_is_not_a_change(admin_client, alice_scope, remember):
    memory_id = remember(alice_scope, LIN)
    added = AuditEvent.objects.get(memory_id=memory_id, event="ADD").created_at
    admin_client.get(reverse("admin:memories_memoryrow_change", args=[memory_id]))
    assert views(alice_scope).exists()
    assert [e.event for e in memory_history(scope=alice_scope, memory_id=memory_id)] == ["ADD"]
    assert memories_last_changed(scope=alice_scope, memory_ids=[memory_id]) == {memory_id: added}
    assert memory_overview(scope=alice_scope).last_changed_at == added


def test_delete_user_leaves_staff_views_with_nothing_but_the_scope(
    admin_client, alice_scope, remember
):
    memory_id = remember(alice_scope, LIN)
    admin_client.get(reverse("admin:memories_memoryrow_change", args=[memory_id]))
    admin_client.get(reverse("admin:memories_memoryrow_changelist"), {"q": "林清"})
    admin_client.get(
        reverse("admin:memories_support"), {"scope": alice_scope.key, "reason": "林清的周报"}
    )
    outcome = memory_delete_user(
        scope=alice_scope, actor=Actor(kind=ActorKind.USER, id=alice_scope.user_id)
    )
    assert outcome.status == DeleteStatus.DELETED
    rows = list(views(alice_scope))
    assert len(rows) == 3
    for row in rows:
        # like the scope's other audit rows after a delete-user: no text, no run reference
        # (the reason staff gave may quote what they read: it goes too)
        assert (row.old_text, row.new_text, row.run_id, row.status, row.changes, row.reason) == (
            "",
            "",
            "",
            "",
            {},
            "",
        )
        assert row.page in {"memory", "memory_list", "support"}
        assert row.memory_id in {None, memory_id} or str(row.memory_id) == memory_id
    assert "林清" not in str(AuditEvent.objects.values())
