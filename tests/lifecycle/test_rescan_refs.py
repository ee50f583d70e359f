"""``manage.py memory_rescan`` also finds what older rules let into the id fields: a run id,
ingest metadata or an ingest refusal's run id holding free text or a secret. Counts only in a
dry run; ``--apply`` blanks them (a ledger row is dropped: its run id is all it is)."""

from __future__ import annotations

import uuid

import pytest

from lifecycle.models import IngestJob, IngestRejection, RunLedger
from memories.models import AuditEvent
from tests.memories.admission.fakes import j
from tests.memories.ops.test_rescan import run

pytestmark = pytest.mark.django_db

PASSWORD = j("password=", "hunter2024")
TOKEN = j("ghp_", "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8")


@pytest.fixture
def stale(scope):
    """Rows as the service wrote them before ids were checked, beside clean ones."""
    owned = {"tenant_id": scope.tenant_id, "user_id": scope.user_id}
    for run_id in (PASSWORD, "run-42"):
        AuditEvent.objects.create(
            **owned, memory_id=uuid.uuid4(), event="ADD", actor_kind="agent", run_id=run_id
        )
        RunLedger.objects.create(**owned, run_id=run_id, explicit_action="add")
        IngestRejection.objects.create(**owned, run_id=run_id, source="chat", reason="credential")
    IngestJob.objects.create(**owned, run_id=TOKEN, source="chat", metadata={"ticket": "PROJ-1"})
    IngestJob.objects.create(
        **owned, run_id="run-43", source="chat", metadata={"note": f"api_key: {TOKEN}"}
    )


def state() -> tuple[object, ...]:
    return (
        sorted(AuditEvent.objects.values_list("run_id", flat=True)),
        sorted(RunLedger.objects.values_list("run_id", flat=True)),
        sorted(IngestRejection.objects.values_list("run_id", flat=True)),
        sorted((job.run_id, str(job.metadata)) for job in IngestJob.objects.all()),
    )


def test_dry_run_counts_the_ids_and_changes_nothing(stale):
    before = state()

    output = run()

    assert "ids and references holding free text or a secret: 5" in output
    assert state() == before
    assert PASSWORD not in output and TOKEN not in output


def test_apply_blanks_them_and_keeps_clean_ids(stale):
    run("--apply")

    assert state() == (
        ["", "run-42"],
        ["run-42"],
        ["", "run-42"],
        [("", "{'ticket': 'PROJ-1'}"), ("run-43", "{}")],
    )
    assert "ids and references holding free text or a secret: 0" in run()
