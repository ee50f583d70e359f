"""What the export and import tests share: a scope's facts and the document they export."""

from __future__ import annotations

import pytest

from memories import selectors
from memories.export_document import EXPORT_FORMAT
from memories.services import memory_add
from memories.types import (
    Category,
    ListQuery,
    MemoryScope,
    WriteStatus,
)
from tests.memories.conftest import body
from tests.memories.engine.test_outage import (  # noqa: F401 - pytest finds fixtures by name
    failing_embedder_engine,
    swap_engine,
    use_failing_embedder,
)

FACTS = [
    ("用户偏好简体中文技术方案，并先给结论。", Category.PREFERENCE),
    ("用户正在做 Poco 项目的记忆服务。", Category.PROJECT),
    ("The user prefers concise English answers for code reviews.", Category.PREFERENCE),
]


def store(scope: MemoryScope, agent, facts=FACTS) -> list[str]:
    ids = []
    for text, category in facts:
        outcome = memory_add(scope=scope, text=text, actor=agent, category=category)
        assert outcome.status == WriteStatus.ADDED, outcome
        ids.append(outcome.memory_id)
    return ids


def version_1_document(memories: list[dict]) -> dict:
    """An export document of version 1 holding ``memories``."""
    return {"format": EXPORT_FORMAT, "version": 1, "memories": memories}


def texts(scope: MemoryScope) -> set[str]:
    return {
        r.content for r in selectors.memory_list(scope=scope, query=ListQuery(page_size=100)).items
    }


@pytest.fixture
def exported(v1, scope, other_scope, agent) -> dict:
    store(scope, agent)
    store(other_scope, agent, [("Bob 喜欢早上开会。", Category.PREFERENCE)])
    answer = v1.post("export", body(scope))
    assert answer.status_code == 200, answer.content
    return answer.json()


MARKS = ("imported_at", "import_id")


def comparable(document: dict) -> list[dict]:
    """The document's memories without what an import may change: ids, the import's own
    marks and its own trail row."""
    items = []
    for item in document["memories"]:
        kept = {k: v for k, v in item.items() if k not in ("id", "superseded_by", *MARKS)}
        kept["history"] = [
            {k: v for k, v in entry.items() if k != "imported"}
            for entry in item["history"]
            if entry["status"] != "imported"
        ]
        items.append(kept)
    return items
