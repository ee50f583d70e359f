"""Admin for support staff: one user's page, local times, entities, links."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import timezone

from lifecycle.ingest import ingest_submit
from lifecycle.models import IngestRejection
from memories.admission import Message
from memories.models import AuditEvent, EntityRow, MemoryRow

pytestmark = pytest.mark.django_db

LIN = "“林清”负责“Poco”项目的前端文档评审。"
SECRET = "sk-proj-" + "Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe"


def test_a_rejected_ingest_leaves_a_counted_trace_without_content(alice_scope):
    outcome = ingest_submit(
        scope=alice_scope,
        messages=[
            Message(role="user", content=f"我的密钥是 {SECRET}，记住它"),
            Message(role="assistant", content="好的"),
        ],
        source="task_completed",
        run_id="run-7",
    )
    assert outcome.status == "rejected"
    trace = IngestRejection.objects.get()
    assert (trace.user_id, trace.run_id, trace.reason) == ("alice", "run-7", "credential")
    assert SECRET not in str(trace.__dict__)


def test_support_view_joins_one_users_memories_jobs_rejections_and_audit(
    admin_client, alice_scope, bob_scope, remember
):
    memory_id = remember(alice_scope, LIN)
    remember(bob_scope, "“王磊”的私人备忘。")
    for _ in range(2):
        ingest_submit(
            scope=alice_scope,
            messages=[Message(role="user", content=f"key {SECRET}")],
            source="task_completed",
        )
    page = admin_client.get(
        reverse("admin:memories_support"), {"scope": alice_scope.key}
    ).content.decode()
    assert reverse("admin:memories_memoryrow_change", args=[memory_id]) in page
    assert re.search(r'data-reason="credential">2<', page)  # counted by reason
    assert SECRET not in page and "王磊" not in page  # no content of rejections, no other user
    assert "保存记忆：开启" in page.replace(" ", "")
    assert 'data-section="audit"' in page and "agent-test" in page


def test_admin_times_are_local_and_ids_link_to_their_memory(admin_client, alice_scope, remember):
    memory_id = remember(alice_scope, LIN)
    created = MemoryRow.objects.get(pk=memory_id).payload["created_at"]
    local = timezone.localtime(
        timezone.datetime.fromisoformat(created)  # the payload's ISO string, any offset
    ).strftime("%Y-%m-%d %H:%M")
    memories = admin_client.get(reverse("admin:memories_memoryrow_changelist")).content.decode()
    assert local in memories and created not in memories  # no raw ISO string
    detail = admin_client.get(
        reverse("admin:memories_memoryrow_change", args=[memory_id])
    ).content.decode()
    event = AuditEvent.objects.get(memory_id=memory_id, event="ADD")  # opening it: a VIEW
    assert timezone.localtime(event.created_at).strftime("%Y-%m-%d %H:%M") in detail

    audit = admin_client.get(
        reverse("admin:memories_auditevent_changelist"), {"scope": alice_scope.key}
    ).content.decode()
    assert reverse("admin:memories_memoryrow_change", args=[memory_id]) in audit
    assert "新增" in audit and "(ADD)" not in audit and "时间" in audit and "操作者" in audit
    filters = admin_client.get(reverse("admin:memories_auditevent_changelist")).content.decode()
    assert "管理页" in filters and "Agent" in filters  # filter values as words


def test_entities_page_searches_and_lists_the_linked_memories(admin_client, alice_scope, remember):
    memory_id = remember(alice_scope, LIN)
    listing = admin_client.get(
        reverse("admin:memories_entityrow_changelist"), {"q": "林清"}
    ).content.decode()
    assert "林清" in listing and alice_scope.key in listing
    entity = next(e for e in EntityRow.objects.all() if e.payload.get("data") == "林清")
    detail = admin_client.get(
        reverse("admin:memories_entityrow_change", args=[entity.pk])
    ).content.decode()
    assert reverse("admin:memories_memoryrow_change", args=[memory_id]) in detail


def test_a_bare_user_on_the_support_page_is_of_the_configured_console_tenant(
    admin_client, settings, alice, remember
):
    """The console's local accounts live in ``POCO_CONSOLE_TENANT_ID``: staff typing only the
    user find them there, whatever the tenant is called (it was hard-coded "default")."""
    settings.CONSOLE_TENANT_ID = "acme"
    from memories.scope import scope_for_user

    scope = scope_for_user(alice)
    memory_id = remember(scope, LIN)
    page = admin_client.get(reverse("admin:memories_support"), {"scope": "alice"})
    assert reverse("admin:memories_memoryrow_change", args=[memory_id]) in page.content.decode()
    assert AuditEvent.objects.filter(
        event=AuditEvent.Event.VIEW, tenant_id="acme", user_id="alice"
    ).exists()


def test_a_user_that_cannot_be_a_scope_is_refused_on_the_support_page(admin_client):
    page = admin_client.get(reverse("admin:memories_support"), {"scope": "acme:ali ce"})
    assert "无法识别这个用户（格式：tenant:user）。" in page.content.decode()
    assert not AuditEvent.objects.filter(event=AuditEvent.Event.VIEW).exists()
