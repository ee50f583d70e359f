"""memory_reembed: new vectors beside the old, an atomic swap, old vectors serving
until then. The other embedder is a local OpenAI-compatible HTTP endpoint of another width."""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from memories import selectors
from memories.engine import get_engine, reset_engine
from memories.engine import internals as ops
from memories.engine.embedder import DIMS, MODEL_NAME, encode
from memories.engine.internals import SHADOW_COLUMN
from memories.models import MemoryRow
from memories.services import memory_add, memory_update
from memories.types import WriteStatus
from tests.memories.ops.conftest import mem0_sql

# Autocommit like a real server: a test transaction holding a read lock on the tables would
# block the ALTER TABLEs of the re-embedding forever.
pytestmark = pytest.mark.django_db(transaction=True)

FAKE_DIMS = 8
FACTS = ['用户在"飞书"里写周报。', "The user deploys services with PostgreSQL.", "用户喜欢喝绿茶。"]


def fake_vector(text: str) -> list[float]:
    digest = hashlib.sha256(text.encode()).digest()
    return [b / 255 + 0.01 for b in digest[:FAKE_DIMS]]


def send_json(handler: BaseHTTPRequestHandler, body: dict) -> None:
    raw = json.dumps(body).encode()
    handler.send_response(200)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Content-Length", str(len(raw)))
    handler.end_headers()
    handler.wfile.write(raw)


class FakeEmbeddings(BaseHTTPRequestHandler):
    """POST /v1/embeddings, the OpenAI shape, FAKE_DIMS numbers per input."""

    def do_POST(self) -> None:  # noqa: N802 - http.server API
        request = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        inputs = request["input"] if isinstance(request["input"], list) else [request["input"]]
        body = {
            "object": "list",
            "model": request["model"],
            "data": [
                {"object": "embedding", "index": i, "embedding": fake_vector(text)}
                for i, text in enumerate(inputs)
            ],
            "usage": {"prompt_tokens": 1, "total_tokens": 1},
        }
        send_json(self, body)

    def log_message(self, *args) -> None:
        return None


@pytest.fixture
def fake_embedder_url() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), FakeEmbeddings)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}/v1"
    server.shutdown()


def width(table: str = "poco_memories", column: str = "vector") -> int | None:
    rows = mem0_sql(
        "SELECT atttypmod FROM pg_attribute WHERE attrelid = to_regclass(%s) "
        "AND attname = %s AND NOT attisdropped",
        (table, column),
    )
    return int(rows[0][0]) if rows else None


@pytest.fixture(autouse=True)
def back_to_the_bundled_embedder(settings) -> Iterator[None]:
    """Every other test expects vector(512) from the bundled embedder: restore it whatever
    happened here."""
    yield
    reset_engine()
    for name in ("EMBEDDING_BASE_URL", "EMBEDDING_MODEL", "EMBEDDING_DIMS"):
        setattr(
            settings,
            name,
            {"EMBEDDING_BASE_URL": "", "EMBEDDING_MODEL": MODEL_NAME}.get(name, DIMS),
        )
    if width() != DIMS or width(column=SHADOW_COLUMN) is not None:
        call_command("memory_reembed", "--abort", stdout=StringIO())
        if width() != DIMS:
            call_command("memory_reembed", "--swap", stdout=StringIO(), stderr=StringIO())
    reset_engine()


def reembed(*args: str) -> str:
    out = StringIO()
    call_command("memory_reembed", *args, stdout=out, stderr=StringIO())
    return out.getvalue()


def store(scope, agent, texts=FACTS) -> list[str]:
    ids = []
    for text in texts:
        outcome = memory_add(scope=scope, text=text, actor=agent)
        assert outcome.status == WriteStatus.ADDED
        ids.append(str(outcome.memory_id))
    return ids


def live_vectors() -> dict[str, str]:
    return dict(mem0_sql("SELECT id::text, vector::text FROM poco_memories"))


def top_hit(scope, query: str) -> str | None:
    result = selectors.memory_search(scope=scope, query=query, top_k=1, min_score=0.0)
    assert result.available, result.error_reason
    return result.items[0].content if result.items else None


def test_build_leaves_the_old_vectors_serving(scope, agent, client):
    store(scope, agent)
    before = live_vectors()
    assert "old vectors still serve" in reembed()
    assert width(column=SHADOW_COLUMN) == DIMS
    assert mem0_sql(f"SELECT count(*) FROM poco_memories WHERE {SHADOW_COLUMN} IS NULL") == [(0,)]
    assert live_vectors() == before
    assert top_hit(scope, "飞书 周报") == FACTS[0]
    assert client.get("/ready").status_code == 200


