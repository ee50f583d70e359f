"""New memories: one fact (``memory_add``) or many of one scope (``memory_add_many``), each
admitted and analysed here, then, under the scope's lock, checked against what the scope holds
(duplicates, key holders, quota: ``add_decisions``) and audited. ``add_refusal`` is the preview
of the checks that need no lock."""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings

from memories import governance, metrics
from memories.admission import admit_text
from memories.engine import PreparedText, get_engine
from memories.governance import UNSET, Unset
from memories.language import nlp
from memories.locks import scope_write_lock
from memories.services.add_decisions import add_admitted
from memories.services.new_memory import Admitted, NewMemory
from memories.services.write import (
    WriteContext,
    admission_refused,
    fact_refusal,
)
from memories.types import (
    Actor,
    BackendError,
    Category,
    MemoryScope,
    Source,
    WriteOutcome,
    WriteStatus,
)

# How many threads of this process may analyse texts at once. Each request runs on its own
# thread: fifty adds of one scope analysing at once starved the lock holder of the GIL, and
# every add queued behind its stretched locked section (a convoy). Waiting here holds no GIL.
_PREPARE_SLOTS = threading.BoundedSemaphore(max(1, os.cpu_count() or 1))


def add_refusal(
    *,
    text: str,
    source: str,
    confidence: float | None,
    memory_key: str,
    valid_until: datetime | None | Unset,
) -> str | tuple[str]:
    """Why an add of this fact would be ``rejected`` before any lock (admission, key, expiry,
    confidence), or ``(stored text,)`` when it passes: what a preview says, counting nothing."""
    checked = _admit_new(
        text=text,
        source=source,
        confidence=confidence,
        memory_key=memory_key,
        valid_until=valid_until,
        counted=False,
    )
    if isinstance(checked, WriteOutcome):
        return checked.reason or "rejected"
    return (checked[0],)


def memory_add(
    *,
    scope: MemoryScope,
    text: str,
    actor: Actor,
    category: str = Category.FACT,
    source: str = Source.MANAGE,
    run_id: str = "",
    confidence: float | None = None,
    memory_key: str = "",
    valid_until: datetime | None | Unset = UNSET,
    source_ref: str = "",
    created_at: datetime | None = None,
) -> WriteOutcome:
    """Store exactly one confirmed fact, under the scope's write lock:

    * the same text, or a semantic near-duplicate, of an active memory stores nothing
      (``no_effect``, reason ``duplicate``, ``memory_id`` of the memory it repeats);
    * with a ``memory_key`` that an active memory holds, the new fact supersedes it
      (``superseded_id``) — unless the new one is an inference and the old one an explicit
      statement (``no_effect``, reason ``explicit_statement_kept``);
    * below ``settings.MIN_CONFIDENCE`` nothing is stored (``rejected``, ``low_confidence``).

    The text passes admission here, so no caller can store what admission refuses; what is
    stored is the admitted text (noise, paths and URLs cut out; quotes as typed).

    It is ``memory_add_many`` of one: one way to decide and store a new fact, one embedding
    per add, computed before the lock."""
    (outcome,) = memory_add_many(
        scope=scope,
        items=[
            NewMemory(
                text=text,
                category=category,
                confidence=confidence,
                memory_key=memory_key,
                valid_until=valid_until,
                source_ref=source_ref,
                created_at=created_at,
            )
        ],
        actor=actor,
        source=source,
        run_id=run_id,
    )
    return outcome


@dataclass(frozen=True)
class ImportChunkReady:
    """What ``memory_add_many`` does to an import's chunk before it needs the database or the
    lock: the admission of every item and the analysis of the admitted texts (``prepare_import``).
    An import computes it for its next chunk while the current one is written."""

    items: list[NewMemory]
    outcomes: tuple[WriteOutcome | None, ...]  # the refusals, by input index
    admitted: tuple[Admitted, ...]
    prepared: tuple[PreparedText, ...]


def prepare_import(items: list[NewMemory]) -> ImportChunkReady:
    """Admit and analyse an import's chunk: no database, no lock, so it may run on another
    thread. An import stores no second vectors (the backfill fills them), so none are
    computed. Raises ``BackendError`` when the analysis fails."""
    outcomes, admitted = _admit_all(items, source=Source.IMPORT)
    with _PREPARE_SLOTS:
        prepared = get_engine().prepare([text for _, text, _ in admitted])
    return ImportChunkReady(
        items=items, outcomes=tuple(outcomes), admitted=tuple(admitted), prepared=tuple(prepared)
    )


