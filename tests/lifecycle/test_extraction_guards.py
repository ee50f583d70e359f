"""Guarded extraction against a scripted remote LLM.

Everything is real — PostgreSQL, the embedder, Mem0, the OpenAI client, the procrastinate
worker — except the remote LLM, which is a local HTTP server answering from a script
(``tests/lifecycle/fake_llm.py``). What Mem0 writes and takes back in between is observed with
database triggers on rows and entity links, so rows that existed only for a moment are still
accounted for.
"""

from __future__ import annotations

import psycopg
import pytest
from django.db import connection

from lifecycle import guards
from lifecycle.models import IngestJob
from memories.engine import adapter, build_engine, get_engine
from memories.engine.adapter import connection_string_for
from memories.models import AuditEvent, EntityRow, MemoryRow
from tests.lifecycle.conftest import run_queue
from tests.lifecycle.fake_llm import FakeLLM, fact, prompt_section
from tests.memories.conftest import body
from tests.support import eventually

TASK = [
    {
        "role": "user",
        "content": "以后所有技术方案都使用简体中文，优先考虑易维护性。这次先生成一份周报。",
    },
    {"role": "assistant", "content": "好的，周报已生成。已确认：后续技术方案统一使用简体中文。"},
]
ENGLISH = [
    fact("User prefers Simplified Chinese for all technical proposals."),
    fact("User prioritizes maintainability in the Poco project."),
]
CHINESE = "用户偏好所有技术方案使用简体中文"
GOOD = "用户在“Poco”项目中优先考虑易维护性"
TOKEN = "ghp_" + "k8Qz2LmX9vTq4RbN7wYc1JdE5hFs3GpA6uVo"
BAD = [
    fact(f"用户在团队持续集成流水线里使用的个人访问令牌是 {TOKEN}"),
    fact("用户的周报模板保存在 /home/alice/docs/weekly.md 文件里"),
    fact("用户习惯参考 https://wiki.example.com/poco 上的写作规范"),
    fact("用户喜欢简洁直接的回答风格", attributed_to="system"),
    fact("用户习惯每周一上午整理周报", attributed_to=None),
]


# --- fixtures ---------------------------------------------------------------------------------
@pytest.fixture
def fake_llm(settings, monkeypatch):
    """``start(script, then=…)``: an engine whose LLM is a scripted local HTTP endpoint."""
    get_engine()  # the real engine exists first, so it is what monkeypatch restores
    started: list[tuple[FakeLLM, adapter.Mem0Adapter]] = []

    def start(script=(), *, then=None):
        llm = FakeLLM(script, then=then).start()
        settings.LLM_BASE_URL = llm.base_url
        settings.LLM_MODEL = "fake"
        engine = build_engine(
            connection_string=connection_string_for(connection.settings_dict["NAME"])
        )
        # One HTTP call per extraction: retrying is the queue's job, not the client's.
        engine._memory.llm.client = engine._memory.llm.client.with_options(max_retries=0)
        monkeypatch.setattr(adapter, "_engine", engine)
        started.append((llm, engine))
        return llm, engine

    yield start
    for llm, engine in started:
        engine.close()
        llm.close()


class PgWrites:
    """Rows inserted into poco_memories and entity rows written, logged by triggers."""

    def __init__(self, dsn: str) -> None:
        self.dsn = dsn

    def _rows(self, table: str) -> list[tuple[str, dict]]:
        with psycopg.connect(self.dsn) as conn:
            return conn.execute(
                "SELECT row_id, payload FROM test_write_log WHERE tbl = %s ORDER BY seq", (table,)
            ).fetchall()

    def memories(self) -> dict[str, str]:
        """id -> text of every memory row ever inserted during the test."""
        return {row_id: payload["data"] for row_id, payload in self._rows("poco_memories")}

    def payloads(self) -> list[dict]:
        return [payload for _, payload in self._rows("poco_memories")]

    def ever_linked(self) -> set[str]:
        """Every memory id an entity row was ever linked to during the test."""
        linked: set[str] = set()
        for _, payload in self._rows("poco_memories_entities"):
            linked.update(payload.get("linked_memory_ids") or [])
        return linked


