"""What an import would do, item by item, before it is done (the console's and the user
API's preview)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from django.db import DatabaseError
from django.utils import timezone

from memories.admission.preview import removed_parts
from memories.engine import get_engine
from memories.ops.portability.items import ImportItemResult, import_item
from memories.selectors import (
    first_duplicate,
    memories_active_by_keys,
    memories_live_by_text,
    memory_nearest_many,
)
from memories.services import NewMemory, add_refusal
from memories.text import normalize_quotes
from memories.types import BackendError, Category, MemoryScope, Source


class PreviewDecision(StrEnum):
    ADD = "add"  # would be stored (possibly replacing the current memory of its key)
    REFUSE = "refuse"  # admission or a rule of an add refuses it
    SKIP = "skip"  # a duplicate of a stored memory or of an earlier item; or history


@dataclass(frozen=True)
class PreviewItem:
    index: int
    content: str  # as it would be stored when added; as sent otherwise
    category: str
    decision: PreviewDecision
    reason: str | None = None  # duplicate | not_active | expired | an admission reason | …
    # The stored memory it repeats (skip) or would replace (add with a key).
    memory_id: str | None = None
    # What admission's cleaning cuts out of the text (links, paths, logs) when it is added.
    removed: tuple[str, ...] = ()


@dataclass(frozen=True)
class ImportPreview:
    items: tuple[PreviewItem, ...]

    def of(self, decision: PreviewDecision) -> tuple[PreviewItem, ...]:
        return tuple(item for item in self.items if item.decision == decision)

    @property
    def added(self) -> tuple[PreviewItem, ...]:
        return self.of(PreviewDecision.ADD)

    @property
    def refused(self) -> tuple[PreviewItem, ...]:
        return self.of(PreviewDecision.REFUSE)

    @property
    def skipped(self) -> tuple[PreviewItem, ...]:
        return self.of(PreviewDecision.SKIP)


def import_preview(*, scope: MemoryScope, items: list[dict[str, Any]]) -> ImportPreview:
    """What ``memory_import`` of ``items`` into ``scope`` would do, item by item, without
    writing anything: history and expired items are skipped, admission and the add rules refuse
    what they refuse, and an item repeating a current memory of the scope (the same text, or a
    near-duplicate as an add judges it) or an earlier item of the document is skipped.

    A preview, not a promise: the import decides again under the scope's lock (someone may
    write in between). Raises ``BackendError`` when the embedder or the database fails."""
    now = timezone.now()
    decided: dict[int, PreviewItem] = {}
    admitted: list[tuple[int, str, NewMemory]] = []
    for index, item in enumerate(items):
        category = str(item.get("category") or Category.FACT)
        prepared = import_item(index=index, item=item, now=now)
        if isinstance(prepared, ImportItemResult):
            decided[index] = PreviewItem(
                index, item["content"], category, PreviewDecision.SKIP, prepared.reason
            )
            continue
        new = prepared[0]
        refusal = add_refusal(
            text=new.text,
            source=Source.IMPORT,
            confidence=new.confidence,
            memory_key=new.memory_key,
            valid_until=new.valid_until,
        )
        if isinstance(refusal, str):
            decided[index] = PreviewItem(
                index, item["content"], category, PreviewDecision.REFUSE, refusal
            )
            continue
        admitted.append((index, refusal[0], new))
    try:
        texts = [text for _, text, _ in admitted]
        same_text = memories_live_by_text(scope=scope, texts=texts)
        engine = get_engine()
        vectors = [engine.embed_query(text) for text in texts]
        nearest = memory_nearest_many(scope=scope, vectors=vectors)
        holders = memories_active_by_keys(
            scope=scope, memory_keys=[new.memory_key for _, _, new in admitted if new.memory_key]
        )
    except DatabaseError as exc:
        raise BackendError(f"database unavailable: {type(exc).__name__}") from exc
    earlier: dict[str, int] = {}
    for (index, text, new), near in zip(admitted, nearest, strict=True):
        stored = same_text.get(normalize_quotes(text)) or []
        repeats = stored[0] if stored else first_duplicate(text=text, candidates=near)
        folded = normalize_quotes(text)
        if repeats is None and folded in earlier:
            repeats = f"#{earlier[folded] + 1}"  # the item of the document it repeats
        if repeats is not None:
            decided[index] = PreviewItem(
                index,
                text,
                new.category,
                PreviewDecision.SKIP,
                "duplicate",
                repeats if not repeats.startswith("#") else None,
            )
            continue
        earlier[folded] = index
        holder = holders.get(new.memory_key) if new.memory_key else None
        decided[index] = PreviewItem(
            index,
            text,
            new.category,
            PreviewDecision.ADD,
            "replaces" if holder is not None else None,
            str(holder.id) if holder is not None else None,
            removed_parts(new.text.strip(), text),
        )
    return ImportPreview(items=tuple(decided[i] for i in range(len(items))))
