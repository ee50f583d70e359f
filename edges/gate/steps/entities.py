"""Entity quality: a quoted name is indexed, an update drops the old one, a quoted sentence is
no name."""

from __future__ import annotations

from edges.gate.fixtures import (
    ENTITY_NEW,
    ENTITY_OLD,
    ENTITY_TEXT,
    ENTITY_UPDATE,
    SENTENCE,
    SENTENCE_TEXT,
)
from edges.gate.harness import Gate, Step
from edges.gate.service import GateStop, Scope


def topic_names(gate: Gate, scope: Scope) -> list[str]:
    answer = gate.service.v1("topics", scope.body(limit=200))
    if answer.status != 200:
        raise GateStop(f"topics of {scope.key} answered {answer.status}")
    return [str(item.get("text")) for item in answer.get("items") or []]


def entity_quality(gate: Gate) -> None:
    scope = gate.scope("entities")
    added = gate.service.v1("manage", scope.body(action="add", text=ENTITY_TEXT))
    memory_id = added.get("memory_id")
    topics = topic_names(gate, scope)
    gate.check(
        "entities.quoted_indexed",
        added.get("status") == "added" and ENTITY_OLD in topics,
        f"add answered {added.status} {added.get('status')}; topics {topics}",
    )
    if memory_id:
        updated = gate.service.v1(
            "manage", scope.body(action="update", memory_id=memory_id, text=ENTITY_UPDATE)
        )
        topics = topic_names(gate, scope)
        gate.check(
            "entities.old_gone_after_update",
            updated.get("status") == "updated"
            and ENTITY_NEW in topics
            and ENTITY_OLD not in topics,
            f"update answered {updated.status} {updated.get('status')}; topics {topics}",
        )
    sentence = gate.service.v1("manage", scope.body(action="add", text=SENTENCE_TEXT))
    topics = topic_names(gate, scope)
    gate.check(
        "entities.no_sentence_name",
        sentence.get("status") == "added" and not any(SENTENCE in t for t in topics),
        f"add of a quoted sentence answered {sentence.status} {sentence.get('status')}; "
        f"topics {topics}",
    )


STEP = Step("entities", entity_quality)
