"""The detail page checked without a browser: dates that agree, admission previews."""

from __future__ import annotations

from datetime import timedelta

from django.urls import reverse
from django.utils import timezone

from memories.admission.preview import preview_text, removed_parts
from memories.services import memory_add, memory_update
from memories.types import Actor, ActorKind


def test_last_update_on_the_detail_page_is_the_newest_history_entry(alice_client, alice_scope):
    """seed_demo backdates corrections: "最近更新" must not say today beside an old history."""
    added = memory_add(
        scope=alice_scope,
        text="周报使用飞书文档撰写。",
        actor=Actor(kind=ActorKind.AGENT, id="agent-test"),
        created_at=timezone.now() - timedelta(days=40),
    )
    memory_id = added.memory_id
    assert memory_id
    weeks_ago = timezone.now() - timedelta(days=20)
    memory_update(
        scope=alice_scope,
        memory_id=memory_id,
        text="周报使用飞书文档撰写，结论先行。",
        actor=Actor(kind=ActorKind.USER, id="alice"),
        occurred_at=weeks_ago,
    )
    page = alice_client.get(reverse("console:memory_detail", args=[memory_id])).content.decode()
    shown = timezone.localtime(weeks_ago).strftime("%Y-%m-%d %H:%M")
    today = timezone.localtime().strftime("%Y-%m-%d")
    last = page.split("最近更新", 1)[1].split("</dd>", 1)[0]
    assert shown in last and today not in last


def test_preview_names_exactly_what_cleaning_removes():
    preview = preview_text(
        source="console",
        text="周报参考 https://wiki.example.com/x 和 /srv/app/report.md，表格放最后。",
    )
    assert preview.admitted and preview.changes_text
    assert preview.removed == ("https://wiki.example.com/x", "/srv/app/report.md")
    assert "https://" not in preview.text and preview.text.startswith("周报参考")
    assert removed_parts("a “b” c", "a “b” c") == ()
    plain = preview_text(source="console", text="偏好用“飞书”写周报。")
    assert plain.admitted and not plain.changes_text and plain.removed == ()
