"""``manage.py memory_rescan [--apply]``: admission re-run over what older rules let in.

Stale data is planted the way it got in before the door existed: straight through the engine,
with the audit rows the old services wrote. The command must find it in both stores (memories,
audit text), report counts only, and with ``--apply`` remove it completely.
"""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from memories.engine import get_engine
from memories.models import AuditEvent, MemoryRow
from memories.ops.rescan import memory_rescan
from memories.services import memory_add, our_metadata
from memories.types import MemoryScope

pytestmark = pytest.mark.django_db

PHONE_FACT = "有事打用户手机 139.1234.5678"
PASSWORD_FACT = "用户家里的 WiFi 密码是芝麻开门"
KEPT = "用户偏好简洁的回答。"
CORRECTED = "用户偏好简洁的回答，结论先行。"
SECRETS = ("1234.5678", "芝麻开门")


def audit(scope: MemoryScope, memory_id: str, event: str, old: str = "", new: str = "") -> None:
    AuditEvent.objects.create(
        memory_id=memory_id,
        tenant_id=scope.tenant_id,
        user_id=scope.user_id,
        event=event,
        actor_kind="agent",
        actor_id="old-agent",
        source="manage",
        old_text=old,
        new_text=new,
    )


@pytest.fixture
def stale(scope, agent):
    """A memory with a phone number, and a clean memory once corrected through a password."""
    engine = get_engine()
    phone_id = engine.add_fact(
        scope_key=scope.key,
        text=PHONE_FACT,
        metadata=our_metadata(category="fact", source="manage"),
    )
    audit(scope, phone_id, "ADD", new=PHONE_FACT)
    kept_id = memory_add(scope=scope, text=KEPT, actor=agent).memory_id
    assert kept_id
    engine.update_fact(memory_id=kept_id, text=PASSWORD_FACT, metadata={})
    audit(scope, kept_id, "UPDATE", old=KEPT, new=PASSWORD_FACT)
    engine.update_fact(memory_id=kept_id, text=CORRECTED, metadata={})
    audit(scope, kept_id, "UPDATE", old=PASSWORD_FACT, new=CORRECTED)
    return phone_id, kept_id


def stores() -> tuple[object, ...]:
    audit_rows = sorted(AuditEvent.objects.values_list("memory_id", "old_text", "new_text"))
    return sorted(MemoryRow.objects.values_list("id", "payload__data")), audit_rows


def run(*args: str) -> str:
    out = StringIO()
    call_command("memory_rescan", *args, stdout=out)
    return out.getvalue()


def test_dry_run_reports_by_reason_and_changes_nothing(stale):
    before = stores()

    output = run()

    assert "memories refused: 1 (sensitive_identifier 1)" in output
    assert "audit rows holding refused text: 3 (credential 2, sensitive_identifier 1)" in output
    assert "Dry run: nothing changed" in output
    assert not [secret for secret in SECRETS if secret in output]
    assert stores() == before


def test_apply_deletes_refused_memories_and_blanks_old_secrets(stale, scope):
    phone_id, kept_id = stale
    engine = get_engine()

    output = run("--apply")

    assert "deleted 1 memories; blanked 2 audit rows; ids and references blanked: 0." in output
    assert not [secret for secret in SECRETS if secret in output]
    # The refused memory is gone everywhere, through the service's delete.
    assert list(MemoryRow.objects.values_list("payload__data", flat=True)) == [CORRECTED]
    assert engine.entity_links(memory_id=phone_id) == 0
    tombstones = AuditEvent.objects.filter(memory_id=phone_id)
    assert {(e.event, e.old_text, e.new_text) for e in tombstones} == {
        ("ADD", "", ""),
        ("DELETE", "", ""),
    }
    # The clean memory keeps its rows and its clean text; only the password side is blanked.
    leftovers = str(stores())
    assert not [secret for secret in SECRETS if secret in leftovers]
    assert AuditEvent.objects.filter(memory_id=kept_id, old_text=KEPT, new_text="").exists()
    assert AuditEvent.objects.filter(memory_id=kept_id, old_text="", new_text=CORRECTED).exists()
    # Nothing is left to find.
    report = memory_rescan()
    assert (report.memories, report.audit) == ({}, {})
