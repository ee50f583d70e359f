"""Contract tests of the engine's own write paths (issue 13): the batch insert ``add_many``, the
set-based entity index that replaced Mem0's per-entity helpers, and ``delete_scope``.

A batch-inserted memory must be indistinguishable from one added through Mem0: the same
payload, the same vector, the same entity links, found by every recall channel, listed, and
deleted with nothing left behind.
"""

from __future__ import annotations

import pytest

from memories import selectors, services
from memories.engine import get_engine, nlp
from memories.engine.adapter import NewFact
from memories.engine.recall import ChannelQuery
from memories.models import AuditEvent, EntityRow, MemoryRow
from memories.types import Channel, DeleteStatus, SearchFilters

pytestmark = pytest.mark.django_db

META = {"category": "preference", "source": "manage", "schema_version": 1}


def _channels(engine, scope, query: str, names: str) -> dict[Channel, list[str]]:
    hits = engine.recall(
        ChannelQuery(
            scope_key=scope.key,
            vector=engine.embed_query(query),
            terms=nlp.query_terms(query),
            grams=nlp.name_grams(names),
            quoted=[],
            misspellings=[],
            filters=SearchFilters(),
            vector_floor=0.0,
            keyword_min_coverage=0.5,
            keyword_max_share=1.0,
            pool=5,
        )
    )
    return {channel: [h.id for h in found] for channel, found in hits.items()}


def _links(scope) -> dict[str, list[str]]:
    return {
        row.payload["data"]: sorted(row.payload["linked_memory_ids"])
        for row in EntityRow.objects.filter(payload__user_id=scope.key)
    }


def test_batch_insert_is_indistinguishable_from_an_add(scope, other_scope):
    engine = get_engine()
    text = "团队在 Atlas 项目中统一使用“飞书”同步进度。"
    added = engine.add_fact(scope_key=scope.key, text=text, metadata=dict(META))
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
