"""Isolation over /v1: another user and another tenant neither list, recall, read, update nor
delete the owner's memory. Another user of the tenant hears "not yours" (403, ``forbidden``);
another tenant hears what an unknown id gets (404 to a read, ``not_found`` to a write), so it
never learns that the id exists (``memories.selectors.memory_owned_row``)."""

from __future__ import annotations

from edges.gate.fixtures import ISOLATION_QUERY, ISOLATION_TEXT
from edges.gate.harness import Gate, Step


def isolation(gate: Gate) -> None:
    owner = gate.scope("owner")
    added = gate.service.v1("manage", owner.body(action="add", text=ISOLATION_TEXT))
    memory_id = added.get("memory_id")
    if not gate.check(
        "isolation.setup", bool(memory_id), f"owner add answered {added.status} {added.body}"
    ):
        return
    for label, other, (read_status, write_status, outcome) in (
        ("another user", gate.scope("intruder"), (403, 403, "forbidden")),
        (
            "another tenant",
            gate.scope("owner", tenant=gate.other_tenant),
            (404, 200, "not_found"),
        ),
    ):
        listed = [m["id"] for m in gate.listed(other)]
        gate.check(
            "isolation.list",
            memory_id not in listed,
            f"{label} ({other.key}) lists {listed}",
        )
        hits = [h["id"] for h in gate.found(other, ISOLATION_QUERY).get("items") or []]
        gate.check(
            "isolation.recall", memory_id not in hits, f"{label} ({other.key}) recalls {hits}"
        )
        history = gate.service.v1("history", other.body(memory_id=memory_id))
        gate.check(
            "isolation.read",
            history.status == read_status,
            f"{label} ({other.key}) reads its history: {history.status}",
        )
        edit = gate.service.v1(
            "update-item", other.body(memory_id=memory_id, text="changed by another scope")
        )
        manage = gate.service.v1(
            "manage",
            other.body(action="update", memory_id=memory_id, text="changed by another scope"),
        )
        gate.check(
            "isolation.update",
            edit.status == write_status
            and edit.get("status") == outcome
            and manage.get("status") == outcome,
            f"{label} ({other.key}) update-item {edit.status} {edit.get('status')}, "
            f"manage update {manage.status} {manage.get('status')}",
        )
        drop = gate.service.v1("delete-item", other.body(memory_id=memory_id))
        gate.check(
            "isolation.delete",
            drop.status == write_status and drop.get("status") == outcome,
            f"{label} ({other.key}) delete-item {drop.status} {drop.get('status')}",
        )
    kept = gate.listed(owner)
    gate.check(
        "isolation.owner_unchanged",
        [(m["id"], m["content"]) for m in kept] == [(memory_id, ISOLATION_TEXT)],
        f"the owner's memory now: {[(m['id'], m['content']) for m in kept]}",
    )


STEP = Step("isolation", isolation)
