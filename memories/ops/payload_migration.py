"""Bring stored payloads up to the current schema, and rebuild the entity index.

``migrate_payloads`` fills what a payload lacks (``hash``, ``text_lemmatized``,
``schema_version`` and the governance defaults: ``status=active``, ``valid_until`` =
``created_at`` + ``POCO_MEMORY_LIFETIME_DAYS`` (730), ``confidence`` by source,
``embedding_model``) without touching ids or vectors, and a superseded memory's
``superseded_at`` (when its successor began to hold). A field that is present is never
overwritten, even when empty (``valid_until: null`` means "never expires"); ``schema_version``
is raised to the current one.
Rows are read in batches by id and re-read under their scope's write lock before the patch, so
a concurrent write is never undone; a re-run skips rows already complete, so an interrupted run
resumes by running it again.

``rebuild_entities`` backs the entity table up (``<table>_backup_<UTC timestamp>``), empties
it and relinks only trusted memories: live, and admitted by today's admission rules.
"""

from __future__ import annotations

import hashlib
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone

from memories.admission import admit_extracted, admit_text
from memories.engine import get_engine
from memories.engine.internals import backup_entities, clear_entities, link_entities, merge_payload
from memories.governance import default_confidence
from memories.instants import read_instant
from memories.models import AuditEvent, MemoryRow
from memories.ops.progress import Progress
from memories.recall.live import is_live, stored_status
from memories.scope import scope_from_key
from memories.services import scope_write_exclusive
from memories.types import SCHEMA_VERSION, MemoryScope, MemoryStatus, ScopeError, Source

BATCH = 200


@dataclass
class MigrationReport:
    scanned: int = 0
    changed: int = 0
    fields: Counter[str] = field(default_factory=Counter)
    skipped_scopes: int = 0


def missing_fields(payload: dict[str, Any]) -> dict[str, Any]:
    """What ``payload`` lacks of the current schema, with the value to fill in."""
    from memories.language import nlp

    text = str(payload.get("data") or "")
    fields: dict[str, Any] = {}
    if "hash" not in payload:
        fields["hash"] = hashlib.md5(text.encode()).hexdigest()  # noqa: S324 - Mem0's dedup key
    if "text_lemmatized" not in payload:
        fields["text_lemmatized"] = nlp.lemmatize_for_bm25(text)
    version = payload.get("schema_version")
    if not isinstance(version, int) or version < SCHEMA_VERSION:
        # Written before the current schema: once the fields below are filled, it is current.
        fields["schema_version"] = SCHEMA_VERSION
    if "confidence" not in payload:
        fields["confidence"] = default_confidence(str(payload.get("source") or Source.MANAGE))
    if "status" not in payload:
        fields["status"] = "active"
    if "valid_until" not in payload:
        lifetime = timedelta(days=settings.MEMORY_LIFETIME_DAYS)
        fields["valid_until"] = (
            (read_instant(payload.get("created_at")) or timezone.now()) + lifetime
        ).isoformat()
    if "embedding_model" not in payload:
        # Preflight has checked the table's width against this embedder before a migration.
        fields["embedding_model"] = settings.EMBEDDING_MODEL
    return fields


def superseded_at(row: MemoryRow) -> dict[str, Any]:
    """``superseded_at`` for a memory superseded before it was recorded: when its successor
    began to hold (the successor's ``created_at``, as a supersede writes it now), else when the
    audit trail says it was superseded; nothing when neither is known (it then holds at no
    instant of a search ``as_of``, rather than at a guessed one)."""
    payload = row.payload or {}
    if stored_status(payload) != MemoryStatus.SUPERSEDED or payload.get("superseded_at"):
        return {}
    successor = str(payload.get("superseded_by") or "")
    if successor:
        found = MemoryRow.objects.filter(id=successor).values_list("payload", flat=True).first()
        since = read_instant((found or {}).get("created_at"))
        if since is not None:
            return {"superseded_at": since.isoformat()}
    event = (
        AuditEvent.objects.filter(
            memory_id=row.id, event=AuditEvent.Event.UPDATE, status=MemoryStatus.SUPERSEDED
        )
        .order_by("-created_at", "-id")
        .values_list("created_at", flat=True)
        .first()
    )
    return {"superseded_at": event.isoformat()} if event is not None else {}


