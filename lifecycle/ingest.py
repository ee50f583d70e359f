"""Auto-ingest: admit synchronously, queue durably, extract with guards in a worker.

``ingest_submit`` runs in the request: policy, admission, then one row + one queued job in the
same transaction (both in PostgreSQL, so an accepted candidate survives any restart).
``ingest_run`` runs in a worker: one scope at a time (advisory lock), Mem0's implicit message
context cleared before and after, language and fact guards, audit rows for what survives.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction

from lifecycle import guards, metrics, policy
from lifecycle.categories import categorize
from lifecycle.models import IngestJob
from memories import metrics as memory_metrics
from memories.admission import Message, admit
from memories.engine import ExtractedFact
from memories.engine.extractor import EXTRACTION_RULES
from memories.locks import advisory_lock
from memories.selectors import memory_attribution
from memories.services import (
    memory_context_clear,
    memory_discard,
    memory_extract,
    memory_record_extracted,
    our_metadata,
)
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
    admission = admit(source=source, messages=messages)
    if not admission.admitted:
        memory_metrics.admission_rejected.labels(admission.reason or "unknown").inc()
        logger.info(
            "ingest rejected: scope=%s run=%s reason=%s", scope.key, run_id, admission.reason
        )
        return IngestSubmission(accepted=False, status="rejected", reason=admission.reason)
    from lifecycle.tasks import run_ingest

    with transaction.atomic():
        job = IngestJob.objects.create(
            tenant_id=scope.tenant_id,
            user_id=scope.user_id,
            run_id=run_id,
            source=source,
            run_kind=run_kind,
            messages=[{"role": m.role, "content": m.content} for m in admission.messages],
            metadata=metadata or {},
        )
        run_ingest.defer(job_id=str(job.id))
    logger.info("ingest queued: scope=%s run=%s job=%s", scope.key, run_id, job.id)
    return IngestSubmission(accepted=True, status="queued", job_id=str(job.id))


@dataclass
class _Attempt:
    """What one extraction attempt stored, so a failure can take it all back."""

    scope: MemoryScope
    stored: list[str] = field(default_factory=list)

    def discard(self, memory_ids: list[str]) -> None:
        memory_discard(scope=self.scope, memory_ids=memory_ids)
        self.stored = [m for m in self.stored if m not in memory_ids]


class IngestFailed(Exception):
    """A deterministic failure (e.g. persistent language drift): final, never retried."""


class ExplicitWriterArrived(Exception):
    """/manage was called for the run while this job was extracting: it is the writer now."""


def ingest_run(*, job_id: str, attempt: int, final_attempt: bool) -> IngestJob:
    """Process one queued job. Raises ``BackendError`` for the queue to retry."""
    job = IngestJob.objects.get(id=job_id)
    if job.status in IngestJob.FINAL:
        return job  # already done: a re-delivered job must not store twice
    scope = MemoryScope(tenant_id=job.tenant_id, user_id=job.user_id)
    log = f"scope={scope.key} run={job.run_id} job={job.id}"
    job.status, job.attempts = IngestJob.Status.RUNNING, attempt
    job.save(update_fields=["status", "attempts", "updated_at"])

    refusal = policy.write_refusal(scope=scope, run_kind=job.run_kind)
    if refusal is None and policy.has_explicit_writer(scope=scope, run_id=job.run_id):
        refusal = "skipped_explicit_writer"
    if refusal:
        metrics.policy_refused.labels(refusal).inc()
        return _finish(job, IngestJob.Status.SKIPPED, reason=refusal)

    try:
        stored = _extract_guarded(scope=scope, job=job, log=log)
    except ExplicitWriterArrived:
        metrics.policy_refused.labels("skipped_explicit_writer").inc()
        return _finish(job, IngestJob.Status.SKIPPED, reason="skipped_explicit_writer")
    except IngestFailed as exc:
        metrics.ingest_failed.inc()
        logger.warning("ingest failed: %s reason=%s", log, exc)
        return _finish(job, IngestJob.Status.FAILED, reason=str(exc))
    except BackendError as exc:
        if final_attempt:
            metrics.ingest_failed.inc()
            logger.warning("ingest failed after %s attempts: %s (%s)", attempt, log, exc)
            _finish(job, IngestJob.Status.FAILED, reason=f"backend_error: {exc}")
        else:
            metrics.ingest_retry_scheduled.inc()
            logger.info("ingest retry scheduled: %s attempt=%s (%s)", log, attempt, exc)
            job.status, job.reason = IngestJob.Status.RETRYING, f"backend_error: {exc}"
            job.save(update_fields=["status", "reason", "updated_at"])
        raise
    if not stored:
        metrics.no_effect.labels("ingest").inc()
        return _finish(job, IngestJob.Status.NO_EFFECT)
    job.memory_ids = stored
    job.inserted_count = len(stored)
    return _finish(job, IngestJob.Status.SUCCEEDED)


def _finish(job: IngestJob, status: str, *, reason: str = "") -> IngestJob:
    job.status = status
    job.reason = reason
    job.messages = []  # the raw candidate is not kept once the job is decided
    job.save()
    metrics.ingest_outcomes.labels(status).inc()
    return job


def _extract_guarded(*, scope: MemoryScope, job: IngestJob, log: str) -> list[str]:
    messages = [{"role": m["role"], "content": m["content"]} for m in job.messages]
    language = guards.dominant_language(m["content"] for m in messages if m["role"] == "user")
    attempt = _Attempt(scope=scope)
    base_metadata = {
        **our_metadata(category="fact", source=Source.INGEST),
        "origin_run_id": job.run_id,  # Mem0 strips identity keys such as run_id
    }
    instructions = EXTRACTION_RULES
    # One scope at a time, across processes: one task's context never leaks into another's.
    with advisory_lock("mem0-context", scope.key):
        try:
            for round_ in (1, 2):
                memory_context_clear(scope=scope)
                facts = memory_extract(
                    scope=scope,
                    messages=messages,
                    metadata=base_metadata,
                    instructions=instructions,
                )
                attempt.stored.extend(f.id for f in facts)
                drifting = [f.id for f in facts if language and guards.drifted(f.text, language)]
                if not drifting:
                    break
                # Drift: physically remove this write's results, retry once, never store raw.
                metrics.post_extraction_rejected.labels("language_drift").inc()
                attempt.discard(list(attempt.stored))
                if round_ == 2:
                    raise IngestFailed("language_drift")
                assert language is not None
                stricter = guards.LANGUAGE_RETRY_INSTRUCTION[language]
                instructions = f"{EXTRACTION_RULES}\n\n{stricter}"
            survivors = _validate(attempt=attempt, facts=facts)
            # The same lock /manage takes to register: either it registered before this check
            # (and these facts go), or it waits until they are recorded and acts after them.
            with policy.run_writer_lock(scope=scope, run_id=job.run_id):
                if policy.has_explicit_writer(scope=scope, run_id=job.run_id):
                    raise ExplicitWriterArrived
                adopted = [
                    fact.id
                    for fact in survivors
                    if memory_record_extracted(
                        scope=scope,
                        memory_id=fact.id,
                        text=fact.text,
                        actor=SYSTEM_ACTOR,
                        category=categorize(fact.text),
                        run_id=job.run_id,
                    ).status
                    == WriteStatus.ADDED
                ]
            return adopted
        except BaseException:
            attempt.discard(list(attempt.stored))  # nothing half-written
            raise
        finally:
            memory_context_clear(scope=scope)


def _validate(*, attempt: _Attempt, facts: list[ExtractedFact]) -> list[ExtractedFact]:
    survivors = []
    for fact in facts:
        reason = guards.fact_rejection(fact.text, memory_attribution(memory_id=fact.id))
        if reason:
            metrics.post_extraction_rejected.labels(reason).inc()
            attempt.discard([fact.id])
        else:
            survivors.append(fact)
    return survivors
