"""Auto-ingest: admit synchronously, queue durably, extract with guards in a worker.

``ingest_submit`` runs in the request: policy, admission, then one row + one queued job in the
same transaction (both in PostgreSQL, so an accepted candidate survives any restart).
``ingest_run`` runs in a worker holding the scope's one write lock from extraction to adoption
(``services.scope_write_exclusive``): Mem0's implicit message context cleared before and after,
language and fact guards, deletion marks obeyed, audit rows for what survives, written with the
job's final state in one transaction.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import DatabaseError, transaction
from django.db.models.functions import Now
from procrastinate.contrib.django import app
from procrastinate.contrib.django.models import ProcrastinateJob

from lifecycle import guards, metrics, policy
from lifecycle.ingest_queue import defer_ingest
from lifecycle.models import IngestJob, IngestRejection, RunLedger
from lifecycle.selectors import ingest_leftover_ids, memory_ids_present
from memories import metrics as memory_metrics
from memories.admission import Message, admit
from memories.categories import categorize
from memories.digests import log_name
from memories.scope import scope_of
from memories.selectors import (
    deleted_fact_digests_since,
    fact_digest,
    memory_attribution,
    scope_deleted_since,
)
from memories.services import (
    QUOTA_EXCEEDED,
    ExtractedFact,
    extraction_instructions,
    memory_discard,
    memory_extract,
    memory_record_extracted,
    our_metadata,
    propose_key,
    quota_room,
    run_writer_exclusive,
    scope_write_exclusive,
)
from memories.text import normalize_quotes
from memories.types import Actor, ActorKind, BackendError, MemoryScope, Source, WriteStatus

logger = logging.getLogger(__name__)

SYSTEM_ACTOR = Actor(kind=ActorKind.SYSTEM, id="ingest")


@dataclass(frozen=True)
class IngestSubmission:
    accepted: bool
    status: str  # queued | rejected | skipped
    job_id: str | None = None
    reason: str | None = None


def ingest_submit(
    *,
    scope: MemoryScope,
    messages: list[Message],
    source: str,
    run_id: str = "",
    run_kind: str = "",
    metadata: dict[str, Any] | None = None,
) -> IngestSubmission:
    refusal = policy.write_refusal(scope=scope, run_kind=run_kind)
    if refusal:
        metrics.policy_refused.labels(refusal).inc()
        return IngestSubmission(accepted=False, status="skipped", reason=refusal)
    if policy.has_explicit_writer(scope=scope, run_id=run_id):
        metrics.policy_refused.labels("skipped_explicit_writer").inc()
        return IngestSubmission(accepted=False, status="skipped", reason="skipped_explicit_writer")
    # The metadata is stored with the job and shown to staff: admitted with the messages.
    admission = admit(source=source, messages=messages, fields=metadata or {})
    if not admission.admitted:
        memory_metrics.admission_rejected.labels(admission.reason or "unknown").inc()
        logger.info(
            "ingest rejected: scope=%s run=%s reason=%s",
            log_name(scope.key),
            log_name(run_id),
            admission.reason,
        )
        IngestRejection.objects.create(  # a counted trace for staff, without the content
            tenant_id=scope.tenant_id,
            user_id=scope.user_id,
            run_id=run_id[:128],
            source=source[:32],
            reason=(admission.reason or "unknown")[:64],
        )
        return IngestSubmission(accepted=False, status="rejected", reason=admission.reason)
    with transaction.atomic():
        job = IngestJob.objects.create(
            tenant_id=scope.tenant_id,
            user_id=scope.user_id,
            run_id=run_id,
            source=source,
            run_kind=run_kind,
            messages=[
                {"role": m.role, "content": _as_typed(m.content, messages)}
                for m in admission.messages
            ],
            metadata=metadata or {},
        )
        defer_ingest(scope=scope, job_id=str(job.id))
    logger.info(
        "ingest queued: scope=%s run=%s job=%s", log_name(scope.key), log_name(run_id), job.id
    )
    return IngestSubmission(accepted=True, status="queued", job_id=str(job.id))


def _as_typed(cleaned: str, typed: list[Message]) -> str:
    """The message as the user typed it when admission's cleaning changed only its quotation
    marks: facts keep the user's “陈工”, not "陈工" (a message cleaned of more keeps the cleaned
    text)."""
    for message in typed:
        if message.content != cleaned and normalize_quotes(message.content.strip()) == cleaned:
            return message.content.strip()
    return cleaned


@dataclass
class _Attempt:
    """What one extraction attempt stored, so a failure can take it all back."""

    scope: MemoryScope
    stored: list[str] = field(default_factory=list)

    def discard(self, memory_ids: list[str]) -> None:
        memory_discard(scope=self.scope, memory_ids=memory_ids)
        self.stored = [m for m in self.stored if m not in memory_ids]

    def keep(
        self, facts: list[ExtractedFact], rejection: Callable[[ExtractedFact], str | None]
    ) -> list[ExtractedFact]:
        """The facts ``rejection`` finds no reason against; the others are physically gone."""
        survivors = []
        for fact in facts:
            reason = rejection(fact)
            if reason:
                metrics.post_extraction_rejected.labels(reason).inc()
                self.discard([fact.id])
            else:
                survivors.append(fact)
        return survivors


class IngestFailed(Exception):
    """A deterministic failure (e.g. persistent language drift): final, never retried."""


class ExplicitWriterArrived(Exception):
    """/manage was called for the run while this job was extracting: it is the writer now."""


class ScopeDeleted(Exception):
    """delete-user ran for the scope after the job was accepted: it may never write."""


SCOPE_DELETED = "scope_deleted"


def ingest_run(*, job_id: str, attempt: int, final_attempt: bool) -> IngestJob:
    """Process one queued job. Raises ``BackendError`` for the queue to retry."""
    job = IngestJob.objects.get(id=job_id)
    if job.status in IngestJob.FINAL:
        return job  # already done: a re-delivered job must not store twice
    scope = scope_of(tenant_id=job.tenant_id, user_id=job.user_id)
    log = f"scope={log_name(scope.key)} run={log_name(job.run_id)} job={job.id}"
    job.status, job.attempts = IngestJob.Status.RUNNING, attempt
    job.save(update_fields=["status", "attempts", "updated_at"])

    if scope_deleted_since(scope=scope, since=job.created_at):
        return _finish(job, IngestJob.Status.SKIPPED, reason=SCOPE_DELETED)
    refusal = policy.write_refusal(scope=scope, run_kind=job.run_kind)
    if refusal is None and policy.has_explicit_writer(scope=scope, run_id=job.run_id):
        refusal = "skipped_explicit_writer"
    if refusal:
        metrics.policy_refused.labels(refusal).inc()
        return _finish(job, IngestJob.Status.SKIPPED, reason=refusal)
    if quota_room(scope=scope) == 0:
        # A full scope stores nothing new: no extraction is paid for (adoption checks again).
        memory_metrics.quota_exceeded.labels(Source.INGEST).inc()
        return _finish(job, IngestJob.Status.SKIPPED, reason=QUOTA_EXCEEDED)

    try:
        return _extract_guarded(scope=scope, job=job, log=log)
    except ScopeDeleted:
        return _finish(job, IngestJob.Status.SKIPPED, reason=SCOPE_DELETED)
    except ExplicitWriterArrived:
        metrics.policy_refused.labels("skipped_explicit_writer").inc()
        return _finish(job, IngestJob.Status.SKIPPED, reason="skipped_explicit_writer")
    except IngestFailed as exc:
        metrics.ingest_failed.inc()
        logger.warning("ingest failed: %s reason=%s", log, exc)
        return _finish(job, IngestJob.Status.FAILED, reason=str(exc))
    except BackendError as exc:
        reason = f"backend_error: {exc}"[:200]
        # The database may be what failed: recording the state is best effort, the queue's
        # retry must still happen (the upkeep task reconciles a row it could not update).
        with contextlib.suppress(DatabaseError):
            if final_attempt:
                metrics.ingest_failed.inc()
                logger.warning("ingest failed after %s attempts: %s (%s)", attempt, log, exc)
                _finish(job, IngestJob.Status.FAILED, reason=reason)
            else:
                metrics.ingest_retry_scheduled.inc()
                logger.info("ingest retry scheduled: %s attempt=%s (%s)", log, attempt, exc)
                job.status, job.reason = IngestJob.Status.RETRYING, reason
                job.save(update_fields=["status", "reason", "updated_at"])
        raise


def _finish(
    job: IngestJob, status: str, *, reason: str = "", memory_ids: list[str] | None = None
) -> IngestJob:
    """Decide the job. Every final state drops the candidate text."""
    job.status = status
    job.reason = reason
    job.messages = []  # the raw candidate is not kept once the job is decided
    job.memory_ids = memory_ids or []
    job.inserted_count = len(job.memory_ids)
    job.save(
        update_fields=["status", "reason", "messages", "memory_ids", "inserted_count", "updated_at"]
    )
    metrics.ingest_outcomes.labels(status).inc()
    return job


def _extract_guarded(*, scope: MemoryScope, job: IngestJob, log: str) -> IngestJob:
    messages = [{"role": m["role"], "content": m["content"]} for m in job.messages]
    said = [m["content"] for m in messages if m["role"] == "user"]
    language = guards.dominant_language(said)  # the retry instruction's
    languages = guards.user_languages(said)
    attempt = _Attempt(scope=scope)
    base_metadata = {
        **our_metadata(category="fact", source=Source.INGEST, source_ref=job.run_id),
        "origin_run_id": job.run_id,  # Mem0 strips identity keys such as run_id
        # Lets a later attempt find what a worker that died mid-job stored but never adopted.
        "ingest_job_id": str(job.id),
    }
    instructions = extraction_instructions()
    # The scope's one write lock, held from extraction to adoption: no other writer of the
    # scope (a delete above all) interleaves.
    with scope_write_exclusive(scope=scope):
        # A worker wrongly taken for dead may have finished this very job while we waited:
        # its tagged rows are adopted facts then, not leftovers to discard.
        decided = IngestJob.objects.filter(id=job.id, status__in=IngestJob.FINAL).first()
        if decided is not None:
            return decided
        try:
            _obey_deletions(scope=scope, job=job)
            leftovers = ingest_leftover_ids(scope=scope, job_id=str(job.id))
            memory_discard(scope=scope, memory_ids=leftovers)
            for round_ in (1, 2):
                facts = memory_extract(
                    scope=scope,
                    messages=messages,
                    metadata=base_metadata,
                    instructions=instructions,
                )
                attempt.stored.extend(f.id for f in facts)
                # Drift: a fact in none of the languages the user wrote in.
                drifting = [
                    f.id
                    for f in facts
                    if languages and all(guards.drifted(f.text, lang) for lang in languages)
                ]
                if not drifting:
                    break
                # Drift: physically remove this write's results, retry once, never store raw.
                metrics.post_extraction_rejected.labels("language_drift").inc()
                attempt.discard(list(attempt.stored))
                if round_ == 2:
                    raise IngestFailed("language_drift")
                assert language is not None
                stricter = guards.LANGUAGE_RETRY_INSTRUCTION[language]
                instructions = extraction_instructions(stricter)
            survivors = _validate(attempt=attempt, facts=facts)
            survivors = _not_deleted_since(attempt=attempt, job=job, facts=survivors)
            # The same lock /manage takes to register: either it registered before this check
            # (and these facts go), or it waits until they are recorded and acts after them.
            with run_writer_exclusive(scope=scope, run_id=job.run_id):
                if policy.has_explicit_writer(scope=scope, run_id=job.run_id):
                    raise ExplicitWriterArrived
                _obey_deletions(scope=scope, job=job)
                return _adopt(scope=scope, job=job, facts=survivors)
        except BaseException:
            attempt.discard(list(attempt.stored))  # nothing half-written
            raise


def _obey_deletions(*, scope: MemoryScope, job: IngestJob) -> None:
    # delete-user writes its mark before it waits for the lock this job holds.
    if scope_deleted_since(scope=scope, since=job.created_at):
        raise ScopeDeleted


def _adopt(*, scope: MemoryScope, job: IngestJob, facts: list[ExtractedFact]) -> IngestJob:
    """Record the facts and decide the job in one transaction: a fact is adopted exactly when
    its job is final, so an attempt after a crash knows every tagged row is a leftover."""
    with transaction.atomic():
        # Each fact passes admission again inside memory_record_extracted; a refused one is
        # removed there and not adopted.
        adopted = [
            fact.id
            for fact in facts
            if memory_record_extracted(
                scope=scope,
                memory_id=fact.id,
                text=fact.text,
                actor=SYSTEM_ACTOR,
                # A fact's key implies its category (a preference.* key is a preference), as on
                # the explicit add.
                category=categorize(fact.text, memory_key=(key := propose_key(fact.text))),
                memory_key=key,
                run_id=job.run_id,
            ).status
            == WriteStatus.ADDED
        ]
        if not adopted:
            metrics.no_effect.labels("ingest").inc()
            return _finish(job, IngestJob.Status.NO_EFFECT)
        return _finish(job, IngestJob.Status.SUCCEEDED, memory_ids=adopted)


def _validate(*, attempt: _Attempt, facts: list[ExtractedFact]) -> list[ExtractedFact]:
    def rejection(fact: ExtractedFact) -> str | None:
        try:
            return guards.fact_rejection(fact.text, memory_attribution(memory_id=fact.id))
        except LookupError:
            return "vanished"  # deleted under the job by a writer outside the scope lock

    return attempt.keep(facts, rejection)


def _not_deleted_since(
    *, attempt: _Attempt, job: IngestJob, facts: list[ExtractedFact]
) -> list[ExtractedFact]:
    """Drop facts that no longer exist, and facts the user deleted (delete-item) after this
    candidate was accepted: an older candidate never brings a deleted fact back."""
    present = memory_ids_present(scope=attempt.scope, memory_ids=[f.id for f in facts])
    deleted = deleted_fact_digests_since(scope=attempt.scope, since=job.created_at)

    def rejection(fact: ExtractedFact) -> str | None:
        if fact.id not in present:
            return "vanished"
        if deleted and fact_digest(fact.text) in deleted:
            return "deleted_by_user"
        return None

    return attempt.keep(facts, rejection)


def ingest_forget_scope(*, scope: MemoryScope, marked_at: datetime, **_: Any) -> None:
    """delete-user was called: decide the scope's waiting jobs now (skipped, text dropped,
    queue job cancelled); a running one loses its text and skips itself at its next check.

    Nothing the client sent beside its ids survives either: every earlier job and refusal of
    the scope loses its run id and metadata, and the run ledger forgets the scope's runs."""
    earlier = IngestJob.objects.filter(
        tenant_id=scope.tenant_id, user_id=scope.user_id, created_at__lte=marked_at
    )
    waiting = [
        str(i) for i in earlier.filter(status__in=IngestJob.WAITING).values_list("id", flat=True)
    ]
    skipped = earlier.filter(id__in=waiting, status__in=IngestJob.WAITING).update(
        status=IngestJob.Status.SKIPPED, reason=SCOPE_DELETED, messages=[], updated_at=Now()
    )
    earlier.update(run_id="", metadata={}, messages=[], updated_at=Now())
    owned = {"tenant_id": scope.tenant_id, "user_id": scope.user_id, "created_at__lte": marked_at}
    IngestRejection.objects.filter(**owned).update(run_id="")
    RunLedger.objects.filter(**owned).delete()
    for queued in ProcrastinateJob.objects.filter(args__job_id__in=waiting, status="todo"):
        app.job_manager.cancel_job_by_id(queued.id)
    if skipped:
        metrics.ingest_outcomes.labels(IngestJob.Status.SKIPPED).inc(skipped)
