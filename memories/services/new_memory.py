"""What a new memory is: one fact's arguments (``NewMemory``) and the payload fields we keep
beside Mem0's own (``our_metadata``, and ``new_metadata`` for a fact of a write)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from memories import governance
from memories.engine import get_engine
from memories.governance import UNSET, Unset
from memories.services.write import WriteContext
from memories.types import SCHEMA_VERSION, Category, MemoryStatus, Source


def our_metadata(
    *,
    category: str,
    source: str,
    confidence: float | None = None,
    memory_key: str = "",
    valid_until: datetime | None | Unset = UNSET,
    source_ref: str = "",
) -> dict[str, Any]:
    """Every field we keep beside Mem0's own on a new memory (README "Governance")."""
    until = governance.default_valid_until() if valid_until is UNSET else valid_until
    return {
        "category": Category(category).value,
        "source": Source(source).value,
        # The run (or page) that wrote it: an agent's run_id, "console", "admin"…
        "source_ref": source_ref,
        "confidence": round(
            float(governance.default_confidence(source) if confidence is None else confidence), 3
        ),
        "memory_key": memory_key or None,
        "status": MemoryStatus.ACTIVE.value,
        "superseded_by": None,
        "valid_until": governance.iso(until),
        "embedding_model": get_engine().embedding_model,
        "schema_version": SCHEMA_VERSION,
    }


@dataclass(frozen=True)
class NewMemory:
    """One fact for ``memory_add_many``: ``memory_add``'s per-fact arguments."""

    text: str
    category: str = Category.FACT
    confidence: float | None = None
    memory_key: str = ""
    valid_until: datetime | None | Unset = UNSET
    source_ref: str = ""
    created_at: datetime | None = None
    # Payload fields an import brings back as they were exported (the pin, the original
    # source, the last change, the import's own marks), laid over the new memory's.
    restored: dict[str, Any] = field(default_factory=dict)


# An admitted item: its input index, the admitted text and the confidence it is stored with.
Admitted = tuple[int, str, float]


def new_metadata(ctx: WriteContext, *, item: NewMemory, confidence: float) -> dict[str, Any]:
    """The payload fields a new fact is stored with; the run is its source reference unless the
    item names its own."""
    metadata = our_metadata(
        category=item.category,
        source=ctx.source,
        confidence=confidence,
        memory_key=item.memory_key,
        valid_until=item.valid_until,
        source_ref=item.source_ref or ctx.run_id,
    )
    if item.created_at is not None:
        metadata["created_at"] = item.created_at.isoformat()
    metadata.update(item.restored)
    return metadata
