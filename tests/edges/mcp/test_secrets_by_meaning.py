"""The MCP manage tool refuses secrets said in words like every other door (the judge is the
services' admission: ``memories/admission/meaning.py``)."""

from __future__ import annotations

from memories.models import MemoryRow
from tests.memories.admission.meaning_cases import SECRETS

MANAGE = "manage_user_memory"
SPELLED_OUT = dict(SECRETS)["spelled-out"]
KOREAN = dict(SECRETS)["ko-natural"]


def test_manage_refuses_a_secret_said_in_words(mcp_agent):
    for text in (SPELLED_OUT, KOREAN):
        answer = mcp_agent.call(MANAGE, action="add", text=text).structured_content
        assert (answer["success"], answer["status"], answer["reason"]) == (
            False,
            "rejected",
            "credential",
        )
        assert text not in str(answer)
    assert not MemoryRow.objects.exists()
