"""What ``verify`` checks in its own process, with the release's code and the service's database.

Some conditions cannot be produced through the service's doors: whether an SDK internal the
engine relies on is still there, how a search answers when its vector store is unreachable,
what the queue's retry policy decides, what a memory written by an older version holds, and what
a deleted scope leaves in the audit trail and the queue. ``verify`` runs them here, so it must
run with the release (the same packages as the service: ``release.same_packages``) and against
the service's database (``release.same_database``); the report marks these findings as
exercised in the verify process rather than through the service.
"""

from __future__ import annotations

import datetime
import logging
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from importlib import import_module
from typing import Any

from django.conf import settings
from django.db.models import Q
from django.test.utils import override_settings

from edges.gate.versions import package_versions
from memories.types import MemoryScope

# The fields a payload written before the current schema lacks (memories.ops.payload_migration
# fills them; an update in place must restore them too). ``valid_until`` missing means "never
# expires" and stays so.
LEGACY_FIELDS = ("hash", "text_lemmatized", "schema_version", "status", "embedding_model")


def same_packages(service_packages: dict[str, Any]) -> tuple[bool, str]:
    """The verify process runs the packages the service reports (else its in-process checks
    would prove another release)."""
    mine = package_versions()
    differ = {
        name: (mine.get(name), service_packages.get(name))
        for name in mine
        if service_packages.get(name) != mine.get(name)
    }
    if differ:
        shown = ", ".join(f"{n} here {a}, service {b}" for n, (a, b) in differ.items())
        return False, f"verify does not run the service's release: {shown}"
    return True, ", ".join(f"{n} {v}" for n, v in mine.items())


def stored_here(memory_id: str) -> bool:
    from memories.models import MemoryRow

    return MemoryRow.objects.filter(id=memory_id).exists()


def sdk_checks() -> list[tuple[str, bool, str]]:
    """The SDK-internals part of ``memory_preflight``: Mem0 starts, every internal is there."""
    from memories.ops.preflight import sdk_checks as checks

    return [(check.name, check.ok, check.detail) for check in checks()]


# --- ingest: the queue's retry policy, as the worker runs it ----------------------------------
@dataclass(frozen=True)
class RetryDecisions:
    backend_delays: tuple[float | None, ...]  # seconds after attempts 0, 1, 2, 3 (None: final)
    deterministic: tuple[tuple[str, bool], ...]  # (failure, retried?)


def retry_decisions() -> RetryDecisions:
    """Ask the ingest task's own retry strategy what it does after each kind of failure."""
    from procrastinate.jobs import Job

    from lifecycle import tasks
    from lifecycle.ingest import IngestFailed
    from memories.types import BackendError

    strategy = tasks.run_ingest.retry_strategy
    assert strategy is not None

    def job(attempts: int) -> Job:
        return Job(
            id=0,
            queue=tasks.INGEST_QUEUE,
            lock=None,
            queueing_lock=None,
            task_name=tasks.run_ingest.name,
            attempts=attempts,
        )

    delays: list[float | None] = []
    for attempts in range(4):
        now = datetime.datetime.now(datetime.UTC)
        decision = strategy.get_retry_decision(
            exception=BackendError("temporary backend failure"), job=job(attempts)
        )
        if decision is None or decision.retry_at is None:
            delays.append(None)
        else:
            delays.append(round((decision.retry_at - now).total_seconds()))
    deterministic = []
    for failure in (IngestFailed("language_drift"), ValueError("invalid fact")):
        decision = strategy.get_retry_decision(exception=failure, job=job(0))
        deterministic.append((f"{type(failure).__name__}({failure})", decision is not None))
    return RetryDecisions(tuple(delays), tuple(deterministic))


def drift_guard() -> tuple[bool, str]:
    """The language guard the worker applies to every extracted fact: an English fact from a
    Chinese conversation is drift, the Chinese fact is not, and a stricter instruction exists
    for the one retry."""
    from lifecycle import guards

    language = guards.dominant_language(["以后所有技术方案都使用简体中文。"])
    english = "User prefers Simplified Chinese for technical proposals."
    chinese = "用户偏好所有技术方案使用简体中文"
    ok = (
        language == "zh"
        and guards.drifted(english, "zh")
        and not guards.drifted(chinese, "zh")
        and bool(guards.LANGUAGE_RETRY_INSTRUCTION.get("zh"))
    )
    return ok, (
        f"conversation language {language!r}; English fact drifted: "
        f"{guards.drifted(english, 'zh')}; Chinese fact drifted: "
        f"{guards.drifted(chinese, 'zh')}; retry instruction present: "
        f"{bool(guards.LANGUAGE_RETRY_INSTRUCTION.get('zh'))}"
    )


# --- an outage -------------------------------------------------------------------------------
# What logs every failed connection of the outage made on purpose (the report has the result).
OUTAGE_LOGGERS = ("psycopg.pool", "memories.engine")


@contextmanager
def _quiet(*names: str) -> Iterator[None]:
    loggers = [logging.getLogger(name) for name in names]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)


