"""Pipeline metrics (README and docs/deploy.md name them)."""

from __future__ import annotations

from prometheus_client import Counter

ingest_failed = Counter("memory_ingest_failed", "Ingest jobs that failed for good")
ingest_retry_scheduled = Counter("memory_ingest_retry_scheduled", "Ingest retries scheduled")
ingest_outcomes = Counter("memory_ingest_outcomes", "Finished ingest jobs by outcome", ["outcome"])
post_extraction_rejected = Counter(
    "memory_post_extraction_rejected", "Extracted facts deleted by validation", ["reason"]
)
no_effect = Counter("memory_no_effect", "Writes that changed nothing", ["path"])
policy_refused = Counter(
    "memory_policy_refused", "Writes refused by switches, run kind or run ledger", ["reason"]
)
