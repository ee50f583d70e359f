"""Reads. Every function takes the caller's ``MemoryScope`` and filters by it.

``rows`` holds the scope's rows and the record a row becomes, ``records`` memories by id and by
page (with their history and neighbours), ``duplicates`` what a write compares a new fact with,
``search`` recall, ``overview`` the scope's counts, topics, switches, pins and use counts.
Callers import from this package, not from its modules.
"""

from __future__ import annotations

from memories.selectors.activity import memories_last_changed
from memories.selectors.deletions import (
    deleted_fact_digests_since,
    fact_digest,
    scope_deleted_since,
)
from memories.selectors.duplicates import (
    DEDUP_CANDIDATES,
    first_duplicate,
    memories_active_by_keys,
    memories_live_by_text,
    memory_active_by_key,
    memory_find_by_text,
    memory_near_duplicate,
    memory_nearest_many,
)
from memories.selectors.learned import (
    LEARNED_DAYS,
    RecentlyLearned,
    memories_recently_learned,
    memory_past_text,
    unreviewed_count,
)
from memories.selectors.overview import (
    NEVER_USED,
    OVERVIEW_TREND_DAYS,
    RECENT_DAYS,
    DailyActivity,
    MemoryUseStats,
    Overview,
    Switches,
    Topic,
    memories_pinned,
    memory_overview,
    memory_switches,
    memory_use,
    memory_uses,
    pinned_count,
    topic_count,
    topic_heatmap,
    topic_memory_ids,
)
from memories.selectors.records import (
    MAX_TENANT_USERS,
    HistoryEntry,
    MemoryPage,
    RelatedMemory,
    TenantUser,
    memories_due_to_expire,
    memory_former_owner,
    memory_get,
    memory_history,
    memory_list,
    memory_owner,
    memory_related,
    scope_stored_count,
    tenant_users,
)
from memories.selectors.rows import (
    live_rows,
    memory_owned_row,
    rows_with_status,
    scope_rows,
    to_record,
)
from memories.selectors.search import (
    memory_attribution,
    memory_search,
    recall_channels,
)

__all__ = [
    "deleted_fact_digests_since",
    "fact_digest",
    "scope_deleted_since",
    "memories_last_changed",
    "LEARNED_DAYS",
    "RecentlyLearned",
    "memories_recently_learned",
    "memory_past_text",
    "unreviewed_count",
    "DEDUP_CANDIDATES",
    "DailyActivity",
    "HistoryEntry",
    "MAX_TENANT_USERS",
    "MemoryPage",
    "MemoryUseStats",
    "NEVER_USED",
    "OVERVIEW_TREND_DAYS",
    "Overview",
    "RECENT_DAYS",
    "RelatedMemory",
    "Switches",
    "TenantUser",
    "Topic",
    "first_duplicate",
    "live_rows",
    "memories_active_by_keys",
    "memories_due_to_expire",
    "memories_live_by_text",
    "memories_pinned",
    "memory_active_by_key",
    "memory_attribution",
    "memory_find_by_text",
    "memory_former_owner",
    "memory_get",
    "memory_history",
    "memory_list",
    "memory_near_duplicate",
    "memory_nearest_many",
    "memory_overview",
    "memory_owned_row",
    "memory_owner",
    "memory_related",
    "memory_search",
    "memory_switches",
    "memory_use",
    "memory_uses",
    "pinned_count",
    "recall_channels",
    "rows_with_status",
    "scope_rows",
    "scope_stored_count",
    "tenant_users",
    "to_record",
    "topic_count",
    "topic_heatmap",
    "topic_memory_ids",
]
