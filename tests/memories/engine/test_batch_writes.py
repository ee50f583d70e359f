"""Contract tests of the engine's own write paths: the batch insert ``add_many``, the
set-based entity index that replaced Mem0's per-entity helpers, and ``delete_scope``.

A batch-inserted memory must be indistinguishable from one added through Mem0: the same
payload, the same vector, the same entity links, found by every recall channel, listed, and
deleted with nothing left behind.
"""

from __future__ import annotations

import pytest

from memories import selectors, services
from memories.engine import NewFact, get_engine
from memories.models import AuditEvent, EntityRow, MemoryRow
from memories.types import Channel, DeleteStatus
from tests.memories.engine.channel_query import open_channel_query

pytestmark = pytest.mark.django_db

META = {"category": "preference", "source": "manage", "schema_version": 1}


def _channels(engine, scope, query: str, names: str) -> dict[Channel, list[str]]:
    hits = engine.recall(
        open_channel_query(scope.key, engine.embed_query(query), terms=query, names=names)
    )
    return {channel: [h.id for h in found] for channel, found in hits.items()}


def _links(scope) -> dict[str, list[str]]:
    return {
        row.payload["data"]: sorted(row.payload["linked_memory_ids"])
        for row in EntityRow.objects.filter(payload__user_id=scope.key)
    }


def test_batch_insert_is_indistinguishable_from_mem0s_add(scope, other_scope):
    """Every add goes through ``add_many``: what it stores must be what Mem0's own
    ``add(infer=False)`` stores, plus the entity links Mem0's helper would give it."""
    engine = get_engine()
    text = "团队在 Atlas 项目中统一使用“飞书”同步进度。"
    result = engine._memory.add(
        [{"role": "user", "content": text}], user_id=scope.key, metadata=dict(META), infer=False
    )
    (added,) = [str(row["id"]) for row in result["results"]]
    engine._memory._link_entities_for_memory(added, text, {"user_id": scope.key})
    (batched,) = engine.add_many(other_scope.key, [NewFact(text=text, metadata=dict(META))])

    one, two = MemoryRow.objects.get(id=added), MemoryRow.objects.get(id=batched)
    mine, theirs = dict(one.payload), dict(two.payload)
    for payload in (mine, theirs):
        assert payload.pop("created_at") == payload.pop("updated_at")
    assert theirs.pop("user_id") == other_scope.key and mine.pop("user_id") == scope.key
    assert mine == theirs
    similarity = sum(a * b for a, b in zip(one.vector, two.vector, strict=True))
    assert similarity > 0.999
    names = {k: len(v) for k, v in _links(scope).items()}
    assert names and names == {k: len(v) for k, v in _links(other_scope).items()}
    for channel, ids in _channels(engine, other_scope, "Atlas 项目 飞书", "飞书 Atlas").items():
        assert ids == [batched], channel


def test_batch_insert_links_shared_entities_once_and_is_listed_and_deletable(scope):
    engine = get_engine()
    texts = [
        "用户的团队使用“飞书”沟通。",
        "“飞书”里每周五发周报。",
        "User deploys Atlas on Fridays.",
    ]
    first = engine.add_fact(scope_key=scope.key, text="项目周会在“飞书”上开。", metadata={})
    ids = engine.add_many(
        scope.key, [NewFact(text=t, metadata={"category": "fact"}) for t in texts]
    )
    assert len(set(ids)) == 3
    rows = EntityRow.objects.filter(payload__user_id=scope.key)
    feishu = [r for r in rows if r.payload["data"] == "飞书"]
    assert len(feishu) == 1, "one entity row per name and scope"
    assert sorted(feishu[0].payload["linked_memory_ids"]) == sorted([first, ids[0], ids[1]])
    listed = {row.id for row in selectors.scope_rows(scope)}
    assert {str(i) for i in listed} >= set(ids)

    engine.delete_fact(memory_id=ids[1], scope_key=scope.key)
    assert not MemoryRow.objects.filter(id=ids[1]).exists()
    assert engine.entity_links(memory_id=ids[1]) == 0
    assert ids[1] not in sum(_links(scope).values(), [])
    assert sorted(_links(scope)["飞书"]) == sorted([first, ids[0]])


def test_unlinking_the_last_memory_deletes_the_entity(scope):
    engine = get_engine()
    memory_id = engine.add_fact(scope_key=scope.key, text="项目代号“Kestrel”。", metadata={})
    assert "Kestrel" in _links(scope)
    engine.delete_fact(memory_id=memory_id, scope_key=scope.key)
    assert _links(scope) == {}


def test_entity_links_stay_within_their_scope(scope, other_scope):
    engine = get_engine()
    mine = engine.add_fact(scope_key=scope.key, text="团队使用“飞书”。", metadata={})
    theirs = engine.add_fact(scope_key=other_scope.key, text="团队使用“飞书”。", metadata={})
    assert _links(scope)["飞书"] == [mine] and _links(other_scope)["飞书"] == [theirs]


def test_update_relinks_through_the_replaced_helpers(scope):
    engine = get_engine()
    memory_id = engine.add_fact(scope_key=scope.key, text="团队使用“飞书”。", metadata={})
    engine.update_fact(memory_id=memory_id, text="团队使用“钉钉”。", metadata={})
    assert _links(scope) == {"钉钉": [memory_id]}


