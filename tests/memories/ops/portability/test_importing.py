"""Import on the real database and the real embedder: what comes back, in chunks, under the lock."""

from __future__ import annotations

import contextlib
import json
from datetime import datetime, timedelta

import pytest
from django.utils import timezone

from memories import selectors
from memories.export_document import EXPORT_FORMAT, EXPORT_VERSION, MAX_IMPORT_ITEMS
from memories.models import AuditEvent
from memories.ops import portability
from memories.ops.portability import importing
from memories.services import NewMemory, memory_add_many, prepare_import
from memories.types import (
    BackendError,
    ListQuery,
    Source,
)
from tests.memories.conftest import assert_invalid, body
from tests.memories.ops.portability.conftest import (
    FACTS,
    texts,
    version_1_document,
)

pytestmark = pytest.mark.django_db


def test_import_into_another_scope_adds_every_item_and_keeps_created_at(
    v1, exported, scope, other_scope
):
    answer = v1.post("import", body(other_scope, document=exported))
    assert answer.status_code == 200, answer.content
    data = answer.json()
    assert (data["added"], data["no_effect"], data["rejected"]) == (3, 0, 0)
    assert data["success"] is True and data["status"] == "done"
    assert [item["index"] for item in data["items"]] == [0, 1, 2]
    assert {text for text, _ in FACTS} <= texts(other_scope)
    imported = {r.content: r for r in selectors.memory_list(scope=other_scope).items}
    for item in exported["memories"]:
        record = imported[item["content"]]
        # The original door comes back; the import is marked beside it.
        assert record.source == item["source"] and record.metadata["import_id"]
        assert record.category == item["category"]
        assert record.created_at == datetime.fromisoformat(item["created_at"])


def test_the_imports_own_trail_row_is_dated_when_the_import_ran(v1, scope, other_scope, agent):
    # An item without a trail (a version 1 document, a hand-written one) too: its ADD row once
    # kept the memory's original created_at and looked like no import at all.
    from memories.services import memory_add

    memory_add(scope=scope, text="用户喜欢喝乌龙茶。", actor=agent)
    document = portability.memory_export(scope=scope)
    for item in document["memories"]:
        item["history"] = []
        item["created_at"] = "2025-03-01T08:00:00+00:00"
    started = timezone.now()

    answer = v1.post("import", body(other_scope, document=document))

    assert answer.status_code == 200, answer.content
    (row,) = AuditEvent.objects.filter(tenant_id=other_scope.tenant_id, user_id=other_scope.user_id)
    assert (row.event, row.status) == ("ADD", "imported")
    assert row.created_at >= started


def test_importing_the_same_document_twice_changes_nothing(v1, exported, other_scope):
    first = v1.post("import", body(other_scope, document=exported)).json()
    before = selectors.memory_list(scope=other_scope, query=ListQuery(page_size=100))
    second = v1.post("import", body(other_scope, document=exported)).json()
    assert first["added"] == 3
    assert (second["added"], second["no_effect"]) == (0, 3)
    assert {item["reason"] for item in second["items"]} == {"duplicate"}
    after = selectors.memory_list(scope=other_scope, query=ListQuery(page_size=100))
    assert [(r.id, r.content) for r in after.items] == [(r.id, r.content) for r in before.items]


def test_importing_an_export_into_its_own_scope_changes_nothing(v1, exported, scope):
    data = v1.post("import", body(scope, document=exported)).json()
    assert (data["added"], data["no_effect"]) == (0, 3)
    assert len(texts(scope)) == 3


def test_import_passes_admission_and_names_rejected_items_by_index(v1, other_scope):
    document = version_1_document(
        [
            {"content": "用户偏好“简洁”的回答。", "category": "preference"},
            {"content": "我的密码是芝麻开门"},
        ]
    )
    data = v1.post("import", body(other_scope, document=document)).json()
    assert (data["added"], data["rejected"]) == (1, 1)
    assert data["items"][1] == {
        "index": 1,
        "status": "rejected",
        "memory_id": None,
        "reason": "credential",
        "superseded_id": None,
    }
    assert texts(other_scope) == {"用户偏好“简洁”的回答。"}
    assert "芝麻开门" not in "".join(AuditEvent.objects.values_list("new_text", flat=True))