@pytest.fixture
def pg_writes(transactional_db):
    dsn = connection_string_for(connection.settings_dict["NAME"])
    get_engine()  # Mem0's tables exist
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(
            "CREATE TABLE test_write_log (seq bigserial, tbl text, op text, row_id text, "
            "payload jsonb)"
        )
        conn.execute(
            "CREATE FUNCTION test_write_log_fn() RETURNS trigger LANGUAGE plpgsql AS $$ "
            "BEGIN INSERT INTO test_write_log (tbl, op, row_id, payload) "
            "VALUES (TG_TABLE_NAME, TG_OP, NEW.id::text, NEW.payload); RETURN NEW; END $$"
        )
        conn.execute(
            "CREATE TRIGGER test_write_log_memories AFTER INSERT ON poco_memories "
            "FOR EACH ROW EXECUTE FUNCTION test_write_log_fn()"
        )
        conn.execute(
            "CREATE TRIGGER test_write_log_entities AFTER INSERT OR UPDATE "
            "ON poco_memories_entities FOR EACH ROW EXECUTE FUNCTION test_write_log_fn()"
        )
    yield PgWrites(dsn)
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("DROP TRIGGER IF EXISTS test_write_log_memories ON poco_memories")
        conn.execute("DROP TRIGGER IF EXISTS test_write_log_entities ON poco_memories_entities")
        conn.execute("DROP FUNCTION IF EXISTS test_write_log_fn()")
        conn.execute("DROP TABLE IF EXISTS test_write_log")


# --- helpers ----------------------------------------------------------------------------------
def submit(v1, scope, messages=TASK, run_id="run-g") -> str:
    answer = v1.post(
        "ingest", body(scope, run_id=run_id, source="task_completed", messages=messages)
    )
    assert answer.status_code == 202, answer.content
    return answer.json()["job_id"]


def scope_rows(scope) -> list[MemoryRow]:
    return list(MemoryRow.objects.filter(payload__user_id=scope.key))


def scope_entities(scope) -> list[EntityRow]:
    return list(EntityRow.objects.filter(payload__user_id=scope.key))


def run_until_final(job_id: str, timeout: float = 30.0) -> IngestJob:
    """Drive a real worker (due jobs only) until the job is decided, as a deployment would."""

    def after_a_run() -> IngestJob:
        run_queue()
        return IngestJob.objects.get(id=job_id)

    return eventually(
        after_a_run,
        until=lambda job: job.status in IngestJob.FINAL,
        what=f"job {job_id} decided",
        timeout=timeout,
        interval=0.2,
    )


def assert_gone(engine, memory_ids) -> None:
    for memory_id in memory_ids:
        assert not MemoryRow.objects.filter(id=memory_id).exists(), memory_id
        assert engine.entity_links(memory_id=memory_id) == 0, memory_id


