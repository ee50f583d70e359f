"""An outage: a search whose vector store does not answer says so, never zero hits."""

from __future__ import annotations

from edges.gate import release
from edges.gate.fixtures import OUTAGE_QUERY
from edges.gate.harness import Gate, Step
from edges.gate.service import RELEASE


def outage(gate: Gate) -> None:
    scope = gate.scope("outage").as_memory_scope()
    ok, detail = release.search_while_unreachable(scope, OUTAGE_QUERY)
    gate.check("recall.outage_unavailable", ok, detail, where=RELEASE)


STEP = Step("outage", outage, local=True)