def test_superseded_expired_and_outdated_items_are_not_brought_back(v1, other_scope):
    past = (timezone.now() - timedelta(days=1)).isoformat()
    document = version_1_document(
        [
            {"content": "以后技术问题默认用中文回答。", "status": "superseded"},
            {"content": "用户在准备十一月的发布。", "status": "expired"},
            {"content": "用户周五下午不开会。", "valid_until": past},
            {"content": "用户喜欢先看结论再看细节。"},
        ]
    )
    data = v1.post("import", body(other_scope, document=document)).json()
    assert [item["status"] for item in data["items"]] == [
        "no_effect",
        "no_effect",
        "no_effect",
        "added",
    ]
    assert [item["reason"] for item in data["items"][:3]] == [
        "not_active:superseded",
        "not_active:expired",
        "expired",
    ]
    assert texts(other_scope) == {"用户喜欢先看结论再看细节。"}


def test_an_item_that_supersedes_is_reported_added_naming_what_it_superseded(v1, other_scope):
    # Found by an outside probe: the second item of a key, the new current memory, was answered
    # {"status": "superseded", "reason": <old id>}: a client reading status took it for history.
    document = version_1_document(
        [
            {"content": "用户住在武汉。", "memory_key": "profile.home_city"},
            {"content": "用户搬到了杭州。", "memory_key": "profile.home_city"},
            {"content": "用户喜欢先看结论再看细节。"},
        ]
    )
    data = v1.post("import", body(other_scope, document=document)).json()
    first, second, third = data["items"]
    assert first == {
        "index": 0,
        "status": "added",
        "memory_id": first["memory_id"],
        "reason": None,
        "superseded_id": None,
    }
    assert second == {
        "index": 1,
        "status": "added",
        "memory_id": second["memory_id"],
        "reason": None,
        "superseded_id": first["memory_id"],  # as the explicit add names it
    }
    assert third["status"] == "added" and third["superseded_id"] is None
    # every written item counts as added; superseded counts the memories they replaced
    assert (data["added"], data["superseded"]) == (3, 1)
    current = selectors.memory_list(scope=other_scope, query=ListQuery(status="active")).items
    assert second["memory_id"] in {r.id for r in current}
    assert first["memory_id"] not in {r.id for r in current}


def test_a_created_at_from_a_broken_clock_is_replaced_and_reported(v1, other_scope):
    document = version_1_document(
        [
            {"content": "用户喜欢先看结论。", "created_at": "0701-04-02T03:02:25Z"},
            {"content": "用户喜欢猫。", "created_at": "2999-01-01T00:00:00Z"},
        ]
    )
    data = v1.post("import", body(other_scope, document=document)).json()
    assert [item["reason"] for item in data["items"]] == ["created_at_ignored"] * 2
    listed = v1.post("list-user", body(other_scope))
    assert listed.status_code == 200
    for item in listed.json()["items"]:
        created = datetime.fromisoformat(item["created_at"])
        assert abs(created - timezone.now()) < timedelta(minutes=5)


def test_import_holds_the_scope_lock_once_for_the_whole_document(
    v1, exported, other_scope, monkeypatch
):
    taken = []
    real = importing.scope_write_exclusive

    @contextlib.contextmanager
    def counting(*, scope):
        taken.append(scope)
        with real(scope=scope):
            yield

    monkeypatch.setattr(importing, "scope_write_exclusive", counting)
    data = v1.post("import", body(other_scope, document=exported)).json()
    assert data["added"] == 3
    assert taken == [other_scope]


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"version": 99}, "version"),
        ({"format": "something-else"}, "format"),
        ({"memories": [{"content": ""}]}, "memories"),
        ({"memories": [{"content": "用户喜欢猫。", "vector": [0.1]}]}, "memories"),
        ({"memories": [{"content": "用户喜欢猫。", "status": "deleted"}]}, "memories"),
        ({"memories": [{"content": "x" * 2001}]}, "memories"),
        ({"memories": "not a list"}, "memories"),
    ],
)
def test_invalid_documents_are_a_400_naming_the_field_and_change_nothing(
    v1, other_scope, change, field
):
    document = {"format": EXPORT_FORMAT, "version": 1, "memories": [], **change}
    answer = v1.post("import", body(other_scope, document=document))
    assert_invalid(answer, "document")
    assert field in answer.json()["error"]["fields"]["document"]
    assert texts(other_scope) == set()