def _batches() -> Iterator[list[tuple[str, str]]]:
    """(id, scope key) of every memory, in batches by id."""
    last: str | None = None
    while True:
        rows = MemoryRow.objects.order_by("id")
        if last is not None:
            rows = rows.filter(id__gt=last)
        batch = [
            (str(i), str(k or "")) for i, k in rows.values_list("id", "payload__user_id")[:BATCH]
        ]
        if not batch:
            return
        yield batch
        last = batch[-1][0]


def _by_scope(batch: list[tuple[str, str]]) -> dict[str, list[str]]:
    grouped: dict[str, list[str]] = defaultdict(list)
    for memory_id, key in batch:
        grouped[key].append(memory_id)
    return grouped


def _scope(key: str) -> MemoryScope | None:
    try:
        return scope_from_key(key)
    except ScopeError:
        return None


def migrate_payloads(*, apply: bool, write: Callable[[str], None]) -> MigrationReport:
    from memories.engine import bootstrap

    bootstrap.prepare()  # text_lemmatized comes from the engine's own NLP routing
    report = MigrationReport()
    progress = Progress(total=MemoryRow.objects.count(), label="payloads", write=write)
    engine = get_engine() if apply else None
    for batch in _batches():
        for key, ids in _by_scope(batch).items():
            scope = _scope(key)
            if scope is None:
                report.skipped_scopes += 1
                continue
            with scope_write_exclusive(scope=scope):
                for row in MemoryRow.objects.filter(id__in=ids).defer("vector"):
                    fields = missing_fields(row.payload or {}) | superseded_at(row)
                    if not fields:
                        continue
                    report.changed += 1
                    report.fields.update(fields.keys())
                    if engine is not None:
                        merge_payload(engine, memory_id=str(row.id), fields=fields)
        report.scanned += len(batch)
        progress.advance(len(batch))
    return report


# --- entities --------------------------------------------------------------------------------
def is_trusted(payload: dict[str, Any]) -> bool:
    """Live (as every reader sees it: ``memories.recall.live``), and admitted by today's rules
    (old run logs and noise are left out)."""
    if not is_live(payload):
        return False
    text = str(payload.get("data") or "")
    source = str(payload.get("source") or Source.MANAGE)
    admission = (
        admit_extracted(text=text)
        if source == Source.INGEST
        else admit_text(source=source, text=text)
    )
    return bool(text) and admission.admitted


@dataclass
class RebuildReport:
    backup_table: str = ""
    scanned: int = 0
    linked: int = 0


def rebuild_entities(*, apply: bool, write: Callable[[str], None]) -> RebuildReport:
    """Back up, empty and rebuild the entity index from trusted memories only."""
    report = RebuildReport()
    engine = get_engine()
    if apply:
        stamp = timezone.now().astimezone(UTC).strftime("%Y%m%d%H%M%S")
        report.backup_table = backup_entities(engine, suffix=stamp)
        write(f"entity table backed up to {report.backup_table}")
        clear_entities(engine)
    progress = Progress(total=MemoryRow.objects.count(), label="entities", write=write)
    for batch in _batches():
        for key, ids in _by_scope(batch).items():
            scope = _scope(key)
            if scope is None:
                continue
            with scope_write_exclusive(scope=scope):
                # Re-read under the lock: a memory deleted meanwhile is not linked back.
                for row in MemoryRow.objects.filter(id__in=ids).defer("vector"):
                    if not is_trusted(row.payload or {}):
                        continue
                    report.linked += 1
                    if apply:
                        link_entities(
                            engine, memory_id=str(row.id), text=row.content, scope_key=key
                        )
        report.scanned += len(batch)
        progress.advance(len(batch))
    return report
