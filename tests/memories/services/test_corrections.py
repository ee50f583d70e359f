"""/v1 corrections pass the same admission gate as a new fact."""

from __future__ import annotations

import pytest

from memories.models import MemoryRow
from tests.memories.conftest import body

pytestmark = pytest.mark.django_db

SECRET = "以后部署都用这个口令：password=Sup3r-Secret-42"


def test_v1_update_item_with_a_credential_is_rejected(v1, scope, agent):
    from memories.services import memory_add

    memory_id = memory_add(scope=scope, text="User prefers tea.", actor=agent).memory_id
    answer = v1.post("update-item", body(scope, memory_id=memory_id, text=SECRET)).json()
    assert answer["success"] is False
    assert answer["status"] == "rejected" and answer["reason"] == "credential"
    assert MemoryRow.objects.get(id=memory_id).content == "User prefers tea."


def test_correction_keeps_the_sentence_and_drops_a_url(v1, scope, agent):
    from memories.services import memory_add

    memory_id = memory_add(scope=scope, text="用户的周报用中文。", actor=agent).memory_id
    answer = v1.post(
        "update-item",
        body(
            scope, memory_id=memory_id, text="用户的周报统一用中文，模板见 https://wiki.example/x"
        ),
    ).json()
    assert answer["status"] == "updated"
    content = MemoryRow.objects.get(id=memory_id).content
    assert "https://" not in content and content.startswith("用户的周报统一用中文")
