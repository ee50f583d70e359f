"""An outage is reported as one: available=false / backend_error, never zero hits or success.

The database outage is a real unreachable server (a socket folder with nothing listening);
the embedder outage is a local OpenAI-compatible HTTP endpoint answering 500.
"""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from memories import selectors, services
from memories.engine import adapter as adapter_module
from memories.engine import build_engine, get_engine
from memories.models import AuditEvent, MemoryRow
from tests.memories.conftest import body
from tests.support import eventually

pytestmark = pytest.mark.django_db


@pytest.fixture
def swap_engine(monkeypatch) -> Iterator[callable]:
    built = []

    def swap(engine: adapter_module.Mem0Adapter) -> None:
        built.append(engine)
        monkeypatch.setattr(adapter_module, "_engine", engine)

    yield swap
    for engine in built:
        engine.close()


@pytest.fixture
def unreachable_db_engine(tmp_path, settings, swap_engine):
    settings.DB_POOL_TIMEOUT = 1.0
    engine = build_engine(
        connection_string=f"postgresql://postgres@/postgres?host={tmp_path}&connect_timeout=1"
    )
    swap_engine(engine)
    return engine


class FailingEmbeddings(BaseHTTPRequestHandler):
    def do_POST(self) -> None:  # noqa: N802 - http.server API
        self.send_response(500)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(json.dumps({"error": {"message": "model overloaded"}}).encode())

    def log_message(self, *args) -> None:
        return None


@pytest.fixture
def use_failing_embedder(settings, swap_engine):
    """Call it to switch the engine to a remote embedder that answers 500."""
    get_engine()  # the real engine exists before settings change, so it is what gets restored
    server = ThreadingHTTPServer(("127.0.0.1", 0), FailingEmbeddings)
    threading.Thread(target=server.serve_forever, daemon=True).start()

    def use() -> adapter_module.Mem0Adapter:
        from django.db import connection

        settings.EMBEDDING_BASE_URL = f"http://127.0.0.1:{server.server_port}/v1"
        settings.EMBEDDING_MODEL = "remote-embedder"
        settings.EMBEDDING_DIMS = 512
        engine = build_engine(
            connection_string=adapter_module.connection_string_for(connection.settings_dict["NAME"])
        )
        embedder = engine._memory.embedding_model
        embedder.client = embedder.client.with_options(max_retries=0)
        swap_engine(engine)
        return engine

    yield use
    server.shutdown()


@pytest.fixture
def failing_embedder_engine(use_failing_embedder):
    return use_failing_embedder()


def test_search_with_database_down_is_unavailable_not_empty(v1, scope, unreachable_db_engine):
    answer = v1.post("search", body(scope, query="技术方案用什么语言"))
    assert answer.status_code == 200
    data = answer.json()
    assert data["available"] is False
    assert data["error_reason"]
    assert data["items"] == [] and data["total"] == 0


def test_add_with_database_down_is_backend_error_and_writes_nothing(
    v1, scope, unreachable_db_engine
):
    answer = v1.post("manage", body(scope, action="add", text="用户偏好简洁的回答。"))
    assert answer.status_code == 503
    assert answer.json()["success"] is False
    assert answer.json()["status"] == "backend_error"
    assert not AuditEvent.objects.exists()


def test_embedder_failure_on_add_writes_nothing(v1, scope, failing_embedder_engine):
    answer = v1.post("manage", body(scope, action="add", text="User prefers short answers."))
    assert answer.status_code == 503
    assert answer.json()["status"] == "backend_error"
    assert MemoryRow.objects.count() == 0
    assert not AuditEvent.objects.exists()


def test_embedder_failure_on_search_is_unavailable(scope, failing_embedder_engine):
    result = selectors.memory_search(scope=scope, query="short answers")
    assert result.available is False
    assert "search failed" in (result.error_reason or "")


