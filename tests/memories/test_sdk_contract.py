"""Contract tests for every Mem0 internal the adapter relies on (seed 000 §12.1).

When one fails after a mem0ai upgrade, read the message, re-check the SDK source it names,
and fix memories/engine/adapter.py before anything else.
"""

from __future__ import annotations

import inspect
import sqlite3
from importlib.metadata import version

import pytest
from django.db import connection

from memories.engine import adapter as adapter_module
from memories.engine import get_engine, nlp
from memories.engine.recall import ChannelQuery
from memories.models import MemoryRow
from memories.types import Channel, SearchFilters

pytestmark = pytest.mark.django_db


@pytest.fixture
def engine():
    return get_engine()


def test_pinned_mem0_version():
    assert version("mem0ai") == "2.2.1", "mem0ai changed: re-verify every test in this file"


def test_entity_helpers_keep_their_signatures(engine):
    memory = engine._memory
    expected = {
        "_link_entities_for_memory": ["memory_id", "text", "filters"],
        "_remove_memory_from_entity_store": ["memory_id", "filters"],
        "_upsert_entity": ["entity_text", "entity_type", "memory_id", "filters"],
    }
    for name, params in expected.items():
        method = getattr(memory, name, None)
        assert method is not None, f"Memory.{name} is gone"
        assert list(inspect.signature(method).parameters) == params, f"Memory.{name} changed"


def test_entity_store_is_the_entities_table(engine):
    assert engine._memory._entity_store is not None, "entity store must be touched at start-up"
    assert engine._memory.entity_store.collection_name == "poco_memories_entities"


def test_sqlite_connection_lock_and_columns(engine):
    db = engine._memory.db
    assert isinstance(db.connection, sqlite3.Connection), "Memory.db.connection changed"
    assert hasattr(db._lock, "acquire") and hasattr(db._lock, "release"), "db._lock changed"
    with db._lock:
        history = {r[1] for r in db.connection.execute("PRAGMA table_info(history)")}
        messages = {r[1] for r in db.connection.execute("PRAGMA table_info(messages)")}
    assert history >= adapter_module.HISTORY_COLUMNS, "history.memory_id/old/new/event changed"
    assert messages >= adapter_module.MESSAGES_COLUMNS, "messages.session_scope changed"


def test_session_scope_key_matches_mem0():
    from mem0.memory.main import _build_session_scope

    assert _build_session_scope({"user_id": "t:u"}) == adapter_module.session_scope("t:u")


def test_nlp_entry_points_are_routed(engine):
    from mem0.memory import main as mem0_main
    from mem0.utils import spacy_models

    from memories.engine import nlp

    assert mem0_main.lemmatize_for_bm25 is nlp.lemmatize_for_bm25
    assert mem0_main.extract_entities is nlp.extract_entities
    assert mem0_main.extract_entities_batch is nlp.extract_entities_batch
    assert spacy_models._nlp_full is not None and spacy_models._nlp_lemma is not None
    assert spacy_models._ensure_model_available() is None  # never a download


def test_pool_timeout_is_settable(engine):
    pool = engine._memory.vector_store.connection_pool
    assert pool.timeout == adapter_module.POOL_TIMEOUT_SECONDS, "PGVector.connection_pool changed"


def test_add_result_shape_and_payload(engine, scope):
    result = engine._memory.add(
        [{"role": "user", "content": "User writes Go at work."}],
        user_id=scope.key,
        metadata={"category": "fact"},
        infer=False,
    )
    row = result["results"][0]
    assert {"id", "memory", "event"} <= set(row), "add() results[] shape changed"
    assert row["event"] == "ADD"
    payload = MemoryRow.objects.get(id=row["id"]).payload
    assert payload["user_id"] == scope.key
    assert {"data", "hash", "text_lemmatized", "created_at", "category"} <= set(payload)


def test_infer_add_keeps_attribution(engine, scope):
    facts = engine.extract(
        scope_key=scope.key,
        messages=[{"role": "user", "content": "以后所有报告统一使用 HTML 格式。"}],
        metadata={"category": "preference"},
    )
    assert len(facts) == 1 and facts[0].event == "ADD"
    got = engine._memory.get(facts[0].id)
    assert got["attributed_to"] == "user", "get().attributed_to changed"


def test_recall_reads_what_mem0_writes_and_scores_similarity(engine, scope):
    """Recall runs on Mem0's pool (``vector_store._get_cursor``) over the columns Mem0 fills:
    ``vector`` (cosine, higher is closer), ``payload.text_lemmatized`` and the entity table's
    ``linked_memory_ids``; the query is embedded with ``embedding_model.embed(q, "search")``."""
    text = "User prefers PostgreSQL for every new service."
    wanted = engine.add_fact(scope_key=scope.key, text=text, metadata={"category": "preference"})
    engine.add_fact(scope_key=scope.key, text="用户喜欢喝绿茶。", metadata={"category": "fact"})
    channels = engine.recall(
        ChannelQuery(
            scope_key=scope.key,
            vector=engine.embed_query(text),
            terms=nlp.query_terms("PostgreSQL service"),
            grams=nlp.name_grams("PostgreSQL"),
            quoted=[],
            misspellings=[],
            filters=SearchFilters(),
            vector_floor=0.0,
            keyword_min_coverage=0.5,
            keyword_max_share=1.0,
            pool=5,
        )
    )
    vector = channels[Channel.VECTOR]
    assert vector[0].id == wanted and vector[0].strength > 0.99
    assert vector[0].strength > vector[-1].strength >= 0.0
    assert [h.id for h in channels[Channel.KEYWORD]] == [wanted]
    assert [h.id for h in channels[Channel.ENTITY]] == [wanted]


def test_delete_completes_cleanup_when_sdk_fails_after_vector_delete(engine, scope, monkeypatch):
    """Mem0 deletes the vector before writing history; a failure there is still a delete."""
    memory_id = engine.add_fact(
        scope_key=scope.key, text="团队沟通使用“飞书”。", metadata={"category": "fact"}
    )
    assert engine.entity_links(memory_id=memory_id) > 0
    original = engine._memory.db.add_history

    def failing_history(*args, **kwargs):
        if args[3] == "DELETE":
            raise sqlite3.OperationalError("disk I/O error")
        return original(*args, **kwargs)

    monkeypatch.setattr(engine._memory.db, "add_history", failing_history)
    engine.delete_fact(memory_id=memory_id, scope_key=scope.key)
    assert not MemoryRow.objects.filter(id=memory_id).exists()
    assert engine.entity_links(memory_id=memory_id) == 0
    assert engine.history_rows(memory_id=memory_id) == 0


def test_incompatible_history_table_blocks_delete_before_main_row(engine, scope):
    from memories.types import BackendError

    memory_id = engine.add_fact(scope_key=scope.key, text="User likes tea.", metadata={})
    db = engine._memory.db
    with db._lock:
        db.connection.execute("ALTER TABLE history RENAME COLUMN memory_id TO mem_id")
    try:
        with pytest.raises(BackendError, match="incompatible"):
            engine.delete_fact(memory_id=memory_id, scope_key=scope.key)
        assert MemoryRow.objects.filter(id=memory_id).exists()
    finally:
        with db._lock:
            db.connection.execute("ALTER TABLE history RENAME COLUMN mem_id TO memory_id")


def test_entity_table_shape(engine):
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT column_name, data_type FROM information_schema.columns "
            "WHERE table_name = 'poco_memories_entities' ORDER BY ordinal_position"
        )
        columns = cursor.fetchall()
    assert [c[0] for c in columns] == ["id", "vector", "payload"]
