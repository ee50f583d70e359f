"""delete-user leaves nothing a client sent for the scope: no run id, reference, ingest
metadata or message text in any column of any table (only the content-free tombstones and the
deletion mark, which name the scope and nothing else)."""

from __future__ import annotations

import pytest
from django.db import connection

from lifecycle.models import IngestJob
from memories.export_document import EXPORT_FORMAT
from tests.lifecycle.conftest import run_queue
from tests.lifecycle.test_forgetting import accept, task_for
from tests.memories.conftest import body

MARK = "zq7mark"  # in every id, reference and metadata value the client sends below


def tables_holding(needle: str) -> list[str]:
    """``table.column`` for every text, varchar, json or jsonb column of every table of the
    database (Django's, Mem0's, the queue's) whose value contains ``needle``."""
    found = []
    with connection.cursor() as cursor:
        cursor.execute(
            """
            SELECT c.table_schema, c.table_name, c.column_name
            FROM information_schema.columns c
            JOIN information_schema.tables t USING (table_schema, table_name)
            WHERE t.table_type = 'BASE TABLE'
              AND c.table_schema NOT IN ('pg_catalog', 'information_schema')
              AND c.data_type IN ('text', 'character varying', 'json', 'jsonb', 'ARRAY')
            """
        )
        columns = cursor.fetchall()
        for schema, table, column in columns:
            cursor.execute(
                f'SELECT count(*) FROM "{schema}"."{table}" WHERE "{column}"::text LIKE %s',
                [f"%{needle}%"],
            )
            if cursor.fetchone()[0]:
                found.append(f"{table}.{column}")
    return found


@pytest.mark.django_db(transaction=True)
def test_delete_user_leaves_no_run_id_reference_or_metadata_of_the_scope(v1_live, scope):
    manage = body(scope, action="add", text="用户偏好简洁的回答。", run_id=f"run-{MARK}-1")
    assert v1_live.post("manage", manage).json()["status"] == "added"
    document = {
        "format": EXPORT_FORMAT,
        "version": 1,
        "memories": [{"content": "用户喜欢先看结论。", "source_ref": f"ref-{MARK}"}],
    }
    assert v1_live.post("import", body(scope, document=document)).status_code == 200
    metadata = {"ticket": f"PROJ-1 {MARK} 整理周报"}
    decided = accept(v1_live, scope, task_for(1), run_id=f"run-{MARK}-2")
    # A decided job keeps its run id and metadata today; a waiting one has them too.
    v1_live.post("ingest", body(scope, messages=task_for(2), run_id=f"run-{MARK}-3",
                                metadata=metadata, source="task_completed"))  # fmt: skip
    run_queue()
    assert IngestJob.objects.get(id=decided).status in IngestJob.FINAL
    v1_live.post("ingest", body(scope, messages=task_for(3), run_id=f"run-{MARK}-4",
                                metadata=metadata, source="task_completed"))  # fmt: skip
    rejected = body(scope, messages=[{"role": "user", "content": "我的密码是芝麻开门"}],
                    run_id=f"run-{MARK}-5", source="task_completed")  # fmt: skip
    assert v1_live.post("ingest", rejected).json()["status"] == "rejected"
    assert tables_holding(MARK)  # the probe sees what was sent

    assert v1_live.post("delete-user", body(scope)).json()["status"] == "deleted"

    assert tables_holding(MARK) == [], tables_holding(MARK)


@pytest.mark.django_db(transaction=True)
def test_delete_user_leaves_another_scopes_run_ids_alone(v1_live, scope, other_scope):
    kept = body(other_scope, action="add", text="用户喜欢绿茶。", run_id=f"run-{MARK}-other")
    assert v1_live.post("manage", kept).json()["status"] == "added"
    accept(v1_live, other_scope, task_for(7), run_id=f"run-{MARK}-other-ingest")

    assert v1_live.post("delete-user", body(scope)).json()["status"] == "deleted"

    assert set(tables_holding(MARK)) >= {
        "lifecycle_runledger.run_id",
        "lifecycle_ingestjob.run_id",
        "memories_auditevent.run_id",
    }


@pytest.mark.django_db(transaction=True)
def test_the_service_log_names_a_scope_and_its_runs_by_a_keyed_digest_only(v1_live, caplog):
    """After delete-user nothing a client sent for the scope remains in the log either: the
    log names the scope and its run ids by a keyed digest (the deletion marks' key), never by
    the ids themselves."""
    from memories.digests import keyed_digest
    from memories.scope import scope_of

    scope = scope_of(tenant_id="acme", user_id=f"delme-{MARK}")
    caplog.set_level("INFO")
    ingest = body(scope, messages=task_for(1), run_id=f"run-{MARK}-9", source="task_completed")
    assert v1_live.post("ingest", ingest).status_code == 202
    run_queue()
    assert v1_live.post("delete-user", body(scope)).json()["status"] == "deleted"

    logged = "\n".join(record.getMessage() for record in caplog.records)
    assert "ingest queued" in logged, logged
    assert MARK not in logged, logged
    assert keyed_digest(scope.key)[:16] in logged, logged
