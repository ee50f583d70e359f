"""Staff deleting memories of several users at once: the confirmation names each user and how
many of theirs go, a typed word is required (as for a user's own delete-all), and the audit
names the staff member."""

from __future__ import annotations

import pytest
from django.urls import reverse

from memories.models import AuditEvent, MemoryRow

pytestmark = pytest.mark.django_db

URL = "admin:memories_memoryrow_changelist"


@pytest.fixture
def rows(alice_scope, bob_scope, remember) -> list[str]:
    return [
        remember(alice_scope, "周报使用飞书文档撰写，结论先行。"),
        remember(alice_scope, "团队日常沟通使用飞书。"),
        remember(bob_scope, "林清负责前端文档评审。"),
    ]


def test_the_confirmation_groups_by_user_and_asks_for_a_typed_word(admin_client, rows):
    page = admin_client.post(
        reverse(URL), {"action": "delete_selected", "_selected_action": rows}
    ).content.decode()
    assert "alice" in page and "bob" in page
    assert "2 条记忆" in page and "1 条记忆" in page
    assert 'name="confirm"' in page and "删除全部" in page


def test_without_the_typed_word_nothing_is_deleted(admin_client, rows):
    answer = admin_client.post(
        reverse(URL),
        {"action": "delete_selected", "_selected_action": rows, "post": "yes", "confirm": "好"},
    )
    assert answer.status_code == 200
    assert "请输入" in answer.content.decode()
    assert MemoryRow.objects.filter(id__in=rows).count() == 3


def test_with_the_typed_word_each_delete_is_audited_with_the_staff_actor(admin_client, rows):
    admin_client.post(
        reverse(URL),
        {
            "action": "delete_selected",
            "_selected_action": rows,
            "post": "yes",
            "confirm": "删除全部",
        },
    )
    assert MemoryRow.objects.filter(id__in=rows).count() == 0
    deletes = AuditEvent.objects.filter(memory_id__in=rows, event="DELETE")
    assert deletes.count() == 3
    assert set(deletes.values_list("actor_kind", "actor_id")) == {("staff", "admin")}