# --- language drift ---------------------------------------------------------------------------
def test_drift_is_physically_undone_then_retried_with_a_stricter_instruction(
    v1_live, scope, fake_llm, pg_writes
):
    llm, engine = fake_llm([ENGLISH, [fact(CHINESE)]])
    job_id = submit(v1_live, scope)
    run_queue()

    job = IngestJob.objects.get(id=job_id)
    assert job.status == IngestJob.Status.SUCCEEDED, job.reason
    assert llm.calls == 2
    [row] = scope_rows(scope)
    assert row.content == CHINESE and row.payload["attributed_to"] == "user"
    assert job.inserted_count == 1 and job.memory_ids == [str(row.id)]

    # Round one really wrote rows and entity links …
    written = pg_writes.memories()
    english = {f["text"] for f in ENGLISH}
    first_round = {memory_id for memory_id, text in written.items() if text in english}
    assert len(first_round) == 2 and len(written) == 3
    assert first_round <= pg_writes.ever_linked()
    # … and all of it is physically gone.
    assert_gone(engine, first_round)
    for entity in scope_entities(scope):
        assert set(entity.linked_memory_ids) <= {str(row.id)}, entity.payload["data"]
    assert not [e for e in scope_entities(scope) if e.payload["data"] == "Simplified Chinese"]

    # The retry carried the stronger instruction, on top of the rules, and did not see the
    # English facts as existing memories.
    first, second = llm.prompts
    stricter = guards.LANGUAGE_RETRY_INSTRUCTION["zh"]
    assert stricter not in first
    instructions = prompt_section(second, "Custom Instructions")
    assert stricter in instructions and "Memory rules (follow strictly)" in instructions
    assert "Simplified Chinese" not in prompt_section(second, "Existing Memories")
    assert "以后所有技术方案都使用简体中文" in prompt_section(second, "New Messages")

    # The raw candidate was never stored as a memory (infer=False stamps the message role).
    raw = {m["content"] for m in TASK}
    for payload in pg_writes.payloads():
        assert payload["data"] not in raw and "这次" not in payload["data"]
        assert "role" not in payload


def test_drift_twice_fails_without_residue_or_queue_retry(v1_live, scope, fake_llm, pg_writes):
    llm, engine = fake_llm([ENGLISH, ENGLISH])  # a third call would get HTTP 500
    job_id = submit(v1_live, scope)
    run_queue()
    run_queue()  # nothing is left to retry

    job = IngestJob.objects.get(id=job_id)
    assert job.status == IngestJob.Status.FAILED
    assert job.reason == "language_drift"
    assert job.attempts == 1 and job.inserted_count == 0 and job.memory_ids == []
    assert llm.calls == 2
    written = pg_writes.memories()
    assert len(written) == 4  # two rounds were written …
    assert_gone(engine, written)  # … and taken back
    assert scope_rows(scope) == [] and scope_entities(scope) == []
    assert not AuditEvent.objects.exists()
    for payload in pg_writes.payloads():
        assert "role" not in payload  # no infer=False fallback with the raw text


# --- post-extraction validation ---------------------------------------------------------------
def test_invalid_facts_are_deleted_with_their_links(v1_live, scope, fake_llm, pg_writes):
    llm, engine = fake_llm([[fact(GOOD), *BAD]])
    job_id = submit(v1_live, scope)
    run_queue()

    job = IngestJob.objects.get(id=job_id)
    assert job.status == IngestJob.Status.SUCCEEDED, job.reason
    assert llm.calls == 1
    [row] = scope_rows(scope)
    assert row.content == GOOD
    assert job.inserted_count == 1 and job.memory_ids == [str(row.id)]

    written = pg_writes.memories()
    bad = {memory_id for memory_id, text in written.items() if text != GOOD}
    assert len(bad) == len(BAD)  # every bad fact was stored by Mem0 first
    assert bad & pg_writes.ever_linked()  # with entity links
    assert_gone(engine, bad)
    for entity in scope_entities(scope):
        assert set(entity.linked_memory_ids) <= {str(row.id)}
    assert list(AuditEvent.objects.values_list("memory_id", flat=True)) == [row.id]
    assert TOKEN not in str(list(IngestJob.objects.values()))


def test_only_invalid_facts_is_no_effect_not_failure(v1_live, scope, fake_llm, pg_writes):
    _, engine = fake_llm([[BAD[0], BAD[3]]])
    job_id = submit(v1_live, scope)
    run_queue()

    job = IngestJob.objects.get(id=job_id)
    assert job.status == IngestJob.Status.NO_EFFECT and job.reason == ""
    assert job.inserted_count == 0
    written = pg_writes.memories()
    assert len(written) == 2
    assert_gone(engine, written)
    assert scope_rows(scope) == [] and scope_entities(scope) == []


