"""Who may write, when: the user's save switch, scheduled runs, one writer per run."""

from __future__ import annotations

from django.db import IntegrityError, transaction

from lifecycle.models import RunLedger
from memories.selectors import memory_switches
from memories.services import run_writer_exclusive
from memories.types import MemoryScope

# Scheduled, backfill and nightly runs never save, whatever the user's switch says.
SCHEDULED_RUN_KINDS = frozenset({"scheduled", "scheduled_backfill", "nightly"})


def is_scheduled(run_kind: str) -> bool:
    """Whether a run of this kind is scheduled, in any case and with a hyphen or an underscore
    ("Nightly", "scheduled-backfill"), read as an ingest's source is."""
    return run_kind.strip().lower().replace("-", "_") in SCHEDULED_RUN_KINDS


def write_refusal(*, scope: MemoryScope, run_kind: str) -> str | None:
    """The reason this scope/run may not change memory now, or None."""
    if is_scheduled(run_kind):
        return "scheduled_run"
    if not memory_switches(scope=scope).memory_save_enabled:
        return "memory_save_disabled"
    return None


def register_explicit_writer(*, scope: MemoryScope, run_id: str, action: str) -> None:
    """Record that this run's agent called /manage. Idempotent and safe under concurrency."""
    if not run_id:
        return
    try:
        with run_writer_exclusive(scope=scope, run_id=run_id), transaction.atomic():
            RunLedger.objects.get_or_create(
                tenant_id=scope.tenant_id,
                user_id=scope.user_id,
                run_id=run_id,
                defaults={"explicit_action": action},
            )
    except IntegrityError:
        pass  # a concurrent call registered it first: the row exists, which is all we need


def has_explicit_writer(*, scope: MemoryScope, run_id: str) -> bool:
    if not run_id:
        return False
    return RunLedger.objects.filter(
        tenant_id=scope.tenant_id, user_id=scope.user_id, run_id=run_id
    ).exists()
