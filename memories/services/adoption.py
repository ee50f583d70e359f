"""What auto-ingest writes through: Mem0 extracts facts from a conversation
(``memory_extract``), and each one is then adopted (``memory_record_extracted``) or removed
(``memory_discard``). The extraction rules and the key a fact proposes are read here too, so
ingest needs nothing from the engine itself."""

from __future__ import annotations

import contextlib
from datetime import datetime
from typing import Any

from django.conf import settings

from memories import governance, metrics
from memories.admission import admit_extracted
from memories.engine import ExtractedFact, get_engine
from memories.engine.extraction.keys import retires
from memories.instants import read_instant
from memories.locks import scope_write_lock
from memories.models import AuditEvent, MemoryRow
from memories.selectors import (
    memory_find_by_text,
    memory_near_duplicate,
    memory_owned_row,
    scope_rows,
    scope_stored_count,
)
from memories.services.add_decisions import QUOTA_EXCEEDED
from memories.services.supersede import key_conflict, record_write
from memories.services.write import WriteContext, admission_refused, noop, valid_key
from memories.types import (
    Actor,
    Category,
    MemoryRecord,
    MemoryScope,
    Source,
    WriteOutcome,
    WriteStatus,
)

__all__ = [
    "ExtractedFact",
    "extraction_instructions",
    "memory_discard",
    "memory_extract",
    "memory_record_extracted",
    "propose_key",
]


# The two helpers below import the engine's extractor when called, not with this module: it
# imports Mem0, which may be imported only once the ``memories`` app has set Mem0's environment,
# and this package is imported earlier (admin autodiscovery), as ``build_engine`` is.


def extraction_instructions(stricter: str = "") -> str:
    """The rules Mem0's extraction follows (``EXTRACTION_RULES``), with ``stricter`` ones after
    them for a retry."""
    from memories.engine.extractor import EXTRACTION_RULES

    return f"{EXTRACTION_RULES}\n\n{stricter}" if stricter else EXTRACTION_RULES


def propose_key(fact: str) -> str:
    """The ``memory_key`` an extracted fact is the value of, or "" when none is recognised."""
    from memories.engine.extractor import propose_key as proposed

    return proposed(fact)


def memory_extract(
    *,
    scope: MemoryScope,
    messages: list[dict[str, str]],
    metadata: dict[str, Any],
    instructions: str,
) -> list[ExtractedFact]:
    """Let Mem0 extract facts (infer=True) from real user/assistant messages. What it stores is
    provisional: the caller validates it, then adopts (``memory_record_extracted``) or discards
    (``memory_discard``) every fact."""
    return get_engine().extract(
        scope_key=scope.key, messages=messages, metadata=metadata, instructions=instructions
    )


def memory_discard(*, scope: MemoryScope, memory_ids: list[str]) -> None:
    """Physically remove provisional facts (rows and entity links); no audit trail, as they
    were never adopted."""
    engine = get_engine()
    for memory_id in memory_ids:
        with contextlib.suppress(LookupError):  # already gone
            engine.delete_fact(memory_id=memory_id, scope_key=scope.key)


