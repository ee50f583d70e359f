"""What a search ``as_of`` an instant adds to its hits: when each recalled fact held."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from memories import governance
from memories.instants import read_instant
from memories.models import MemoryRow
from memories.recall import live
from memories.types import SearchHit, Validity


def with_validity(hits: Sequence[SearchHit]) -> tuple[SearchHit, ...]:
    """``hits`` with each one's ``Validity`` read from its stored payload (one query). A hit
    deleted since the search read it keeps none."""
    payloads = dict(
        MemoryRow.objects.filter(id__in=[h.id for h in hits]).values_list("id", "payload")
    )
    found = {str(memory_id): payload or {} for memory_id, payload in payloads.items()}
    return tuple(
        dataclasses.replace(hit, validity=validity(found[hit.id])) if hit.id in found else hit
        for hit in hits
    )


def validity(payload: dict[str, Any]) -> Validity:
    """A payload's validity: from its ``created_at`` to its end (``live.validity_end``)."""
    return Validity(
        valid_from=read_instant(payload.get(live.FROM_FIELD)),
        valid_until=live.validity_end(payload),
        status=governance.payload_status(payload).value,
    )
