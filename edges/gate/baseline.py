"""``memory_gate baseline``: what the deployment holds and how it recalls, before an upgrade.

Read-only against the live data: the only writes go to one throwaway scope, which is deleted
afterwards and checked empty (memories, entities, audit text). The file holds no memory text of
any user: counts, versions, the shipped recall set and its ranks and scores.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db.models import Count, Q
from django.db.models.fields.json import KT
from django.utils import timezone

from edges.gate.recall_set import SAMPLE_QUERIES, TOP_K, RecallSet, shipped_recall_set
from edges.gate.versions import deployment_versions, service_summary
from memories.models import AuditEvent, EntityRow, MemoryRow
from memories.ops.portability import memory_import
from memories.ops.preflight import vector_widths
from memories.ops.progress import Progress
from memories.scope import scope_from_key, scope_of
from memories.selectors import memory_search, rows_with_status, scope_rows
from memories.services import memory_delete_user
from memories.types import Actor, ActorKind, MemoryScope, StatusFilter

FORMAT = "poco-memory-gate-baseline"
# 2: versions name the database's apart from the packages ("vector extension" beside the
# "pgvector" package); a version 1 file kept the extension's version as "pgvector".
VERSION = 2
GATE_TENANT = "poco-gate"
ACTOR = Actor(kind=ActorKind.SYSTEM, id="memory_gate")


class BaselineError(RuntimeError):
    """The baseline could not be recorded (or its throwaway scope not cleaned up)."""


def embedders_in_use() -> list[dict[str, Any]]:
    """Every embedding model whose vectors the memory tables hold, with its width, the declared
    width of its column and how many memories it has embedded: the primary embedder (Mem0's
    ``vector`` of both tables) and, unless it is off, recall's second model. The baseline
    records whatever this lists; another model is one more entry here."""
    from memories.ops.preflight import second_coverage, second_vector_width

    embedders: list[dict[str, Any]] = [
        {
            "role": "primary",
            "model": settings.EMBEDDING_MODEL,
            "dims": int(settings.EMBEDDING_DIMS),
            "table_dims": vector_widths(),
            "embedded": MemoryRow.objects.count(),
        }
    ]
    if settings.SECOND_MODEL != "off":
        filled, _ = second_coverage()
        embedders.append(
            {
                "role": "second",
                "model": settings.SECOND_MODEL,
                "dims": int(settings.SECOND_MODEL_DIMS),
                "table_dims": {"poco_memories": second_vector_width()},
                "embedded": filled,
            }
        )
    return embedders


def data_shape() -> dict[str, Any]:
    """Rows per status (as readers see them: past ``valid_until`` is expired), entity rows, and
    which embedder made the stored vectors."""
    now = timezone.now()
    memories = MemoryRow.objects.all()
    per_status = {
        status.value: rows_with_status(memories, status.value, now=now).count()
        for status in (StatusFilter.ACTIVE, StatusFilter.SUPERSEDED, StatusFilter.EXPIRED)
    }
    models = (
        memories.annotate(model=KT("payload__embedding_model"))
        .values("model")
        .annotate(n=Count("id"))
        .order_by("model")
    )
    return {
        "memories": {"total": memories.count(), **per_status},
        "entities": {"total": EntityRow.objects.count()},
        "embedding": {
            "configured_model": settings.EMBEDDING_MODEL,
            "configured_dims": int(settings.EMBEDDING_DIMS),
            "table_dims": vector_widths(),
            "rows_per_model": {str(row["model"] or "unrecorded"): row["n"] for row in models},
            "embedders": embedders_in_use(),
        },
    }


def scope_residue(scope: MemoryScope) -> dict[str, int]:
    """What a deleted scope still holds: memories, entities, audit rows that keep text."""
    return {
        "memories": scope_rows(scope).count(),
        "entities": EntityRow.objects.filter(payload__user_id=scope.key).count(),
        "audit_text": AuditEvent.objects.filter(tenant_id=scope.tenant_id, user_id=scope.user_id)
        .filter(~Q(old_text="") | ~Q(new_text=""))
        .count(),
    }


def record_recall(
    recall_set: RecallSet, *, write: Callable[[str], None] = lambda _: None
) -> dict[str, Any]:
    scope = scope_of(tenant_id=GATE_TENANT, user_id=f"baseline-{uuid.uuid4().hex[:12]}")
    try:
        return _recall_in(scope, recall_set, write=write)
    finally:
        outcome = memory_delete_user(scope=scope, actor=ACTOR)
        residue = scope_residue(scope)
        write(f"throwaway scope {scope.key}: {outcome.status}, residue {residue}")
        if any(residue.values()):
            raise BaselineError(f"throwaway scope {scope.key} not empty after delete: {residue}")


def _recall_in(
    scope: MemoryScope, recall_set: RecallSet, *, write: Callable[[str], None]
) -> dict[str, Any]:
    report = memory_import(
        scope=scope, items=[{"content": text} for text in recall_set.memories], actor=ACTOR
    )
    ids: list[str] = []
    for item in report.items:
        if item.status not in ("added", "no_effect") or not item.memory_id:
            raise BaselineError(f"recall memory {item.index} was not stored: {item.status}")
        ids.append(item.memory_id)
    write(f"recall set: {len(ids)} memories written to {scope.key}")
    progress = Progress(
        total=len(recall_set.positives) + len(recall_set.negatives),
        label="recall baseline searches",
        write=write,
    )
    positives = []
    for number, (query, memory) in enumerate(recall_set.positives, 1):
        result = memory_search(scope=scope, query=query, top_k=TOP_K)
        if not result.available:
            raise BaselineError(f"search unavailable: {result.error_reason}")
        hit_ids = [hit.id for hit in result.items]
        rank = hit_ids.index(ids[memory]) + 1 if ids[memory] in hit_ids else None
        positives.append(
            {
                "query": query,
                "memory": memory,
                "rank": rank,
                "score": result.items[rank - 1].score if rank else None,
                "scores": [hit.score for hit in result.items],
            }
        )
        if number % 8 == 0:
            progress.advance(8)
    negatives = []
    for query in recall_set.negatives:
        result = memory_search(scope=scope, query=query, top_k=TOP_K)
        if not result.available:
            raise BaselineError(f"search unavailable: {result.error_reason}")
        negatives.append(
            {
                "query": query,
                "hits": len(result.items),
                "scores": [hit.score for hit in result.items],
            }
        )
    progress.advance(len(recall_set.positives) % 8 + len(negatives))
    return {
        "top_k": TOP_K,
        "set": recall_set.as_json(),
        "positives": positives,
        "negatives": negatives,
    }


def sampled_scopes(count: int) -> list[str]:
    """The ``count`` real scopes with the most active memories (the gate's own excluded)."""
    rows = (
        rows_with_status(MemoryRow.objects.all(), StatusFilter.ACTIVE.value, now=timezone.now())
        .annotate(key=KT("payload__user_id"))
        .exclude(key__startswith=GATE_TENANT)
        .values("key")
        .annotate(n=Count("id"))
        .order_by("-n", "key")
    )
    return [str(row["key"]) for row in rows[:count] if row["key"]]


def record_sample(count: int, *, write: Callable[[str], None]) -> dict[str, Any]:
    """Top-k ids and scores of real scopes for the fixed questions: read-only, no text."""
    entries = []
    keys = sampled_scopes(count)
    for key in keys:
        scope = scope_from_key(key)
        for query in SAMPLE_QUERIES:
            result = memory_search(scope=scope, query=query, top_k=TOP_K)
            if not result.available:
                raise BaselineError(f"search unavailable: {result.error_reason}")
            entries.append(
                {
                    "scope": key,
                    "query": query,
                    "ids": [hit.id for hit in result.items],
                    "scores": [hit.score for hit in result.items],
                }
            )
    write(f"recall sample: {len(keys)} real scopes, {len(entries)} searches")
    return {"top_k": TOP_K, "queries": list(SAMPLE_QUERIES), "entries": entries}


def read_baseline(path: Path) -> dict[str, Any]:
    """A file ``record_baseline`` wrote, read back for ``verify``. Raises ``BaselineError``
    saying what is wrong with it (never its content)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise BaselineError("no such file") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise BaselineError(f"cannot be read ({type(exc).__name__})") from exc
    try:
        baseline = json.loads(text)
    except ValueError as exc:
        raise BaselineError(f"not JSON ({exc})") from exc
    if not isinstance(baseline, dict) or baseline.get("format") != FORMAT:
        raise BaselineError(
            f"not a baseline (a JSON object of format {FORMAT!r}, as "
            "`memory_gate baseline --out FILE` writes)"
        )
    return baseline


def record_baseline(
    *, sample_scopes: int = 0, write: Callable[[str], None] = lambda _: None
) -> dict[str, Any]:
    summary = service_summary()
    return {
        "format": FORMAT,
        "version": VERSION,
        "recorded_at": timezone.now().isoformat(),
        "versions": deployment_versions(summary),
        "configuration": summary["configuration"],
        "data": data_shape(),
        "recall": record_recall(shipped_recall_set(), write=write),
        "recall_sample": record_sample(sample_scopes, write=write),
    }