def memory_record_extracted(
    *,
    scope: MemoryScope,
    memory_id: str,
    text: str,
    actor: Actor,
    category: str,
    memory_key: str = "",
    run_id: str = "",
) -> WriteOutcome:
    """Adopt a fact Mem0 extracted (infer=True): its category, key and audit trail.

    The fact passes admission again (an LLM can reassemble a secret from pieces that were
    harmless one by one); a refused fact is physically removed and never audited. The same
    governance as ``memory_add`` holds: a fact repeating an active memory is removed and
    answers ``no_effect`` (``duplicate``), one whose key holds an explicit statement is removed
    (``explicit_statement_kept``), otherwise it supersedes the key's current memory — unless
    the fact does not replace it (``keys.retires``: leaving another employer than the one held),
    when it is stored beside it without the key. The caller holds the scope's write lock (the
    ingest worker, from extraction to adoption)."""
    ctx = WriteContext(scope=scope, actor=actor, source=Source.INGEST, run_id=run_id)
    admission = admit_extracted(text=text)
    if admission_refused(admission):
        memory_discard(scope=scope, memory_ids=[memory_id])
        return WriteOutcome(
            status=WriteStatus.REJECTED, memory_id=memory_id, reason=admission.reason
        )
    if not valid_key(memory_key):
        memory_key = ""
    with scope_write_lock(scope):
        row = memory_owned_row(scope=scope, memory_id=memory_id)
        repeated = _repeated(scope=scope, row=row, memory_id=memory_id, text=text)
        confidence = float(row.payload.get("confidence") or governance.INFERRED_CONFIDENCE)
        current, may_replace = key_conflict(
            scope=scope, memory_key=memory_key, confidence=confidence, exclude_id=memory_id
        )
        if current is not None and not retires(
            memory_key=memory_key, fact=text, held=current.content
        ):
            # The key was only proposed, and the fact does not replace its holder ("The user
            # left Google." beside "用户在字节跳动工作。"): stored beside it, without the key.
            memory_key, current, may_replace = "", None, True
        if repeated is not None:
            return _discard_as_noop(ctx, memory_id=memory_id, kept=repeated.id, reason="duplicate")
        if current is not None and not may_replace:
            return _discard_as_noop(
                ctx, memory_id=memory_id, kept=str(current.id), reason="explicit_statement_kept"
            )
        if _over_quota(scope):
            memory_discard(scope=scope, memory_ids=[memory_id])
            metrics.quota_exceeded.labels(Source.INGEST).inc()
            return WriteOutcome(
                status=WriteStatus.REJECTED, memory_id=memory_id, reason=QUOTA_EXCEEDED
            )
        _adopt(
            ctx,
            memory_id=memory_id,
            text=text,
            category=category,
            memory_key=memory_key,
            replaces=current,
            since=read_instant(row.payload.get("created_at")),
        )
    metrics.writes.labels("ingest", "added").inc()
    return WriteOutcome(
        status=WriteStatus.ADDED,
        memory_id=memory_id,
        inserted_count=1,
        superseded_id=str(current.id) if current is not None else None,
    )


def _repeated(
    *, scope: MemoryScope, row: MemoryRow, memory_id: str, text: str
) -> MemoryRecord | None:
    """The active memory the fact repeats (same text, else a near duplicate), never one of the
    facts of its own extraction: they are not adopted yet."""
    job = row.payload.get("ingest_job_id")
    provisional = (
        tuple(
            str(i)
            for i in scope_rows(scope)
            .filter(payload__ingest_job_id=job)
            .values_list("id", flat=True)
        )
        if job
        else (memory_id,)
    )
    repeated = memory_find_by_text(scope=scope, text=text)
    if repeated is not None and repeated.id in provisional:
        repeated = None
    return repeated or memory_near_duplicate(scope=scope, text=text, exclude_ids=provisional)


def _discard_as_noop(ctx: WriteContext, *, memory_id: str, kept: str, reason: str) -> WriteOutcome:
    """Remove the extracted fact and answer ``no_effect`` naming the memory kept instead."""
    memory_discard(scope=ctx.scope, memory_ids=[memory_id])
    metrics.writes.labels("ingest", "no_effect").inc()
    return noop(ctx, memory_id=kept, reason=reason)


def _over_quota(scope: MemoryScope) -> bool:
    """The extraction's facts are stored already, this one among them, so the size counts
    them: near the cap a fact that would just have fit may be refused, never one too many."""
    cap = settings.MAX_MEMORIES_PER_USER
    return cap > 0 and scope_stored_count(scope=scope) > cap


def _adopt(
    ctx: WriteContext,
    *,
    memory_id: str,
    text: str,
    category: str,
    memory_key: str,
    replaces: MemoryRow | None,
    since: datetime | None,
) -> None:
    """Give the fact its category and key, with its ADD audit row and the supersede of the
    key's old holder, which stops holding where the fact begins (``since``, its
    ``created_at``: the two validities meet)."""
    fields: dict[str, Any] = {"category": Category(category).value}
    if memory_key:
        fields["memory_key"] = memory_key
    get_engine().patch_payload(memory_id=memory_id, fields=fields)
    record_write(
        ctx,
        memory_id=memory_id,
        event=AuditEvent.Event.ADD,
        new_text=text,
        replaces=replaces,
        since=since,
    )
