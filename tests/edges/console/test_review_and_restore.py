"""The services behind "最近记住的" and "恢复为…": a review mark that pins and changes nothing
else, a restore that is a correction (admitted again, audited as a restore), both only inside
the user's own scope; and spans of time in a person's words."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from edges.templatetags.console_text import about, ago
from memories import selectors
from memories.models import AuditEvent
from memories.services import memory_mark_reviewed, memory_restore_version, memory_update
from memories.types import Actor, ActorKind, Source, WriteStatus

pytestmark = pytest.mark.django_db

USER = Actor(kind=ActorKind.USER, id="alice")


def test_review_marks_once_pins_nothing_and_leaves_the_list(alice_scope, bob_scope, remember):
    learned = remember(alice_scope, "发布说明同时写中文和英文。", source=Source.INGEST)
    remember(alice_scope, "周报使用飞书文档撰写。", source=Source.CONSOLE)
    before = selectors.memories_recently_learned(scope=alice_scope)
    assert [r.id for r in before.items] == [learned] and before.unreviewed == 1

    first = memory_mark_reviewed(scope=alice_scope, memory_id=learned, actor=USER)
    again = memory_mark_reviewed(scope=alice_scope, memory_id=learned, actor=USER)
    other = memory_mark_reviewed(scope=bob_scope, memory_id=learned, actor=USER)
    assert (first.status, again.status) == (WriteStatus.UPDATED, WriteStatus.NO_EFFECT)
    assert other.status in (WriteStatus.NOT_FOUND, WriteStatus.FORBIDDEN)
    record = selectors.memory_get(scope=alice_scope, memory_id=learned)
    assert record.metadata["reviewed_at"] and not record.metadata.get("pinned")
    assert record.content == "发布说明同时写中文和英文。"
    assert selectors.unreviewed_count(scope=alice_scope) == 0
    assert AuditEvent.objects.filter(memory_id=learned, status="reviewed").count() == 1


def test_restore_is_an_admitted_correction_of_the_own_scope(alice_scope, bob_scope, remember):
    memory_id = remember(alice_scope, "周报使用飞书文档撰写。")
    memory_update(scope=alice_scope, memory_id=memory_id, text="周报使用 Notion 撰写。", actor=USER)
    added = AuditEvent.objects.get(memory_id=memory_id, event="ADD")

    foreign = memory_restore_version(
        scope=bob_scope, memory_id=memory_id, event_id=added.id, actor=USER
    )
    assert foreign.status in (WriteStatus.NOT_FOUND, WriteStatus.FORBIDDEN)
    outcome = memory_restore_version(
        scope=alice_scope, memory_id=memory_id, event_id=added.id, actor=USER
    )
    assert outcome.status == WriteStatus.UPDATED
    assert selectors.memory_get(scope=alice_scope, memory_id=memory_id).content == (
        "周报使用飞书文档撰写。"
    )
    newest = selectors.memory_history(scope=alice_scope, memory_id=memory_id)[-1]
    assert (newest.event, newest.status, newest.old_text) == (
        "UPDATE",
        "restored",
        "周报使用 Notion 撰写。",
    )

    # A past text admission refuses now stays refused; the memory is unchanged.
    AuditEvent.objects.filter(pk=added.pk).update(new_text="我的密码是 hunter2-Secret-9x")
    refused = memory_restore_version(
        scope=alice_scope, memory_id=memory_id, event_id=added.id, actor=USER
    )
    assert refused.status == WriteStatus.REJECTED
    assert selectors.memory_get(scope=alice_scope, memory_id=memory_id).content == (
        "周报使用飞书文档撰写。"
    )


def test_spans_of_time_read_as_a_person_says_them():
    now = timezone.now()
    assert ago(now - timedelta(seconds=20)) == "刚刚"
    assert ago(now - timedelta(minutes=5, seconds=3)) == "5 分钟前"
    assert about(now, now + timedelta(days=700, hours=1)) == "约 1 年 11 个月"
    assert about(now, now + timedelta(days=365, hours=1)) == "约 1 年"
    assert about(now, now + timedelta(days=3, hours=2)) == "3 天"


def test_a_support_view_keeps_the_reason_staff_gave(admin_client, alice_scope, remember):
    remember(alice_scope, "周报使用飞书文档撰写。")
    page = admin_client.get(
        "/admin/memories/memoryrow/support/",
        {"scope": alice_scope.key, "reason": "  工单 1234：记忆不准  "},
    )
    assert page.status_code == 200
    view = AuditEvent.objects.get(event="VIEW", page=AuditEvent.Page.SUPPORT)
    assert (view.reason, view.user_id) == ("工单 1234：记忆不准", alice_scope.user_id)
    assert "工单 1234：记忆不准" in page.content.decode()
