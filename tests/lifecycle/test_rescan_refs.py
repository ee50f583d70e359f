"""``manage.py memory_rescan`` also finds what older rules let into the id fields: a run id,
ingest metadata or an ingest refusal's run id holding free text or a secret. Counts only in a
dry run; ``--apply`` blanks them (a ledger row is dropped: its run id is all it is)."""

from __future__ import annotations

import uuid

import pytest

from lifecycle.models import IngestJob, IngestRejection, RunLedger
from memories.engine import get_engine
from memories.models import AuditEvent, MemoryRow
from memories.services import memory_add, our_metadata
from memories.types import Source
from tests.memories.admission.fakes import j
from tests.memories.ops.test_rescan import run

pytestmark = pytest.mark.django_db

PASSWORD = j("password=", "hunter2024")
TOKEN = j("ghp_", "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8")
PHONE = j("139", "12345678")


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


@pytest.fixture
def stale_memories(scope, agent):
    """Memories whose payload keeps a run id as a reference: an agent run's add (``source_ref``,
    as ``mcp_stdio --run-id`` wrote before it checked) and an ingest's fact (``origin_run_id``),
    beside a memory of a clean run."""
    phone_run = memory_add(scope=scope, text="用户偏好简洁的回答。", actor=agent, run_id=PHONE)
    clean_run = memory_add(scope=scope, text="用户住在杭州。", actor=agent, run_id="run-42")
    ingested = get_engine().add_fact(
        scope_key=scope.key,
        text="用户养了一只猫。",
        metadata={
            **our_metadata(category="fact", source=Source.INGEST, source_ref="run-43"),
            "origin_run_id": TOKEN,
        },
    )
    return phone_run.memory_id, clean_run.memory_id, ingested


def payload_refs() -> list[tuple[str, str, str]]:
    return sorted(
        (row.content, row.payload.get("source_ref"), row.payload.get("origin_run_id"))
        for row in MemoryRow.objects.all()
    )


def test_dry_run_counts_the_references_kept_in_memory_payloads(stale_memories):
    before = payload_refs()

    output = run()

    assert (
        "ids and references holding free text or a secret: 3 "
        "(audit run_id 1, memory origin_run_id 1, memory source_ref 1)"
    ) in output
    assert payload_refs() == before
    assert PHONE not in output and TOKEN not in output


def test_apply_blanks_them_in_the_payload_and_counts_what_it_blanked(stale_memories):
    output = run("--apply")

    assert payload_refs() == [
        ("用户住在杭州。", "run-42", None),
        ("用户偏好简洁的回答。", "", None),
        ("用户养了一只猫。", "run-43", ""),
    ]
    assert (
        "deleted 0 memories; blanked 0 audit rows; ids and references blanked: 3 "
        "(audit run_id 1, memory origin_run_id 1, memory source_ref 1)."
    ) in output
    assert PHONE not in output and TOKEN not in output
    assert "ids and references holding free text or a secret: 0" in run()


def test_apply_counts_the_pipeline_ids_it_blanked(stale):
    output = run("--apply")

    assert (
        "ids and references blanked: 5 (audit run_id 1, ingest job metadata 1, "
        "ingest job run_id 1, ingest refusal run_id 1, run ledger run_id 1)."
    ) in output
