"""Django admin for staff: read-only memories, deletes and corrections through the services."""

from __future__ import annotations

from html import escape

import pytest
from django.contrib.admin.models import LogEntry
from django.urls import reverse

from memories.labels import rejection_label
from memories.models import AuditEvent, MemoryRow, MemorySettings
from memories.selectors import memory_get, memory_history, memory_switches
from memories.services import memory_switches_update

pytestmark = pytest.mark.django_db

WEEKLY = "周报使用“飞书”文档撰写，结论先行。"
LIN = "“林清”负责“Poco”项目的前端文档评审。"


@pytest.fixture
def staff_client(admin_client):
    return admin_client  # pytest-django's superuser "admin"


def test_memory_changelist_searches_text_and_scope(staff_client, alice_scope, bob_scope, remember):
    remember(alice_scope, WEEKLY)
    remember(bob_scope, LIN)
    url = reverse("admin:memories_memoryrow_changelist")
    everything = staff_client.get(url).content.decode()
    assert "周报" in everything and "林清" in everything
    by_text = staff_client.get(url, {"q": "飞书"}).content.decode()
    assert "周报" in by_text and "林清" not in by_text
    by_scope = staff_client.get(url, {"q": bob_scope.key}).content.decode()
    assert "林清" in by_scope and "周报" not in by_scope


def test_memory_changelist_filters_by_category(staff_client, alice_scope, remember):
    remember(alice_scope, WEEKLY, category="preference")
    remember(alice_scope, LIN, category="project")
    url = reverse("admin:memories_memoryrow_changelist")
    page = staff_client.get(url, {"category": "project"}).content.decode()
    assert "林清" in page and "周报" not in page


@pytest.mark.parametrize("parameter", ["scope", "category", "source"])
def test_memory_changelist_answers_a_filter_value_postgresql_cannot_hold(
    staff_client, alice_scope, remember, parameter
):
    """A NUL byte never reaches SQL (it was the 503 outage page): Django's answer to a bad
    lookup, the unfiltered list with its "e=1" flag."""
    remember(alice_scope, WEEKLY)
    url = reverse("admin:memories_memoryrow_changelist")
    response = staff_client.get(url, {parameter: "\x00"})
    assert (response.status_code, response["Location"]) == (302, f"{url}?e=1")
    assert "周报" in staff_client.get(response["Location"]).content.decode()


def test_memory_detail_shows_history_and_entities(staff_client, alice_scope, remember):
    memory_id = remember(alice_scope, LIN)
    response = staff_client.get(reverse("admin:memories_memoryrow_change", args=[memory_id]))
    page = response.content.decode()
    assert response.status_code == 200
    assert escape(LIN) in page and alice_scope.key in page
    assert "新增" in page and "agent-test" in page  # history, in words
    assert "林清" in page and "QUOTED" in page  # entities
    assert reverse("admin:memories_memoryrow_correct", args=[memory_id]) in page
    assert 'name="_save"' not in page  # read-only: no ORM save of the Mem0 row


def test_admin_cannot_add_memories(staff_client):
    assert staff_client.get(reverse("admin:memories_memoryrow_add")).status_code == 403


def test_admin_correction_goes_through_the_service(staff_client, alice_scope, remember):
    memory_id = remember(alice_scope, WEEKLY)
    url = reverse("admin:memories_memoryrow_correct", args=[memory_id])
    form = staff_client.get(url)
    assert form.status_code == 200 and escape(WEEKLY) in form.content.decode()
    corrected = "周报改用“钉钉”文档撰写。"
    response = staff_client.post(url, {"text": corrected, "category": "preference"})
    assert response.status_code == 302
    record = memory_get(scope=alice_scope, memory_id=memory_id)
    assert record.id == memory_id
    assert record.content == corrected
    last = memory_history(scope=alice_scope, memory_id=memory_id)[-1]
    assert (last.event, last.actor_kind, last.actor_id, last.source) == (
        "UPDATE",
        "staff",
        "admin",
        "admin",
    )


def test_a_refused_admin_correction_names_its_reason_in_the_labels_words(
    staff_client, alice_scope, remember
):
    """The admin words admission's refusal as the labels do (as the console and the support
    page), not as the bare status "rejected"."""
    memory_id = remember(alice_scope, WEEKLY)
    url = reverse("admin:memories_memoryrow_correct", args=[memory_id])
    secret = "sk-proj-" + "Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe"
    page = staff_client.post(url, {"text": f"密钥是 {secret}", "category": "fact"})
    assert page.status_code == 200
    assert f"纠正失败：{rejection_label('credential')}。" in page.content.decode()
    assert memory_get(scope=alice_scope, memory_id=memory_id).content == WEEKLY


