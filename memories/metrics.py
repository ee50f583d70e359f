"""Prometheus metrics (README and docs/deploy.md name them). Lives low so every layer can count."""

from __future__ import annotations

from prometheus_client import Counter, Histogram

search_failed = Counter("memory_search_failed", "Searches that could not reach the backend")
search_latency = Histogram(
    "memory_search_latency_seconds",
    "Search latency",
    buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5),
)
search_hits = Histogram(
    "memory_search_hits", "Items returned per search", buckets=(0, 1, 2, 3, 5, 8, 13, 21)
)
delete_item_partial_cleanup = Counter(
    "memory_delete_item_partial_cleanup", "Single deletes that left residue"
)
delete_user_partial_cleanup = Counter(
    "memory_delete_user_partial_cleanup", "Delete-all runs that left residue or stopped midway"
)
writes = Counter("memory_writes", "Memory writes by action and outcome", ["action", "outcome"])
mcp_tool_calls = Counter(
    "memory_mcp_tool_calls", "MCP tool calls by tool and outcome", ["tool", "outcome"]
)
admission_rejected = Counter(
    "memory_admission_rejected", "Candidates refused by the admission layer", ["reason"]
)
# The token's name (POCO_SERVICE_TOKENS), never the token; edge is v1, mcp or metrics.
service_calls = Counter(
    "memory_service_calls", "Calls authenticated by a service token", ["token", "edge"]
)
# A token bound to tenants refused another tenant (or /metrics); recorded in TokenRefusal.
service_refused = Counter(
    "memory_service_refused",
    "Service tokens refused a tenant they are not bound to",
    ["token", "edge"],
)
# Refusals of the rate limits (kind: write/search; by: token/scope) and of the per-user cap.
rate_limited = Counter("memory_rate_limited", "Requests refused by a rate limit", ["kind", "by"])
quota_exceeded = Counter("memory_quota_exceeded", "Memories refused by the per-user cap", ["path"])