# --- context isolation ------------------------------------------------------------------------
def test_extraction_never_sees_stale_or_previous_context(v1_live, scope, other_scope, fake_llm):
    llm, engine = fake_llm([[fact(CHINESE)], [fact("用户习惯每周一整理周报")]])
    # Mem0 saves each add's messages as the next extraction's context; ours keeps none.
    engine._memory.db.save_messages(
        [{"role": "user", "content": "STALE-FACT 旧事实"}], f"user_id={scope.key}"
    )
    engine._memory.db.save_messages(
        [{"role": "user", "content": "OTHER-SCOPE 别人的上下文"}], f"user_id={other_scope.key}"
    )

    first = [
        {"role": "user", "content": "以后技术方案都用简体中文。顺便说一句，我的猫叫团子。"},
        {"role": "assistant", "content": "好的，已确认后续技术方案使用简体中文。"},
    ]
    second = [
        {"role": "user", "content": "我习惯每周一整理周报，以后按这个节奏提醒我。"},
        {"role": "assistant", "content": "好的，已确认每周一提醒整理周报。"},
    ]
    first_id = submit(v1_live, scope, first, run_id="run-a")
    run_queue()
    second_id = submit(v1_live, scope, second, run_id="run-b")
    run_queue()

    assert IngestJob.objects.get(id=first_id).status == IngestJob.Status.SUCCEEDED
    assert IngestJob.objects.get(id=second_id).status == IngestJob.Status.SUCCEEDED
    prompt_a, prompt_b = llm.prompts
    assert "团子" in prompt_section(prompt_a, "New Messages")
    for prompt in (prompt_a, prompt_b):
        assert "STALE-FACT" not in prompt and "OTHER-SCOPE" not in prompt
    assert "团子" not in prompt_b  # the first task's messages are not the second's context


# --- backend failures are retried by the queue ------------------------------------------------
def test_failing_llm_is_retried_four_times_then_fails(v1_live, scope, fake_llm):
    llm, engine = fake_llm(then=500)
    job_id = submit(v1_live, scope)
    job = run_until_final(job_id)

    assert job.status == IngestJob.Status.FAILED
    assert job.reason.startswith("backend_error")
    assert job.attempts == 4
    assert llm.calls == 4
    gaps = [b - a for a, b in zip(llm.arrivals, llm.arrivals[1:], strict=False)]
    for gap, delay in zip(gaps, (1, 2, 4), strict=True):
        assert delay - 0.2 <= gap < delay + 5, gaps  # 1, 2, 4 seconds
    assert scope_rows(scope) == [] and scope_entities(scope) == []
    run_queue()
    assert llm.calls == 4  # final means final


def test_one_llm_failure_then_success_succeeds_on_the_second_attempt(v1_live, scope, fake_llm):
    llm, _ = fake_llm([500, [fact(CHINESE)]])
    job_id = submit(v1_live, scope)
    run_queue()
    assert IngestJob.objects.get(id=job_id).status == IngestJob.Status.RETRYING
    job = run_until_final(job_id)

    assert job.status == IngestJob.Status.SUCCEEDED and job.reason == ""
    assert job.attempts == 2 and llm.calls == 2
    assert [r.content for r in scope_rows(scope)] == [CHINESE]


# --- one writer per run, while extracting ------------------------------------------------------
def test_manage_arriving_during_extraction_makes_the_job_discard_its_facts(
    v1_live, scope, fake_llm
):
    """/manage for the run lands while the LLM is answering: the run has its explicit writer
    now, so what this job extracted is taken back and the job ends skipped."""
    from lifecycle.policy import register_explicit_writer

    def manage_then_answer(request_body):
        from django.db import connection as thread_connection

        register_explicit_writer(scope=scope, run_id="run-race", action="delete")
        thread_connection.close()  # this runs in the fake server's thread
        return [fact(CHINESE)]

    llm, engine = fake_llm([manage_then_answer])
    job_id = submit(v1_live, scope, run_id="run-race")
    job = run_until_final(job_id)
    assert job.status == "skipped" and job.reason == "skipped_explicit_writer"
    assert len(llm.requests) == 1
    assert scope_rows(scope) == []
    assert scope_entities(scope) == []
