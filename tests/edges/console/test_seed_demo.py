"""manage.py seed_demo: a demo user and 90 days of realistic memory, dev mode only, idempotent."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from edges.management.commands.seed_demo import DEMO_MEMORIES
from memories.models import AuditEvent
from memories.scope import scope_for_user
from memories.selectors import memory_list, memory_overview, memory_uses, topic_heatmap
from memories.types import Category, ListOrder, ListQuery

pytestmark = pytest.mark.django_db


def test_seed_demo_refuses_in_production(settings):
    settings.PRODUCTION = True
    with pytest.raises(CommandError, match="dev mode"):
        call_command("seed_demo")
    assert not get_user_model().objects.filter(username="demo").exists()


def test_seed_demo_builds_a_realistic_memory_once(settings, tmp_path):
    settings.DATA_DIR = tmp_path
    out = StringIO()
    call_command("seed_demo", stdout=out)
    password = (tmp_path / "demo_password").read_text().strip()
    assert f"password {password!r}" in out.getvalue()
    user = get_user_model().objects.get(username="demo")
    assert user.check_password(password)

    scope = scope_for_user(user)
    overview = memory_overview(scope=scope)
    corrections = sum(len(m.corrections) for m in DEMO_MEMORIES)
    assert overview.total == len(DEMO_MEMORIES)
    assert set(overview.categories) == {c.value for c in Category}
    assert len(overview.sources) >= 4
    # Corrections spread over 90 days; one memory is pinned (始终使用) as the demo is seeded.
    assert 0 < overview.updated_30d <= corrections
    active_days = [d for d in overview.daily if d.adds or d.updates]
    assert len(active_days) >= 20 and active_days[0].day < overview.daily[30].day
    assert {"Poco", "飞书", "林清"} <= {t.text for t in topic_heatmap(scope=scope, limit=100)}
    updates = AuditEvent.objects.filter(user_id="demo", event="UPDATE")
    assert updates.exclude(status="pinned").count() == corrections
    assert updates.filter(status="pinned").count() == 1
    # Where each came from: the agents' memories name the run that wrote them; some were used.
    records = memory_list(scope=scope, query=ListQuery(page_size=100)).items
    runs = {r.metadata.get("source_ref") for r in records if r.source in ("manage", "ingest")}
    assert runs and all(run and run.startswith("run-") for run in runs)
    assert memory_list(scope=scope, query=ListQuery(order=ListOrder.USED)).items[0].id in {
        r.id for r in records
    } and memory_uses(scope=scope, memory_ids=[r.id for r in records])

    again = StringIO()
    call_command("seed_demo", stdout=again)  # idempotent: nothing added, same password
    assert "0 added, 0 corrected" in again.getvalue()
    assert f"password {password!r}" in again.getvalue()
    assert memory_overview(scope=scope).total == len(DEMO_MEMORIES)
    assert AuditEvent.objects.filter(user_id="demo", event="UPDATE").count() == corrections + 1


def test_seed_demo_writes_through_admission(settings, tmp_path, monkeypatch):
    """seed_demo has no door of its own: what admission refuses stops it, nothing is stored,
    and what it stores is the admitted text."""
    from edges.management.commands import seed_demo

    settings.DATA_DIR = tmp_path
    leaky = seed_demo.DemoMemory(
        1, Category.FACT, seed_demo.Source.MANAGE, "用户手机 139.1234.5678"
    )
    monkeypatch.setattr(seed_demo, "DEMO_MEMORIES", (*DEMO_MEMORIES[:2], leaky))
    with pytest.raises(CommandError, match="rejected sensitive_identifier"):
        call_command("seed_demo", stdout=StringIO())
    scope = scope_for_user(get_user_model().objects.get(username="demo"))
    stored = [r.content for r in memory_list(scope=scope, query=ListQuery(page_size=50)).items]
    assert len(stored) == 2 and not [text for text in stored if "1234" in text]
    # Stored as typed: the demo's “” are the user's own marks, not changed on the way in.
    typed = {t for m in DEMO_MEMORIES[:2] for t in (m.text, m.final_text) if t}
    assert set(stored) <= typed