def test_delete_scope_removes_everything_of_the_scope_only(scope, other_scope, agent):
    engine = get_engine()
    for text in ("用户偏好简洁的回答。", "团队使用“飞书”沟通。", "User prefers Go."):
        services.memory_add(scope=scope, text=text, actor=agent)
    engine.add_many(
        scope.key, [NewFact(text=f"第{n}号方案用“飞书”评审。", metadata={}) for n in range(5)]
    )
    kept = services.memory_add(scope=other_scope, text="团队使用“飞书”沟通。", actor=agent)

    outcome = services.memory_delete_user(scope=scope, actor=agent)

    assert outcome.status == DeleteStatus.DELETED and outcome.deleted_count == 8
    assert not MemoryRow.objects.filter(payload__user_id=scope.key).exists()
    assert not EntityRow.objects.filter(payload__user_id=scope.key).exists()
    events = AuditEvent.objects.filter(tenant_id=scope.tenant_id, user_id=scope.user_id)
    assert not events.exclude(old_text="", new_text="").exists()
    assert events.filter(event="DELETE", status="deleted").count() == 8
    assert MemoryRow.objects.filter(id=kept.memory_id).exists()
    assert _links(other_scope) == {"飞书": [kept.memory_id]}


def test_extraction_links_to_the_existing_entity_by_name(scope):
    """Mem0's infer=True add links its facts' entities itself; our indexed lookup answers its
    exact-name question, so a known name gains a link instead of a second entity row."""
    engine = get_engine()
    first = engine.add_fact(scope_key=scope.key, text="团队使用“飞书”沟通。", metadata={})
    facts = engine.extract(
        scope_key=scope.key,
        messages=[{"role": "user", "content": "以后所有周报都统一发到“飞书”群里。"}],
        metadata={"category": "preference"},
    )
    assert len(facts) == 1 and "飞书" in facts[0].text
    assert _links(scope)["飞书"] == sorted([first, facts[0].id])
    names = [r.payload["data"] for r in EntityRow.objects.filter(payload__user_id=scope.key)]
    assert names.count("飞书") == 1


def test_mem0_still_calls_the_helpers_we_replace():
    """Our entity index works only while Mem0 reaches it through these names (mem0ai 2.2.1):
    if an upgrade inlines one, the slow path comes back silently."""
    import inspect

    from mem0.memory.main import Memory

    engine = get_engine()
    calls = {
        "_add_to_vector_store": "self._existing_entities_by_text(",
        "_update_memory": "self._link_entities_for_memory(",
        "_delete_memory": "self._remove_memory_from_entity_store(",
    }
    for method, call in calls.items():
        assert call in inspect.getsource(getattr(Memory, method)), f"Memory.{method} changed"
    for name in ("_existing_entities_by_text", "_link_entities_for_memory"):
        assert getattr(engine._memory, name).__self__ is engine, f"{name} is Mem0's again"


def test_delete_scope_counts_a_link_left_anywhere_as_residue(scope, other_scope):
    """The residue check probes the link index per deleted id: a link to a deleted memory that
    survives in any entity row (here planted in another scope's) keeps delete-user honest."""
    engine = get_engine()
    (gone,) = engine.add_many(scope.key, [NewFact(text="团队使用“飞书”沟通。", metadata={})])
    (kept,) = engine.add_many(other_scope.key, [NewFact(text="项目代号“Kestrel”。", metadata={})])
    planted = EntityRow.objects.filter(payload__user_id=other_scope.key).first()
    assert planted is not None
    with engine._memory.entity_store._get_cursor(commit=True) as cur:
        cur.execute(
            "UPDATE poco_memories_entities SET payload = jsonb_set(payload, "
            "'{linked_memory_ids}', payload->'linked_memory_ids' || to_jsonb(%s::text)) "
            "WHERE id = %s",
            (gone, planted.id),
        )

    deletion = engine.delete_scope(scope_key=scope.key)

    assert deletion.memory_ids == [gone]
    assert deletion.residue == 1
    assert engine.delete_scope(scope_key="acme:nobody").residue == 0
    assert MemoryRow.objects.filter(id=kept).exists()


def _merge_link_index_pending_list() -> int:
    """Pages GIN's pending list of the link index held (merging them into the index)."""
    with get_engine()._memory.entity_store._get_cursor(commit=True) as cur:
        cur.execute("SELECT gin_clean_pending_list('poco_memories_entities_links_idx'::regclass)")
        return int(cur.fetchone()[0])


def test_the_residue_check_reads_a_merged_link_index(scope):
    """New links wait in GIN's pending list until a vacuum merges them, and every probe of the
    index reads that whole list: the residue check's one probe per deleted id took 0.16 ms each
    with 316 pages waiting — over the statement bound for a delete-user of 20,000 (answered
    partial_cleanup with nothing left). The check merges the list first: 0.005 ms a probe."""
    engine = get_engine()
    facts = [NewFact(text=f"第{n}号方案用“飞书”和“Kestrel”评审。", metadata={}) for n in range(20)]
    engine.add_many(scope.key, facts[:10])
    assert _merge_link_index_pending_list() > 0  # links wait in the pending list
    engine.add_many(scope.key, facts[10:])

    deletion = engine.delete_scope(scope_key=scope.key)

    assert len(deletion.memory_ids) == 20 and deletion.residue == 0
    assert _merge_link_index_pending_list() == 0