def test_swap_catches_up_late_and_corrected_rows_and_keeps_ids(scope, agent):
    ids = store(scope, agent)
    reembed()
    late = store(scope, agent, ["用户每周五下午复盘。"])[0]
    corrected = memory_update(scope=scope, memory_id=ids[2], text="用户喜欢喝乌龙茶。", actor=agent)
    assert corrected.status == WriteStatus.UPDATED
    missing = mem0_sql(f"SELECT id::text FROM poco_memories WHERE {SHADOW_COLUMN} IS NULL")
    assert {row[0] for row in missing} == {late, ids[2]}  # the correction made its shadow stale
    embedder = ops.build_embedder(model=MODEL_NAME, dims=DIMS, base_url="", api_key="")
    # The swap alone (no build first): what is missing is embedded inside its transaction.
    assert ops.shadow_swap(get_engine(), embedder=embedder, model=MODEL_NAME) >= 2
    assert width() == DIMS and width(column=SHADOW_COLUMN) is None
    # The swapped-in column keeps vectors inline like the one it replaced (migration 0005).
    assert mem0_sql(
        "SELECT attstorage FROM pg_attribute WHERE attrelid = 'poco_memories'::regclass "
        "AND attname = 'vector'"
    ) == [("m",)]
    rows = {str(r.id): r for r in MemoryRow.objects.all()}
    assert set(rows) == {*ids, late}
    for memory_id, row in rows.items():
        expected = encode([row.content])[0]
        assert list(row.vector) == pytest.approx(expected, abs=1e-6), memory_id
        assert row.payload["embedding_model"] == MODEL_NAME
    assert top_hit(scope, "乌龙茶") == "用户喜欢喝乌龙茶。"


def test_switch_to_another_width_and_back(scope, agent, settings, client, fake_embedder_url):
    ids = store(scope, agent)
    args = ["--model", "fake-8", "--dims", str(FAKE_DIMS), "--base-url", fake_embedder_url]
    reembed(*args)
    assert width(column=SHADOW_COLUMN) == FAKE_DIMS and width() == DIMS
    assert top_hit(scope, "飞书 周报") == FACTS[0]  # the old embedder still answers

    assert "swapped" in reembed(*args, "--swap")
    assert width() == FAKE_DIMS and width("poco_memories_entities") == FAKE_DIMS
    # This node still runs the old configuration: not ready, so it gets no traffic.
    assert client.get("/ready").status_code == 503
    settings.EMBEDDING_BASE_URL = fake_embedder_url
    settings.EMBEDDING_MODEL = "fake-8"
    settings.EMBEDDING_DIMS = FAKE_DIMS
    reset_engine()
    assert client.get("/ready").status_code == 200
    rows = {str(r.id): r for r in MemoryRow.objects.all()}
    assert set(rows) == set(ids)
    for row in rows.values():
        assert list(row.vector) == pytest.approx(fake_vector(row.content), abs=1e-6)
        assert row.payload["embedding_model"] == "fake-8"
    assert top_hit(scope, FACTS[1]) == FACTS[1]
    outcome = memory_add(scope=scope, text="用户喜欢爬山。", actor=agent)
    assert outcome.status == WriteStatus.ADDED  # writes work on the new width

    # And back to the bundled embedder, the same way.
    reembed("--swap")
    settings.EMBEDDING_BASE_URL = ""
    settings.EMBEDDING_MODEL = MODEL_NAME
    settings.EMBEDDING_DIMS = DIMS
    reset_engine()
    assert width() == DIMS
    assert client.get("/ready").status_code == 200
    assert top_hit(scope, "飞书 周报") == FACTS[0]


def test_an_interrupted_build_resumes_where_it_stopped(scope, agent, fake_embedder_url):
    store(scope, agent)
    args = ["--model", "fake-8", "--dims", str(FAKE_DIMS), "--base-url", fake_embedder_url]
    reembed(*args)
    # Forget one row's shadow vector, as if the run had stopped before it.
    mem0_sql(
        f"UPDATE poco_memories SET {SHADOW_COLUMN} = NULL WHERE id = "
        f"(SELECT id FROM poco_memories ORDER BY id LIMIT 1)"
    )
    entities = mem0_sql("SELECT count(*) FROM poco_memories_entities")[0][0]
    report = reembed(*args)
    assert f"embedded 1 of {len(FACTS) + entities} rows" in report


def test_abort_drops_the_shadow_and_changes_nothing_live(scope, agent, fake_embedder_url):
    store(scope, agent)
    before = live_vectors()
    reembed("--model", "fake-8", "--dims", str(FAKE_DIMS), "--base-url", fake_embedder_url)
    assert "aborted" in reembed("--abort")
    assert width(column=SHADOW_COLUMN) is None
    assert live_vectors() == before


def test_bundled_target_must_match_the_bundled_model():
    with pytest.raises(CommandError, match="bundled"):
        reembed("--dims", "768")


@pytest.mark.parametrize("dims", ["0", "-5", "2001", "20000"])
def test_a_width_pgvector_cannot_index_is_refused_before_anything(dims, fake_embedder_url):
    """pgvector's HNSW index takes 1 to 2,000 dimensions: a width outside is refused up front,
    not after a shadow column failed with "run again to resume" (which could never help)."""
    with pytest.raises(CommandError, match=r"--dims .*1 to 2000") as refused:
        reembed("--model", "fake", "--dims", dims, "--base-url", fake_embedder_url)
    assert "run again" not in str(refused.value)
    assert width(column=SHADOW_COLUMN) is None


def test_an_unreachable_endpoint_is_not_reported_done(scope, agent):
    """The progress line before the failure must not say "done"."""
    store(scope, agent, texts=FACTS[:1])
    err = StringIO()
    with pytest.raises(CommandError, match="nothing was swapped"):
        call_command(
            "memory_reembed",
            *("--model", "fake-8", "--dims", str(FAKE_DIMS), "--base-url", "http://127.0.0.1:9/v1"),
            stdout=StringIO(),
            stderr=err,
        )
    assert "done" not in err.getvalue()