def test_embedder_failure_on_update_keeps_old_text(scope, agent, use_failing_embedder):
    added = services.memory_add(scope=scope, text="User likes tea.", actor=agent)
    use_failing_embedder()
    outcome = services.memory_update(
        scope=scope, memory_id=added.memory_id, text="User likes coffee.", actor=agent
    )
    assert outcome.status == "backend_error" and not outcome.success
    assert MemoryRow.objects.get(id=added.memory_id).content == "User likes tea."
    assert not AuditEvent.objects.filter(event="UPDATE").exists()


def test_cleanup_failure_is_partial_cleanup_not_success(v1, scope, monkeypatch):
    added = v1.post("manage", body(scope, action="add", text="团队沟通使用“飞书”。")).json()
    engine = get_engine()
    # The SDK swallows entity clean-up errors; simulate one so the link survives the delete.
    monkeypatch.setattr(
        engine._memory, "_remove_memory_from_entity_store", lambda memory_id, filters: None
    )
    answer = v1.post("delete-item", body(scope, memory_id=added["memory_id"]))
    assert answer.status_code == 500
    assert answer.json()["status"] == "partial_cleanup"
    assert answer.json()["success"] is False
    assert answer.json()["deleted_count"] == 1
    assert not MemoryRow.objects.filter(id=added["memory_id"]).exists()
    events = AuditEvent.objects.filter(memory_id=added["memory_id"])
    assert not events.exclude(old_text="", new_text="").exists()
    assert events.get(event="DELETE").status == "partial_cleanup"


def test_delete_user_reports_partial_cleanup_with_count(v1, scope, monkeypatch):
    for text in ("用户使用“飞书”沟通。", "User prefers Go.", "项目代号“Poco”。"):
        v1.post("manage", body(scope, action="add", text=text))
    engine = get_engine()

    # Delete-user is set-based (Mem0Adapter.delete_scope); its residue check after the delete
    # sees two rows of the scope still there (a concurrent writer outside the lock, a replica).
    monkeypatch.setattr(engine, "_scope_residue", lambda scope_key, memory_ids: 2)
    answer = v1.post("delete-user", body(scope)).json()
    assert answer["success"] is False
    assert answer["status"] == "partial_cleanup"
    assert answer["deleted_count"] == 3
    assert "2 memories left" in answer["reason"]
    assert MemoryRow.objects.count() == 0


@contextlib.contextmanager
def django_database_unreachable(socket_dir) -> Iterator[None]:
    """Django's own connection points at a socket folder where nothing listens."""
    from django.db import connection

    saved = (connection.settings_dict["HOST"], dict(connection.settings_dict["OPTIONS"]))
    connection.close()
    connection.close_pool()  # the pool keeps its conninfo: a new one for the dead socket
    connection.settings_dict["HOST"] = str(socket_dir)
    options = connection.settings_dict["OPTIONS"]
    options["connect_timeout"] = "1"
    options["pool"] = {**options["pool"], "timeout": 1}
    try:
        yield
    finally:
        connection.close()
        connection.close_pool()
        connection.settings_dict["HOST"], connection.settings_dict["OPTIONS"] = saved


@pytest.fixture
def django_database_down(transactional_db, tmp_path):
    with django_database_unreachable(tmp_path):
        yield


def test_database_down_is_an_outage_on_every_kind_of_call(v1, scope, django_database_down):
    listed = v1.post("list-user", body(scope))
    assert listed.status_code == 503
    assert listed.json()["error"]["code"] == "backend_error"
    added = v1.post("manage", body(scope, action="add", text="用户喜欢简洁。"))
    assert added.status_code == 503
    assert added.json()["success"] is False and added.json()["status"] == "backend_error"
    health = v1.client.get("/health")
    assert health.status_code == 503


@pytest.fixture
def signed_in_client(transactional_db, django_user_model):
    from django.test import Client

    user = django_user_model.objects.create_user(username="carol", password="carol-pass-1")
    client = Client()
    client.force_login(user)
    return client


def test_pages_say_unavailable_when_the_database_is_down(signed_in_client, tmp_path):
    assert signed_in_client.get("/").status_code == 200
    with django_database_unreachable(tmp_path):
        for url in ("/", "/memories/"):
            page = signed_in_client.get(url)
            assert page.status_code == 503
            assert "记忆服务暂时不可用" in page.content.decode()
            assert "不代表你的记忆是空的" in page.content.decode()


