"""What the templates show: selector results with their codes turned into human labels."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any
from urllib.parse import quote

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from memories.instants import read_instant, service_day
from memories.labels import category_label, history_label, source_label, status_label
from memories.selectors import HistoryEntry, MemoryUseStats, RelatedMemory
from memories.types import MemoryRecord, MemoryStatus, SearchHit, Source

# Metadata shown on the detail page, in this order; the rest stays in the admin.
# Confidence, attribution and the embedding model are internals: staff see them in the admin.
DETAIL_METADATA: dict[str, Promise] = {}


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
    # A search's related memory: near in meaning, after the evidence (memories.recall.fusion).
    related: bool = False
    status: str = MemoryStatus.ACTIVE
    status_label: str = ""
    pinned: bool = False
    use: MemoryUseStats | None = None

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
        status=record.status,
        status_label=status_label(record.status),
        pinned=bool(record.metadata.get("pinned")),
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
        related=hit.related,
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
class FieldChange:
    label: str
    old: str
    new: str


@dataclass(frozen=True)
class HistoryItem:
    event: str
    label: str
    old_text: str
    new_text: str
    text_changed: bool
    changes: tuple[FieldChange, ...]
    run_id: str
    created_at: datetime
    status: str = ""
    id: int = 0
    # The past text this entry holds that differs from the current one: "恢复这一版" offers it.
    restorable_text: str = ""


CHANGE_LABELS: dict[str, Promise] = {
    "category": _("类别"),
    "valid_until": _("有效期"),
    "memory_key": _("记忆键"),
}


def _field_changes(changes: dict[str, list[Any]]) -> tuple[FieldChange, ...]:
    shown = []
    for key, label in CHANGE_LABELS.items():
        if key not in changes:
            continue
        old, new = (changes[key] + [None, None])[:2]
        if key == "category":
            old, new = category_label(old or ""), category_label(new or "")
        elif key == "valid_until":
            old, new = _expiry_words(old), _expiry_words(new)
        shown.append(FieldChange(label=str(label), old=str(old or "—"), new=str(new or "—")))
    return tuple(shown)


def _expiry_words(value: Any) -> str:
    """An expiry as the trail shows it: its day in the service's time zone, or "长期有效"."""
    instant = read_instant(value)
    if instant is None:
        return str(_("长期有效"))
    return service_day(instant).isoformat()


# Governance decisions are audited as UPDATE with their kind as status; they are not the
# person's correction, so they get their own words.
GOVERNANCE_EVENT_LABELS: dict[str, Promise] = {
    "superseded": _("被新记忆替代"),
    "expired": _("到期"),
    "valid_until": _("有效期修改"),
    "pinned": _("设为始终使用"),
    "unpinned": _("取消始终使用"),
    "reviewed": _("已确认"),
    "restored": _("恢复旧版本"),
}


def _history_label(entry: HistoryEntry) -> str:
    if entry.event == "UPDATE" and entry.status in GOVERNANCE_EVENT_LABELS:
        return str(GOVERNANCE_EVENT_LABELS[entry.status])
    return history_label(entry.event, entry.source)


def _version_text(entry: HistoryEntry, current_text: str) -> str:
    """The text an entry holds as a version (what an ADD wrote, what a correction replaced)
    when it is not the current text; the same rule as ``selectors.memory_past_text``."""
    if entry.event == "ADD":
        text = entry.new_text
    elif entry.event == "UPDATE" and entry.old_text != entry.new_text:
        text = entry.old_text
    else:
        return ""
    return text if text and text != current_text else ""


def history_items(
    entries: tuple[HistoryEntry, ...], *, current_text: str = ""
) -> list[HistoryItem]:
    """Newest first: the latest correction is what the user came to check. A save that changed
    nothing (NOOP) is no event for the person; the admin keeps it. Each past text is offered
    for restoring once, on the newest entry that holds it."""
    items = [
        HistoryItem(
            event=e.event,
            label=_history_label(e),
            old_text=e.old_text,
            new_text=e.new_text,
            text_changed=e.event == "UPDATE" and e.old_text != e.new_text,
            changes=_field_changes(e.changes),
            run_id=e.run_id,
            created_at=e.created_at,
            status=e.status,
            id=e.id,
            restorable_text=_version_text(e, current_text) if current_text else "",
        )
        for e in reversed(entries)
        if e.event != "NOOP"
    ]
    offered: set[str] = set()
    for index, item in enumerate(items):
        if item.restorable_text in offered:
            items[index] = replace(item, restorable_text="")
        offered.add(item.restorable_text)
    return items


@dataclass(frozen=True)
class Origin:
    """Where a memory came from, in words: the write path, the agent run (task) that wrote it
    and when (actor ids stay in the admin)."""

    source_label: str
    run_id: str
    created_at: datetime | None
    # The agent's platform page of the run, when POCO_RUN_URL_TEMPLATE names one.
    run_url: str = ""
    # How many memories that run wrote (this one included), every status.
    run_memory_count: int = 0


# The write paths whose source_ref is an agent run; the console and admin name a page there.
RUN_SOURCES = (Source.INGEST, Source.MANAGE, Source.IMPORT)


def origin_item(
    record: MemoryRecord,
    entries: tuple[HistoryEntry, ...],
    *,
    run_url_template: str = "",
    run_memory_count: int = 0,
) -> Origin:
    added = next((e for e in entries if e.event == "ADD"), None)
    run_id = str(record.metadata.get("source_ref") or "") if record.source in RUN_SOURCES else ""
    run_url = ""
    if run_id and run_url_template:
        run_url = run_url_template.replace("{run_id}", quote(run_id, safe=""))
    return Origin(
        source_label=source_label(record.source),
        run_id=run_id,
        created_at=added.created_at if added is not None else record.created_at,
        run_url=run_url,
        run_memory_count=run_memory_count,
    )
