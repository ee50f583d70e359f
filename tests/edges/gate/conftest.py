"""What the upgrade gate's tests share."""

from __future__ import annotations

# The operator token the gate's in-process tests put in the settings.
OPERATOR = "gate-operator-token-0123456789"

# What the release, SDK, entities and ingest-policy steps of verify report on a sound service:
# both a full run against a live service and the later steps alone must pass each of them.
LATER_STEP_CONDITIONS = (
    "release.same_packages",
    "release.same_database",
    "sdk.internals",
    "entities.quoted_indexed",
    "entities.old_gone_after_update",
    "entities.no_sentence_name",
    "ingest.backoff_1_2_4",
    "ingest.deterministic_not_retried",
    "ingest.language_guard",
)