def test_context_with_the_database_down_answers_200_unavailable(
    v1, scope, django_database_down, unreachable_db_engine
):
    answer = v1.post(
        "context", body(scope, input="帮我写一份 Poco 项目的技术方案", run_kind="interactive")
    )
    assert answer.status_code == 200, answer.content
    assert answer.json()["available"] is False
    assert answer.json()["injected_count"] == 0 and answer.json()["text"] == ""
    assert answer.json()["error_reason"]


class FreezableProxy:
    """A unix-socket proxy in front of PostgreSQL that can stop answering, as a frozen server
    (SIGSTOP, a hung host) does: connections stay open and nothing comes back."""

    def __init__(self, socket_dir: Path, target: str) -> None:
        self.path = socket_dir / ".s.PGSQL.5432"
        self.target = target
        self.frozen = threading.Event()
        self.listener = socket.socket(socket.AF_UNIX)
        self.listener.bind(str(self.path))
        self.listener.listen(64)
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = socket.socket(socket.AF_UNIX)
            server.connect(self.target)
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    def _pipe(self, source: socket.socket, sink: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while data := source.recv(65536):
                while self.frozen.is_set():
                    time.sleep(0.05)  # hold everything, as a stopped server would
                sink.sendall(data)
        with contextlib.suppress(OSError):
            sink.shutdown(socket.SHUT_RDWR)  # one side hung up: so does the other

    def close(self) -> None:
        self.listener.close()


@pytest.fixture
def frozen_database(tmp_path, settings, swap_engine, scope) -> Iterator[FreezableProxy]:
    """Django and the engine reach PostgreSQL through a proxy the test can freeze; statements
    are bounded as in a serving process."""
    from django.db import connection

    from infra.db import BoundedConnection
    from memories.engine.adapter import connection_string_for

    real_dir = connection.settings_dict["HOST"] or "/tmp"
    proxy = FreezableProxy(
        tmp_path, f"{real_dir}/.s.PGSQL.{connection.settings_dict['PORT'] or 5432}"
    )
    saved_host = connection.settings_dict["HOST"]
    connection.close()
    connection.close_pool()
    connection.settings_dict["HOST"] = str(tmp_path)
    real = connection_string_for(connection.settings_dict["NAME"])
    proxied = real.replace(quote(real_dir, safe=""), quote(str(tmp_path), safe=""))
    assert proxied != real
    swap_engine(build_engine(connection_string=proxied))
    BoundedConnection.statement_timeout = 1.0
    try:
        yield proxy
    finally:
        BoundedConnection.statement_timeout = None
        proxy.frozen.clear()
        connection.close()
        connection.close_pool()
        connection.settings_dict["HOST"] = saved_host
        proxy.close()


@pytest.mark.django_db(transaction=True)
def test_a_frozen_database_is_an_outage_for_reads_and_writes_not_a_hang(v1, scope, frozen_database):
    assert v1.post("manage", body(scope, action="add", text="我喜欢喝乌龙茶。")).status_code == 200
    assert v1.post("search", body(scope, query="喝什么茶")).json()["available"] is True
    frozen_database.frozen.set()
    answers: dict[str, Any] = {}

    def call() -> None:
        answers["search"] = v1.post("search", body(scope, query="喝什么茶"))
        answers["add"] = v1.post("manage", body(scope, action="add", text="我周末去爬山。"))

    caller = threading.Thread(target=call)
    caller.start()
    caller.join(timeout=60)
    assert not caller.is_alive(), "a call waited on the frozen server instead of giving up"
    assert answers["search"].status_code == 200
    assert answers["search"].json()["available"] is False  # an outage, never "nothing found"
    assert answers["add"].status_code == 503
    frozen_database.frozen.clear()  # the pools replace what they closed and serve again
    eventually(
        lambda: v1.post("search", body(scope, query="喝什么茶")).json()["available"],
        what="search available again after the server woke",
        timeout=30,
        interval=0.5,
    )