def test_unsupported_version_says_which_version_is_read(v1, other_scope):
    document = {"format": EXPORT_FORMAT, "version": EXPORT_VERSION + 1, "memories": []}
    answer = v1.post("import", body(other_scope, document=document))
    assert f"versions 1 to {EXPORT_VERSION}" in json.dumps(answer.json()["error"]["fields"])


def test_import_of_too_many_items_is_refused(v1, other_scope):
    many = [{"content": f"事实 {i}"} for i in range(MAX_IMPORT_ITEMS + 1)]
    document = version_1_document(many)
    assert_invalid(v1.post("import", body(other_scope, document=document)), "document")
    assert texts(other_scope) == set()


@pytest.mark.usefixtures("failing_embedder_engine")
def test_import_with_the_embedder_down_is_503_and_writes_nothing(v1, other_scope):
    document = version_1_document([{"content": "用户喜欢先看结论。"}, {"content": "用户喜欢猫。"}])
    answer = v1.post("import", body(other_scope, document=document))
    assert answer.status_code == 503
    data = answer.json()
    assert data["success"] is False and data["status"] == "backend_error"
    assert [item["status"] for item in data["items"]] == ["backend_error", "not_attempted"]
    assert data["not_attempted"] == 2 and data["added"] == 0
    assert texts(other_scope) == set()


# --- the look-ahead: the next chunk is analysed while this one is written -----------------------
LOOK_AHEAD_DOCUMENT = [
    {"content": "用户喜欢先看结论。"},
    {"content": "用户养了一只叫豆豆的猫。"},
    {"content": "我的身份证号是 110101199003071234。"},  # refused by admission
    {"content": "用户喜欢先看结论。"},  # a repeat of the first, one chunk later
    {"content": "发布窗口定在三月。", "memory_key": "project.release_window"},
    {"content": "The team deploys on Fridays."},
    {
        "content": "发布窗口改到四月。",
        "memory_key": "project.release_window",
    },  # supersedes, next chunk
]


def test_a_chunked_import_answers_as_one_chunk_does(scope, other_scope, agent, monkeypatch):
    """Chunks of three, each analysed on the look-ahead thread while the one before is
    written, answer item by item what one chunk answers, and store the same memories."""
    whole = portability.memory_import(scope=scope, items=LOOK_AHEAD_DOCUMENT, actor=agent)
    monkeypatch.setattr(importing, "IMPORT_CHUNK", 3)
    chunked = portability.memory_import(scope=other_scope, items=LOOK_AHEAD_DOCUMENT, actor=agent)

    def answers(report):  # what an item superseded is an id: ids differ between scopes
        return [(i.index, i.status, i.reason, bool(i.superseded_id)) for i in report.items]

    statuses = answers(whole)
    assert answers(chunked) == statuses
    assert [(status, superseded) for _, status, _, superseded in statuses] == [
        ("added", False),
        ("added", False),
        ("rejected", False),
        ("no_effect", False),
        ("added", False),
        ("added", False),
        ("added", True),
    ]
    assert texts(scope) == texts(other_scope) and "发布窗口定在三月。" not in texts(scope)


def test_a_look_ahead_that_fails_leaves_the_chunk_to_its_own_analysis(
    other_scope, agent, monkeypatch
):
    def failing(items):
        raise BackendError("embedder busy")

    monkeypatch.setattr(importing, "prepare_import", failing)
    monkeypatch.setattr(importing, "IMPORT_CHUNK", 3)
    report = portability.memory_import(scope=other_scope, items=LOOK_AHEAD_DOCUMENT, actor=agent)
    assert report.backend_error is None
    assert report.count("added") == 5 and report.superseded == 1


def test_an_analysis_is_only_taken_for_the_items_it_was_made_of(other_scope, agent):
    items = [NewMemory(text="用户喜欢先看结论。")]
    ready = prepare_import(items)
    with pytest.raises(ValueError):
        memory_add_many(scope=other_scope, items=list(items), actor=agent, ready=ready)
    with pytest.raises(ValueError):
        memory_add_many(
            scope=other_scope, items=items, actor=agent, source=Source.MANAGE, ready=ready
        )
    assert texts(other_scope) == set()
