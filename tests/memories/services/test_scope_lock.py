"""The scope lock under contention: writers queue in order for a bounded time, holding at most
one database connection per process while they wait, and other scopes never wait."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connections

from memories import locks, services
from memories.locks import _FifoGate, scope_lock_key, scope_write_lock
from memories.models import MemoryRow
from memories.scope import scope_of
from memories.types import BackendError, MemoryScope, ScopeBusy, WriteStatus
from tests.memories.conftest import advisory_lock_waiters, body
from tests.support import eventually


def test_the_gate_serves_waiters_in_arrival_order():
    gate = _FifoGate()
    assert gate.acquire(timeout=1)
    served: list[int] = []
    arrived = threading.Semaphore(0)

    def waiter(n: int) -> None:
        arrived.release()
        assert gate.acquire(timeout=30)
        served.append(n)
        gate.release()

    threads = []
    for n in range(5):
        thread = threading.Thread(target=waiter, args=(n,))
        thread.start()
        arrived.acquire()
        eventually(
            lambda: len(gate._queue), until=lambda queued, n=n: queued == n + 1, what="it queued"
        )
        threads.append(thread)
    gate.release()
    for thread in threads:
        thread.join()
    assert served == [0, 1, 2, 3, 4]


def test_a_waiter_that_times_out_leaves_the_queue_and_the_holder_may_re_enter():
    gate = _FifoGate()
    assert gate.acquire(timeout=1) and gate.acquire(timeout=1)  # re-entrant for its owner
    outcome: list[bool] = []
    thread = threading.Thread(target=lambda: outcome.append(gate.acquire(timeout=0.05)))
    thread.start()
    thread.join()
    assert outcome == [False] and not gate._queue
    gate.release()
    gate.release()
    other = threading.Thread(target=lambda: outcome.append(gate.acquire(timeout=1)))
    other.start()
    other.join()
    assert outcome == [False, True]


@pytest.mark.django_db(transaction=True)
def test_a_writer_that_waits_longer_than_the_limit_gets_503_with_retry_after(
    v1, scope, scope_lock_held, settings
):
    settings.SCOPE_LOCK_WAIT_SECONDS = 0.3
    response = v1.post("manage", body(scope, action="add", text="我习惯用深色主题写代码。"))
    assert response.status_code == 503, response.content
    assert response.json()["status"] == "backend_error" and response.json()["success"] is False
    assert response["Retry-After"] == str(settings.RETRY_AFTER_SECONDS)
    assert not MemoryRow.objects.filter(payload__user_id=scope.key).exists()


@pytest.mark.django_db(transaction=True)
def test_a_busy_scope_is_a_backend_error_that_the_worker_retries(
    scope, agent, scope_lock_held, settings
):
    settings.SCOPE_LOCK_WAIT_SECONDS = 0.2
    with pytest.raises(ScopeBusy) as raised, scope_write_lock(scope):
        pass
    assert isinstance(raised.value, BackendError)  # the queue's retry strategy backs off
    outcome = services.memory_add(scope=scope, text="我习惯用深色主题写代码。", actor=agent)
    assert outcome.status == WriteStatus.BACKEND_ERROR


@pytest.mark.django_db(transaction=True)
def test_writers_of_one_scope_queue_with_one_connection_and_other_scopes_go_on(
    scope, agent, scope_lock_held
):
    def add(text: str, who: MemoryScope = scope):
        try:
            return services.memory_add(scope=who, text=text, actor=agent)
        finally:
            connections.close_all()

    texts = [
        "我喜欢喝美式咖啡。",
        "我的显示器是二十七寸的。",
        "我周末常去爬山。",
        "我习惯早上六点起床。",
    ]
    with ThreadPoolExecutor(max_workers=len(texts)) as pool:
        queued = [pool.submit(add, text) for text in texts]
        eventually(advisory_lock_waiters, what="a writer waiting in PostgreSQL for the lock")
        gate = locks._gates[scope_lock_key(scope)]
        eventually(
            lambda: len(gate._queue),
            until=lambda queued: queued == len(texts) - 1,
            what="the other writers queued in this process",
        )
        # One writer of this process waits in PostgreSQL; the rest wait in the process.
        assert advisory_lock_waiters() == 1
        assert not any(future.done() for future in queued)
        bystander = scope_of(tenant_id="acme", user_id="bob")
        other = add("我喜欢喝乌龙茶。", bystander)
        assert other.status == WriteStatus.ADDED  # while the first scope is still held
        scope_lock_held()
        outcomes = [future.result(timeout=60) for future in queued]
    assert [o.status for o in outcomes] == [WriteStatus.ADDED] * len(texts)
    assert MemoryRow.objects.filter(payload__user_id=scope.key).count() == len(texts)