@pytest.mark.parametrize("method", ["get", "post"])
@pytest.mark.parametrize("object_id", ["notauuid", "00000000-0000-0000-0000-000000000000"])
def test_admin_correction_of_no_memory_is_a_404(staff_client, method, object_id):
    """An id that is not a UUID names no memory either: 404, as for a missing one (it was a
    500, a ValidationError from the lookup)."""
    url = reverse("admin:memories_memoryrow_correct", args=[object_id])
    response = getattr(staff_client, method)(url, {"text": "x", "category": "fact"})
    assert response.status_code == 404


def test_admin_delete_goes_through_the_service(staff_client, alice_scope, remember):
    memory_id = remember(alice_scope, LIN)
    url = reverse("admin:memories_memoryrow_delete", args=[memory_id])
    assert staff_client.get(url).status_code == 200  # Django's confirmation page
    response = staff_client.post(url, {"post": "yes"}, follow=True)
    assert not MemoryRow.objects.filter(id=memory_id).exists()
    tombstone = AuditEvent.objects.get(memory_id=memory_id, event="DELETE")
    assert (tombstone.actor_kind, tombstone.actor_id, tombstone.source) == (
        "staff",
        "admin",
        "admin",
    )
    assert not AuditEvent.objects.filter(memory_id=memory_id).exclude(new_text="").exists()
    assert "已删除 1 条记忆" in response.content.decode()
    # the admin log does not keep the forgotten text either
    assert not LogEntry.objects.filter(object_repr__contains="林清").exists()


def test_admin_bulk_delete_goes_through_the_service(staff_client, alice_scope, bob_scope, remember):
    ids = [remember(alice_scope, WEEKLY), remember(bob_scope, LIN)]
    url = reverse("admin:memories_memoryrow_changelist")
    confirm = staff_client.post(url, {"action": "delete_selected", "_selected_action": ids})
    assert confirm.status_code == 200 and b"post" in confirm.content  # confirmation first
    assert MemoryRow.objects.filter(id__in=ids).count() == 2
    done = staff_client.post(
        url,
        {
            "action": "delete_selected",
            "_selected_action": ids,
            "post": "yes",
            "confirm": "删除全部",  # the typed word, as for a user's own delete-all
        },
        follow=True,
    )
    assert MemoryRow.objects.filter(id__in=ids).count() == 0
    assert AuditEvent.objects.filter(memory_id__in=ids, event="DELETE").count() == 2
    assert "已删除 2 条记忆" in done.content.decode()


def test_audit_events_are_read_only(staff_client, alice_scope, remember):
    memory_id = remember(alice_scope, WEEKLY)
    event = AuditEvent.objects.get(memory_id=memory_id)
    listing = staff_client.get(reverse("admin:memories_auditevent_changelist"))
    assert listing.status_code == 200 and memory_id in listing.content.decode()
    detail = staff_client.get(reverse("admin:memories_auditevent_change", args=[event.pk]))
    assert detail.status_code == 200 and 'name="_save"' not in detail.content.decode()
    delete = staff_client.post(
        reverse("admin:memories_auditevent_delete", args=[event.pk]), {"post": "yes"}
    )
    assert delete.status_code == 403
    assert AuditEvent.objects.filter(pk=event.pk).exists()


def test_settings_admin_changes_switches_through_the_service(staff_client, alice_scope):
    memory_switches_update(scope=alice_scope, memory_save_enabled=False)
    row = MemorySettings.objects.get(user_id=alice_scope.user_id)
    url = reverse("admin:memories_memorysettings_change", args=[row.pk])
    assert staff_client.get(url).status_code == 200
    response = staff_client.post(url, {"memory_save_enabled": "on"})
    assert response.status_code == 302
    switches = memory_switches(scope=alice_scope)
    assert switches.memory_save_enabled is True
    assert switches.memory_reference_enabled is False


def test_ingest_jobs_are_listed_read_only_without_their_text(admin_client, scope):
    from lifecycle.models import IngestJob

    job = IngestJob.objects.create(
        tenant_id=scope.tenant_id,
        user_id=scope.user_id,
        run_id="run-admin",
        source="task_completed",
        messages=[{"role": "user", "content": "SECRET-CANDIDATE-TEXT"}],
    )
    listing = admin_client.get("/admin/lifecycle/ingestjob/")
    assert listing.status_code == 200
    assert "run-admin" in listing.content.decode()
    detail = admin_client.get(f"/admin/lifecycle/ingestjob/{job.id}/change/")
    assert detail.status_code == 200
    assert "SECRET-CANDIDATE-TEXT" not in detail.content.decode()
    assert admin_client.get("/admin/lifecycle/ingestjob/add/").status_code == 403
