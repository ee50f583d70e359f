"""Old data: a memory stored without the current payload fields still lists, recalls, and gets
them back when it is updated in place."""

from __future__ import annotations

from edges.gate import release
from edges.gate.fixtures import OLD_QUERY, OLD_TEXT, OLD_UPDATE
from edges.gate.harness import Gate, Step
from edges.gate.service import RELEASE


def old_data(gate: Gate) -> None:
    scope = gate.scope("old-data")
    added = gate.service.v1("manage", scope.body(action="add", text=OLD_TEXT))
    memory_id = str(added.get("memory_id") or "")
    if not gate.check(
        "old_data.setup", bool(memory_id), f"add answered {added.status} {added.body}"
    ):
        return
    release.strip_payload(memory_id)
    stripped = [f for f in release.LEGACY_FIELDS if f in release.payload_of(memory_id)]
    gate.check(
        "old_data.setup",
        not stripped,
        f"fields {stripped} could not be removed" if stripped else "v2 fields removed",
        where=RELEASE,
    )
    listed = [(m["id"], m["content"]) for m in gate.listed(scope)]
    gate.check("old_data.lists", listed == [(memory_id, OLD_TEXT)], f"list-user shows {listed}")
    found = gate.found(scope, OLD_QUERY)
    hits = [h["id"] for h in found.get("items") or []]
    gate.check(
        "old_data.recalls",
        found.get("available") is True and memory_id in hits,
        f"search answered available={found.get('available')}, hits {hits}",
    )
    updated = gate.service.v1(
        "manage", scope.body(action="update", memory_id=memory_id, text=OLD_UPDATE)
    )
    listed = [(m["id"], m["content"]) for m in gate.listed(scope)]
    gate.check(
        "old_data.updates_in_place",
        updated.get("status") == "updated"
        and updated.get("memory_id") == memory_id
        and listed == [(memory_id, OLD_UPDATE)],
        f"update answered {updated.status} {updated.get('status')}; list-user shows {listed}",
    )
    payload = release.payload_of(memory_id)
    missing = [f for f in release.LEGACY_FIELDS if f not in payload]
    from memories.types import SCHEMA_VERSION

    gate.check(
        "old_data.fields_restored",
        not missing and payload.get("schema_version") == SCHEMA_VERSION,
        f"after the update: missing {missing}, schema_version {payload.get('schema_version')}",
        where=RELEASE,
    )


STEP = Step("old-data", old_data, local=True)
