"""What the templates show: selector results with their codes turned into human labels."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from memories.console.labels import actor_label, category_label, event_label, source_label
from memories.selectors import HistoryEntry, RelatedMemory
from memories.types import MemoryRecord, SearchHit

# Metadata shown on the detail page, in this order; the rest stays in the admin.
DETAIL_METADATA: dict[str, Promise] = {
    "confidence": _("置信度"),
    "attributed_to": _("事实归属"),
    "embedding_model": _("向量模型"),
}


@dataclass(frozen=True)
class MemoryItem:
    id: str
    content: str
    category: str
    category_label: str
    source: str
    source_label: str
    created_at: datetime | None
    updated_at: datetime | None
    metadata: dict[str, Any]
    score: float | None = None

    @property
    def extra_metadata(self) -> list[tuple[str, Any]]:
        return [
            (str(label), self.metadata[key])
            for key, label in DETAIL_METADATA.items()
            if self.metadata.get(key) not in (None, "")
        ]


def memory_item(record: MemoryRecord) -> MemoryItem:
    return MemoryItem(
        id=record.id,
        content=record.content,
        category=record.category,
        category_label=category_label(record.category),
        source=record.source,
        source_label=source_label(record.source),
        created_at=record.created_at,
        updated_at=record.updated_at,
        metadata=record.metadata,
    )


def search_item(hit: SearchHit) -> MemoryItem:
    return MemoryItem(
        id=hit.id,
        content=hit.content,
        category=hit.category,
        category_label=category_label(hit.category),
        source="",
        source_label="",
        created_at=None,
        updated_at=None,
        metadata={},
        score=hit.score,
    )


@dataclass(frozen=True)
class RelatedItem:
    id: str
    content: str
    category: str
    category_label: str
    percent: int


def related_item(related: RelatedMemory) -> RelatedItem:
    return RelatedItem(
        id=related.id,
        content=related.content,
        category=related.category,
        category_label=category_label(related.category),
        percent=max(0, min(100, round(related.score * 100))),
    )


@dataclass(frozen=True)
class HistoryItem:
    event: str
    event_label: str
    old_text: str
    new_text: str
    actor: str
    source_label: str
    status: str
    created_at: datetime


def history_items(entries: tuple[HistoryEntry, ...]) -> list[HistoryItem]:
    """Newest first: the latest correction is what the user came to check."""
    return [
        HistoryItem(
            event=e.event,
            event_label=event_label(e.event),
            old_text=e.old_text,
            new_text=e.new_text,
            actor=actor_label(e.actor_kind, e.actor_id),
            source_label=source_label(e.source) if e.source else "",
            status=e.status,
            created_at=e.created_at,
        )
        for e in reversed(entries)
    ]
