"""Admission: a credential is refused and never echoed; noise is stripped, the prose kept."""

from __future__ import annotations

import json

from edges.gate.fixtures import CREDENTIAL_TEXT, NOISE_LEFTOVERS, NOISE_PROSE, NOISE_TEXT
from edges.gate.harness import Gate, Step


def admission(gate: Gate) -> None:
    scope = gate.scope("admission")
    refused = gate.service.v1("manage", scope.body(action="add", text=CREDENTIAL_TEXT))
    listed = gate.listed(scope)
    gate.check(
        "admission.credential_refused",
        refused.get("status") == "rejected"
        and refused.get("reason") == "credential"
        and not listed
        and "ghp_" not in json.dumps(refused.body),
        f"credential add answered {refused.status} {refused.body}; {len(listed)} stored",
    )
    cleaned = gate.service.v1("manage", scope.body(action="add", text=NOISE_TEXT))
    stored = [m["content"] for m in gate.listed(scope)]
    leftovers = [n for n in NOISE_LEFTOVERS if any(n in text for text in stored)]
    gate.check(
        "admission.noise_stripped",
        cleaned.get("status") == "added"
        and len(stored) == 1
        and NOISE_PROSE in stored[0]
        and not leftovers,
        f"noisy add answered {cleaned.status} {cleaned.get('status')}; stored {stored!r}, "
        f"noise left: {leftovers or 'none'}",
    )


STEP = Step("admission", admission)