@contextmanager
def _engine_reaching(connection_string: str) -> Iterator[None]:
    """This process's engine replaced, for the block, by one whose stores use
    ``connection_string``."""
    from memories.engine import adapter, build_engine, get_engine

    get_engine()  # the real engine exists first, so it is what comes back
    engine = build_engine(connection_string=connection_string)
    previous, adapter._engine = adapter._engine, engine
    try:
        yield
    finally:
        adapter._engine = previous
        engine.close()


def search_while_unreachable(scope: MemoryScope, query: str) -> tuple[bool, str]:
    """A search whose vector store is a PostgreSQL that does not answer (a socket folder with
    nothing listening): it must answer ``available=false`` with a reason, never zero hits."""
    from memories.selectors import memory_search

    with (
        tempfile.TemporaryDirectory(prefix="poco-gate-outage-") as nowhere,
        _quiet(*OUTAGE_LOGGERS),
    ):
        url = f"postgresql://postgres@/postgres?host={nowhere}&connect_timeout=1"
        try:
            # A pool that gives up after a second: the answer, not the wait, is the finding.
            with override_settings(DB_POOL_TIMEOUT=1.0), _engine_reaching(url):
                result = memory_search(scope=scope, query=query, top_k=5)
        except Exception as exc:  # noqa: BLE001 - an exception instead of an answer is the finding
            return False, f"the search raised {type(exc).__name__}: {exc}"[:300]
    return (
        result.available is False and bool(result.error_reason) and not result.items,
        f"available={result.available}, error_reason={result.error_reason!r}, "
        f"{len(result.items)} items",
    )


# --- old data --------------------------------------------------------------------------------
def strip_payload(memory_id: str) -> None:
    """Make one memory look as an older version wrote it (no v2 payload fields)."""
    from memories.engine import get_engine
    from memories.engine.internals import remove_payload_fields

    remove_payload_fields(get_engine(), memory_id=memory_id, fields=LEGACY_FIELDS)


def payload_of(memory_id: str) -> dict[str, Any]:
    from memories.models import MemoryRow

    row = MemoryRow.objects.filter(id=memory_id).defer("vector").first()
    return dict(row.payload or {}) if row else {}


# --- the user API door ----------------------------------------------------------------------
@dataclass(frozen=True)
class ConsoleUser:
    username: str
    scope: MemoryScope
    session_key: str


def console_user(scope: MemoryScope) -> ConsoleUser:
    """A throwaway signed-in user whose memory is ``scope`` (an identity-provider mapping, as a
    user signed in through OIDC has), with a session the console's cookie can carry."""
    from django.contrib.auth import (
        BACKEND_SESSION_KEY,
        HASH_SESSION_KEY,
        SESSION_KEY,
        get_user_model,
    )

    from accounts.models import OidcIdentity

    username = f"{scope.tenant_id}-{scope.user_id}"[:150]
    user = get_user_model().objects.create(username=username)
    user.set_unusable_password()
    user.save()
    OidcIdentity.objects.create(
        user=user,
        issuer="poco-memory-gate",
        subject=username,
        scope_tenant=scope.tenant_id,
        scope_user=scope.user_id,
    )
    store = import_module(settings.SESSION_ENGINE).SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.create()
    return ConsoleUser(username, scope, str(store.session_key))


def drop_console_user(user: ConsoleUser) -> None:
    from django.contrib.auth import get_user_model

    store = import_module(settings.SESSION_ENGINE).SessionStore(session_key=user.session_key)
    store.delete()
    get_user_model().objects.filter(username=user.username).delete()


def cookie_names() -> tuple[str, str]:
    return str(settings.SESSION_COOKIE_NAME), str(settings.CSRF_COOKIE_NAME)


def csrf_secret() -> str:
    return uuid.uuid4().hex  # 32 characters of [0-9a-f], a well-formed CSRF secret


# --- clean-up counts -------------------------------------------------------------------------
def scope_leftovers(scope: MemoryScope) -> dict[str, int]:
    """What a deleted throwaway scope still holds beyond memories and entities: audit rows (the
    history) and those still carrying text, ingest jobs and those still carrying messages, and
    queue jobs not yet finished."""
    from procrastinate.contrib.django.models import ProcrastinateJob

    from lifecycle.models import IngestJob
    from memories.models import AuditEvent, EntityRow

    audit = AuditEvent.objects.filter(tenant_id=scope.tenant_id, user_id=scope.user_id)
    jobs = IngestJob.objects.filter(tenant_id=scope.tenant_id, user_id=scope.user_id)
    job_ids = [str(i) for i in jobs.values_list("id", flat=True)]
    queued = ProcrastinateJob.objects.filter(
        args__job_id__in=job_ids, status__in=("todo", "doing")
    ).count()
    return {
        "memories_here": _memories(scope),
        "entities_here": EntityRow.objects.filter(payload__user_id=scope.key).count(),
        "history": audit.count(),
        "history_with_text": audit.filter(~Q(old_text="") | ~Q(new_text="")).count(),
        "ingest_jobs": len(job_ids),
        "ingest_jobs_with_messages": jobs.exclude(messages=[]).count(),
        "queue_jobs_pending": queued,
    }


def _memories(scope: MemoryScope) -> int:
    from memories.selectors import scope_rows

    return scope_rows(scope).count()
