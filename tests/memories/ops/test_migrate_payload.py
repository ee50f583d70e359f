"""migrate_memory_payload on the real database and Mem0."""

from __future__ import annotations

import hashlib
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils.dateparse import parse_datetime

from memories.engine import get_engine
from memories.language import nlp
from memories.models import EntityRow, MemoryRow
from memories.services import memory_add
from memories.types import SCHEMA_VERSION, Category, WriteStatus
from tests.memories.ops.conftest import mem0_sql

pytestmark = pytest.mark.django_db

LEGACY_FIELDS = (
    "hash",
    "text_lemmatized",
    "schema_version",
    "status",
    "valid_until",
    "embedding_model",
)
FACTS = [
    "用户在“飞书”里写周报。",
    "The user deploys services with PostgreSQL.",
    "用户偏好简体中文技术方案。",
]


def add(scope, agent, text: str) -> str:
    outcome = memory_add(scope=scope, text=text, actor=agent, category=Category.FACT)
    assert outcome.status == WriteStatus.ADDED
    return str(outcome.memory_id)


def make_legacy(memory_id: str) -> None:
    """A row as an older version wrote it: no hash, lemmas, schema or governance fields."""
    drop = " - ".join(f"'{name}'" for name in LEGACY_FIELDS)
    mem0_sql(f"UPDATE poco_memories SET payload = payload - {drop} WHERE id = %s", (memory_id,))


def vectors() -> dict[str, str]:
    return dict(mem0_sql("SELECT id::text, vector::text FROM poco_memories"))


def run(*args: str) -> str:
    out, progress = StringIO(), StringIO()
    call_command("migrate_memory_payload", *args, stdout=out, stderr=progress)
    assert "payloads: " in progress.getvalue() and "/s, " in progress.getvalue()
    return out.getvalue()


@pytest.fixture
def legacy(scope, other_scope, agent) -> list[str]:
    ids = [
        add(scope, agent, FACTS[0]),
        add(scope, agent, FACTS[1]),
        add(other_scope, agent, FACTS[2]),
    ]
    for memory_id in ids[:2]:
        make_legacy(memory_id)
    # The third is a current row, whatever fields today's memory_add writes.
    mem0_sql(
        "UPDATE poco_memories SET payload = jsonb_build_object("
        "'status', 'active', 'valid_until', '2028-11-30T00:00:00+00:00') || payload WHERE id = %s",
        (ids[2],),
    )
    return ids


def payload(memory_id: str) -> dict:
    return MemoryRow.objects.get(id=memory_id).payload


def test_dry_run_counts_what_it_would_change_and_changes_nothing(legacy):
    before = {i: payload(i) for i in legacy}
    report = run()
    assert "scanned 3, would change 2" in report
    assert "hash 2" in report and "valid_until 2" in report and "text_lemmatized 2" in report
    assert "Dry run" in report
    assert {i: payload(i) for i in legacy} == before


def test_apply_fills_missing_fields_without_changing_ids_or_vectors(legacy):
    created = {i: payload(i)["created_at"] for i in legacy}
    before = vectors()
    assert "changed 2" in run("--apply")
    assert vectors() == before
    for memory_id in legacy[:2]:
        data = payload(memory_id)
        assert data["hash"] == hashlib.md5(data["data"].encode()).hexdigest()
        assert data["text_lemmatized"] == nlp.lemmatize_for_bm25(data["data"])
        assert data["schema_version"] == SCHEMA_VERSION and data["status"] == "active"
        assert data["embedding_model"] == get_engine().embedding_model
        lifetime = parse_datetime(data["valid_until"]) - parse_datetime(created[memory_id])
        assert lifetime == timedelta(days=730)


def test_a_second_apply_finds_nothing_left_to_do(legacy):
    run("--apply")
    assert "changed 0" in run("--apply")


def test_present_fields_are_never_overwritten(legacy):
    mem0_sql(
        "UPDATE poco_memories SET payload = payload "
        """|| '{"status": "superseded", "valid_until": null}' WHERE id = %s""",
        (legacy[0],),
    )
    run("--apply")
    data = payload(legacy[0])
    assert data["status"] == "superseded" and data["valid_until"] is None
    assert data["hash"]  # what was missing was still filled


def linked_ids() -> set[str]:
    return {i for row in EntityRow.objects.all() for i in row.linked_memory_ids}


def test_rebuild_entities_backs_up_then_links_trusted_memories_only(
    scope, agent, drop_entity_backups
):
    trusted = add(scope, agent, "用户在“飞书”里写周报。")
    superseded = add(scope, agent, "用户以前在“钉钉”里写周报。")
    noisy = add(scope, agent, "用户喜欢在“语雀”里记笔记。")
    mem0_sql(
        """UPDATE poco_memories SET payload = payload || '{"status": "superseded"}' """
        "WHERE id = %s",
        (superseded,),
    )
    # An old row that today's admission refuses (a credential in it).
    mem0_sql(
        "UPDATE poco_memories SET payload = payload "
        """|| '{"data": "我的密码是芝麻开门，在“语雀”里"}' WHERE id = %s""",
        (noisy,),
    )
    entities_before = EntityRow.objects.count()
    assert {trusted, superseded, noisy} <= linked_ids()

    dry = run("--rebuild-entities")
    assert "would link 1 trusted" in dry
    assert EntityRow.objects.count() == entities_before

    report = run("--apply", "--rebuild-entities")
    assert "linked 1 trusted" in report
    [backup] = [line.split("backup ")[1] for line in report.splitlines() if "backup " in line]
    assert mem0_sql(f'SELECT count(*) FROM "{backup}"')[0][0] == entities_before
    assert linked_ids() == {trusted}
    assert get_engine().entity_links(memory_id=trusted) >= 1
    assert get_engine().entity_links(memory_id=noisy) == 0


def test_apply_gives_a_memory_superseded_before_it_was_recorded_its_superseded_at(scope, agent):
    """Its end comes from its successor's created_at, or, once that is deleted, from the audit
    row of the supersede; without either it stays unknown."""
    from datetime import UTC, datetime

    from memories.models import AuditEvent
    from memories.services import memory_delete

    key = "preference.editor"
    first = memory_add(scope=scope, text="用户用 Vim 写代码", actor=agent, memory_key=key)
    since = datetime(2026, 3, 1, 1, tzinfo=UTC)
    second = memory_add(
        scope=scope, text="用户改用 VS Code 写代码", actor=agent, memory_key=key, created_at=since
    )
    third = memory_add(scope=scope, text="用户又改用 Zed 写代码", actor=agent, memory_key=key)
    assert second.superseded_id == first.memory_id and third.superseded_id == second.memory_id
    assert memory_delete(scope=scope, memory_id=third.memory_id, actor=agent).status == "deleted"
    unknown = add(scope, agent, "用户以前用 Emacs 写代码")
    mem0_sql(
        """UPDATE poco_memories SET payload = payload || '{"status": "superseded"}' """
        "WHERE id = %s",
        (unknown,),
    )
    for memory_id in (first.memory_id, second.memory_id):
        mem0_sql(
            "UPDATE poco_memories SET payload = payload - 'superseded_at' WHERE id = %s",
            (memory_id,),
        )

    run("--apply")

    assert parse_datetime(payload(first.memory_id)["superseded_at"]) == since
    supersede = AuditEvent.objects.get(memory_id=second.memory_id, status="superseded")
    assert parse_datetime(payload(second.memory_id)["superseded_at"]) == supersede.created_at
    assert "superseded_at" not in payload(unknown)
    assert "changed 0" in run("--apply")
