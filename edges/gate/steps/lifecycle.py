"""Lifecycle: an add writes one memory, updates keep its id, a deleted memory or user leaves
nothing (no row, no hit, no audit text, no entity)."""

from __future__ import annotations

from edges.gate.fixtures import LIFECYCLE_SECOND, LIFECYCLE_TEXT, LIFECYCLE_UPDATE
from edges.gate.harness import Gate, Step


def lifecycle(gate: Gate) -> None:
    scope = gate.scope("lifecycle")
    added = gate.service.v1(
        "manage", scope.body(action="add", text=LIFECYCLE_TEXT, category="preference")
    )
    memory_id = added.get("memory_id")
    listed = gate.listed(scope)
    gate.check(
        "lifecycle.add_writes_one",
        added.get("status") == "added" and added.get("inserted_count") == 1 and len(listed) == 1,
        f"add answered {added.status} {added.body}; list-user shows {len(listed)}",
    )
    if not memory_id:
        return
    updated = gate.service.v1(
        "manage", scope.body(action="update", memory_id=memory_id, text=LIFECYCLE_UPDATE)
    )
    listed = gate.listed(scope)
    gate.check(
        "lifecycle.update_keeps_id",
        updated.get("status") == "updated"
        and updated.get("memory_id") == memory_id
        and [m["id"] for m in listed] == [memory_id]
        and listed[0]["content"] == LIFECYCLE_UPDATE,
        f"update answered {updated.status} {updated.body}; list-user shows "
        f"{[(m['id'], m['content']) for m in listed]}",
    )
    edited = gate.service.v1("update-item", scope.body(memory_id=memory_id, text=LIFECYCLE_TEXT))
    gate.check(
        "lifecycle.update_keeps_id",
        edited.status == 200 and edited.get("memory_id") == memory_id,
        f"update-item answered {edited.status} {edited.body}",
    )
    deleted = gate.service.v1("delete-item", scope.body(memory_id=memory_id))
    left = gate.listed(scope)
    hits = gate.found(scope, LIFECYCLE_TEXT).get("items")
    text_left = gate.history_text(scope, memory_id)
    gate.check(
        "lifecycle.delete_item_leaves_nothing",
        deleted.get("status") == "deleted" and not left and not hits and text_left == 0,
        f"delete-item answered {deleted.status} {deleted.body}; {len(left)} listed, "
        f"{len(hits or [])} recalled, {text_left} audit rows with text",
    )
    ids = []
    for text in (LIFECYCLE_TEXT, LIFECYCLE_SECOND):
        answer = gate.service.v1("manage", scope.body(action="add", text=text))
        ids.append(answer.get("memory_id"))
    gone = gate.service.v1("delete-user", scope.body())
    left = gate.listed(scope)
    text_left = sum(gate.history_text(scope, i) for i in ids if i)
    entities = gate.entities(scope)
    gate.check(
        "lifecycle.delete_user_leaves_nothing",
        gone.get("status") == "deleted"
        and gone.get("deleted_count") == 2
        and not left
        and entities == 0
        and text_left == 0,
        f"delete-user answered {gone.status} {gone.body}; {len(left)} listed, "
        f"{entities} entities, {text_left} audit rows with text",
    )


STEP = Step("lifecycle", lifecycle)
