"""What staff read in the admin: one local time format, reasons in words, not codes."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.urls import reverse

from memories.scope import scope_for_user
from memories.services import memory_add
from memories.types import Actor, ActorKind, Source

pytestmark = pytest.mark.django_db

SECRET = "sk-proj-" + "Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe"


def test_valid_until_is_a_local_time_not_an_iso_string(admin_client, alice):
    outcome = memory_add(
        scope=scope_for_user(alice),
        text="周报使用飞书文档撰写。",
        actor=Actor(kind=ActorKind.AGENT, id="agent-test"),
        source=Source.MANAGE,
        valid_until=datetime(2028, 11, 30, 13, 36, 4, 733798, tzinfo=UTC),
    )
    assert outcome.memory_id
    page = admin_client.get(
        reverse("admin:memories_memoryrow_change", args=[outcome.memory_id])
    ).content.decode()
    assert "2028-11-30 21:36" in page  # Asia/Shanghai, as every other time here
    assert "2028-11-30T13:36:04" not in page


def test_the_support_view_names_rejection_reasons_in_words(admin_client, alice_scope):
    from lifecycle.ingest import ingest_submit
    from memories.admission import Message

    ingest_submit(
        scope=alice_scope,
        messages=[
            Message(role="user", content="key sk-proj-" + "Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe")
        ],
        source="task_completed",
    )
    page = admin_client.get(
        reverse("admin:memories_support"), {"scope": alice_scope.key}
    ).content.decode()
    rows = page.split('data-section="rejections"')[1].split("</table>")[0]
    assert "凭据" in rows
    assert "<code>credential</code>" not in rows
