"""The twelve steps of ``verify``, one module each, each a ``Step`` (``edges.gate.harness``)
that takes the running ``Gate``; ``ORDER`` is the order they run in."""

from __future__ import annotations

from edges.gate.harness import Step
from edges.gate.steps import (
    admission,
    entities,
    ingest,
    ingest_policy,
    isolation,
    lifecycle,
    mcp,
    old_data,
    outage,
    recall,
    recall_sample,
    user_api,
)

ORDER: tuple[Step, ...] = (
    lifecycle.STEP,
    entities.STEP,
    admission.STEP,
    ingest.STEP,
    ingest_policy.STEP,
    isolation.STEP,
    mcp.STEP,
    old_data.STEP,
    user_api.STEP,
    outage.STEP,
    recall.STEP,
    recall_sample.STEP,
)
