"""Contract tests for every Mem0 internal the adapter relies on.

When one fails after a mem0ai upgrade, read the message, re-check the SDK source it names,
and fix the adapter (memories/engine/) before anything else.
"""

from __future__ import annotations

import inspect
import re
import uuid
from importlib.metadata import version

import pytest
from django.db import connection

from memories.engine import adapter as adapter_module
from memories.engine import get_engine
from memories.language import nlp
from memories.models import MemoryRow
from memories.types import Channel
from tests.memories.engine.channel_query import open_channel_query
from tests.node_files import files_holding

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


def test_no_session_store_answers_every_call_mem0_makes_on_its_db():
    """Mem0 uses ``Memory.db`` (a ``SQLiteManager``) for history and message context; the
    adapter swaps in ``NoSessionStore``, which must answer every method Mem0 calls on it."""
    from mem0.memory import main as mem0_main
    from mem0.memory.storage import SQLiteManager

    called = set(re.findall(r"self\.db\.(\w+)", inspect.getsource(mem0_main)))
    assert {"add_history", "save_messages", "get_last_messages"} <= called, "Memory.db changed"
    store = adapter_module.NoSessionStore
    for name in called:
        assert hasattr(store, name), f"Memory calls db.{name}: add it to NoSessionStore"
        ours = inspect.signature(getattr(store, name)).parameters
        if any(p.kind is p.VAR_POSITIONAL for p in ours.values()):
            continue
        theirs = inspect.signature(getattr(SQLiteManager, name)).parameters
        assert list(ours) == list(theirs), f"SQLiteManager.{name} changed its parameters"


def test_engine_keeps_no_history_or_messages_on_the_node(engine, scope, settings):
    """Nothing a write passes through Mem0 outlives the request on this node: no history rows,
    no message context, no file holding the text."""
    marker = f"MARKER-{uuid.uuid4().hex[:12]}"
    memory_id = engine.add_fact(
        scope_key=scope.key, text=f"User's project code is {marker}.", metadata={}
    )
    engine.update_fact(memory_id=memory_id, text=f"User's project code is {marker}-2.", metadata={})
    engine.extract(
        scope_key=scope.key,
        messages=[{"role": "user", "content": f"以后周报都写上代号 {marker}。"}],
        metadata={"category": "preference"},
    )
    assert isinstance(engine._memory.db, adapter_module.NoSessionStore)
    assert engine._memory.history(memory_id) == []
    assert engine._memory.db.get_last_messages(f"user_id={scope.key}") == []
    engine.delete_fact(memory_id=memory_id, scope_key=scope.key)
    assert engine._memory.history(memory_id) == []
    holding = files_holding(settings.DATA_DIR, marker)
    assert holding == [], "a node-local file holds memory text"


def test_nlp_entry_points_are_routed(engine):
    from mem0.memory import main as mem0_main
    from mem0.utils import spacy_models

    assert mem0_main.lemmatize_for_bm25 is nlp.lemmatize_for_bm25
    assert mem0_main.extract_entities is nlp.extract_entities
    assert mem0_main.extract_entities_batch is nlp.extract_entities_batch
    assert spacy_models._nlp_full is not None and spacy_models._nlp_lemma is not None
    assert spacy_models._ensure_model_available() is None  # never a download


def test_both_stores_draw_from_the_engines_one_bounded_pool(engine, settings):
    pool = engine._memory.vector_store.connection_pool
    assert engine._memory.entity_store.connection_pool is pool, "PGVector.connection_pool changed"
    assert pool.max_size == settings.ENGINE_POOL_SIZE
    assert pool.timeout == settings.DB_POOL_TIMEOUT


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
        open_channel_query(
            scope.key, engine.embed_query(text), terms="PostgreSQL service", names="PostgreSQL"
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
            raise RuntimeError("history store failed")
        return original(*args, **kwargs)

    monkeypatch.setattr(engine._memory.db, "add_history", failing_history)
    engine.delete_fact(memory_id=memory_id, scope_key=scope.key)
    assert not MemoryRow.objects.filter(id=memory_id).exists()
    assert engine.entity_links(memory_id=memory_id) == 0


def test_entity_table_shape(engine):
    """Mem0's three columns; recall's (migration 0017; 0021 added ``recall_name`` again, last)
    are generated from the payload, so Mem0's statements, which name their columns, never
    write or read them."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT column_name, is_generated FROM information_schema.columns "
            "WHERE table_name = 'poco_memories_entities' ORDER BY ordinal_position"
        )
        columns = cursor.fetchall()
    assert [name for name, generated in columns if generated == "NEVER"] == [
        "id",
        "vector",
        "payload",
    ]
    assert sorted(name for name, generated in columns if generated == "ALWAYS") == [
        "recall_name",
        "recall_pinyin",
        "recall_scope",
    ]
