"""A delete-user from another process, called while an import holds the scope's lock, runs
between two chunks and the import stops (``make reliability``: it starts a Django process)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from django.conf import settings

from memories.models import AuditEvent, MemoryRow
from memories.ops import portability
from memories.ops.portability import importing
from tests.lifecycle.test_retry_and_durability import worker_env
from tests.memories.conftest import waiting_for_advisory_lock
from tests.support import eventually

pytestmark = [pytest.mark.reliability, pytest.mark.django_db(transaction=True)]

DELETE = (
    "from memories.services import memory_delete_user;"
    "from memories.scope import scope_of;"
    "from memories.types import Actor, ActorKind;"
    "print(memory_delete_user(scope=scope_of(tenant_id={t!r}, user_id={u!r}),"
    " actor=Actor(kind=ActorKind.USER, id='owner')).status)"
)


def test_delete_user_waiting_for_an_import_goes_before_its_next_chunk(
    scope, agent, monkeypatch, tmp_path
):
    monkeypatch.setattr(importing, "IMPORT_CHUNK", 4)
    items = [{"content": f"用户的第{n}号项目使用简体中文文档。"} for n in range(12)]
    log = tmp_path / "delete.log"
    started: list[subprocess.Popen] = []

    def on_item(item: portability.ImportItemResult) -> None:
        if item.index != 0:
            return
        # The import holds the scope's lock for its first chunk: another process asks to
        # delete the user and queues for the lock in PostgreSQL.
        with log.open("ab") as out:
            started.append(
                subprocess.Popen(
                    [
                        sys.executable,
                        "manage.py",
                        "shell",
                        "-c",
                        DELETE.format(t=scope.tenant_id, u=scope.user_id),
                    ],
                    cwd=settings.BASE_DIR,
                    env=worker_env(),
                    stdout=out,
                    stderr=subprocess.STDOUT,
                )
            )

        def delete_queued() -> bool:
            assert started[0].poll() is None, log.read_text()[-3000:]
            return waiting_for_advisory_lock()

        eventually(delete_queued, what="the delete queued for the scope lock", timeout=120)

    try:
        report = portability.memory_import(scope=scope, items=items, actor=agent, on_item=on_item)
        assert started[0].wait(timeout=120) == 0, log.read_text()[-3000:]
    finally:
        for process in started:
            if process.poll() is None:
                process.kill()
                process.wait()

    assert log.read_text().strip().endswith("deleted"), log.read_text()[-3000:]
    # The delete ran between the first chunk and the second: the import stopped there.
    assert (report.status, report.count("added"), report.count("not_attempted")) == (
        "scope_deleted",
        4,
        8,
    )
    assert not MemoryRow.objects.filter(payload__user_id=scope.key).exists()
    tombstones = AuditEvent.objects.filter(user_id=scope.user_id, event=AuditEvent.Event.DELETE)
    assert tombstones.count() == 4