def memory_add_many(
    *,
    scope: MemoryScope,
    items: list[NewMemory],
    actor: Actor,
    source: str = Source.IMPORT,
    run_id: str = "",
    ready: ImportChunkReady | None = None,
) -> list[WriteOutcome]:
    """``memory_add`` for many facts of one scope: the same outcome, the same stored payload
    and the same audit rows as calling it for each item in order, with one lock hold, one
    embedding batch, one nearest-neighbour statement and one INSERT. ``ready`` (an import's
    chunk, from ``prepare_import`` of the same ``items``) skips the work done there.

    An item repeats an earlier item of the batch as it would repeat a stored memory, and a
    later item of a key supersedes an earlier one. A backend failure writes nothing of the
    batch: every item that would have been written is ``backend_error``."""
    ctx = WriteContext(scope=scope, actor=actor, source=source, run_id=run_id)
    if ready is not None and (ready.items is not items or source != Source.IMPORT):
        raise ValueError("ready is an import's analysis of these very items")
    if ready is None:
        outcomes, admitted = _admit_all(items, source=source)
    else:
        outcomes, admitted = list(ready.outcomes), list(ready.admitted)
    try:
        _prepare_and_store(
            ctx,
            items=items,
            admitted=admitted,
            outcomes=outcomes,
            prepared=None if ready is None else list(ready.prepared),
        )
    except BackendError as exc:
        for index, _, _ in admitted:
            metrics.writes.labels("add", "backend_error").inc()
            outcomes[index] = WriteOutcome(status=WriteStatus.BACKEND_ERROR, reason=str(exc))
    return [outcome for outcome in outcomes if outcome is not None]


def _admit_all(
    items: list[NewMemory], *, source: str
) -> tuple[list[WriteOutcome | None], list[Admitted]]:
    """Every item's checks that need no lock: its refusal, or its admitted text."""
    outcomes: list[WriteOutcome | None] = [None] * len(items)
    admitted: list[Admitted] = []
    for index, item in enumerate(items):
        checked = _admit_new(
            text=item.text,
            source=source,
            confidence=item.confidence,
            memory_key=item.memory_key,
            valid_until=item.valid_until,
        )
        if isinstance(checked, WriteOutcome):
            outcomes[index] = checked
        else:
            admitted.append((index, *checked))
    return outcomes, admitted


def _admit_new(
    *,
    text: str,
    source: str,
    confidence: float | None,
    memory_key: str,
    valid_until: datetime | None | Unset,
    counted: bool = True,
) -> WriteOutcome | tuple[str, float]:
    """The checks of a new fact that need no lock: the ``rejected`` outcome, or the admitted
    text and the confidence it is stored with (shared by ``memory_add`` and its batch).
    ``counted``: a refusal counts in the metrics (not for a preview)."""
    text = text.strip()
    refusal = fact_refusal(text=text, memory_key=memory_key, valid_until=valid_until)
    if refusal:
        return WriteOutcome(status=WriteStatus.REJECTED, reason=refusal)
    confidence = governance.default_confidence(source) if confidence is None else confidence
    if confidence < settings.MIN_CONFIDENCE:
        if counted:
            metrics.admission_rejected.labels("low_confidence").inc()
        return WriteOutcome(status=WriteStatus.REJECTED, reason="low_confidence")
    admission = admit_text(source=source, text=text)
    if admission_refused(admission) if counted else not admission.admitted:
        return WriteOutcome(status=WriteStatus.REJECTED, reason=admission.reason)
    return admission.text, confidence


def _prepare_and_store(
    ctx: WriteContext,
    *,
    items: list[NewMemory],
    admitted: list[Admitted],
    outcomes: list[WriteOutcome | None],
    prepared: list[PreparedText] | None = None,
) -> None:
    """Analyse the admitted texts outside the lock (unless ``prepared`` already holds that
    analysis), then decide and store them under it."""
    # The text's own work (embedding, entities, lemmas) needs no lock: concurrent writers of the
    # scope do it in parallel and queue only for the statements. Under the lock the duplicate
    # check reuses those lemmas and reads the nearest memories' stored ones
    # (``memory_nearest_many``), for this write only: no jieba/spaCy while others wait.
    engine = get_engine()
    texts = [text for _, text, _ in admitted]
    # The second model embeds the texts on another thread through the first embedding, the
    # analysis, the lock and the duplicate check; the INSERT takes the vectors ready by then and
    # the others are stored as soon as they are (the add never waits for them). An import
    # leaves them to the queue's backfill: it keeps its rate, and search uses whatever is filled.
    second = engine.second_passages(texts) if ctx.source != Source.IMPORT else None
    with nlp.lemma_memo():
        if prepared is None:
            with _PREPARE_SLOTS:
                prepared = engine.prepare(texts, second=second)
        else:  # analysed on another thread: its lemmas join this write's memo
            nlp.remember_lemmas(zip(texts, (ready.lemmatized for ready in prepared), strict=True))
        with scope_write_lock(ctx.scope):
            add_admitted(ctx, items=items, admitted=admitted, prepared=prepared, outcomes=outcomes)
