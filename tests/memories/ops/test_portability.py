"""Export and import on the real database and the real embedder."""

from __future__ import annotations

import contextlib
import csv
import io
import json
from datetime import datetime, timedelta

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import timezone, translation

from memories import selectors
from memories.contract.export_document import EXPORT_FORMAT, EXPORT_VERSION, MAX_IMPORT_ITEMS
from memories.models import AuditEvent
from memories.ops import portability
from memories.ops.portability import export_csv
from memories.services import NewMemory, memory_add, memory_add_many, prepare_import
from memories.types import (
    SCHEMA_VERSION,
    BackendError,
    Category,
    ListQuery,
    MemoryScope,
    Source,
    WriteStatus,
)
from tests.memories.conftest import assert_invalid, body
from tests.memories.engine.test_outage import (  # noqa: F401 - pytest finds fixtures by name
    failing_embedder_engine,
    swap_engine,
    use_failing_embedder,
)

pytestmark = pytest.mark.django_db

FACTS = [
    ("用户偏好简体中文技术方案，并先给结论。", Category.PREFERENCE),
    ("用户正在做 Poco 项目的记忆服务。", Category.PROJECT),
    ("The user prefers concise English answers for code reviews.", Category.PREFERENCE),
]


def store(scope: MemoryScope, agent, facts=FACTS) -> list[str]:
    ids = []
    for text, category in facts:
        outcome = memory_add(scope=scope, text=text, actor=agent, category=category)
        assert outcome.status == WriteStatus.ADDED, outcome
        ids.append(outcome.memory_id)
    return ids


def version_1_document(memories: list[dict]) -> dict:
    """An export document of version 1 holding ``memories``."""
    return {"format": EXPORT_FORMAT, "version": 1, "memories": memories}


def texts(scope: MemoryScope) -> set[str]:
    return {
        r.content for r in selectors.memory_list(scope=scope, query=ListQuery(page_size=100)).items
    }


@pytest.fixture
def exported(v1, scope, other_scope, agent) -> dict:
    store(scope, agent)
    store(other_scope, agent, [("Bob 喜欢早上开会。", Category.PREFERENCE)])
    answer = v1.post("export", body(scope))
    assert answer.status_code == 200, answer.content
    return answer.json()


# --- export ----------------------------------------------------------------------------------
def test_export_is_a_versioned_document_of_the_scope_only(exported, scope):
    assert exported["format"] == EXPORT_FORMAT
    assert exported["version"] == EXPORT_VERSION
    assert exported["scope"] == {"tenant_id": scope.tenant_id, "user_id": scope.user_id}
    assert {m["content"] for m in exported["memories"]} == {text for text, _ in FACTS}
    assert "Bob" not in json.dumps(exported, ensure_ascii=False)


def test_exported_memory_carries_its_governance_fields_and_no_vector(exported):
    item = next(m for m in exported["memories"] if m["content"].startswith("用户偏好"))
    assert item["category"] == "preference"
    assert item["status"] == "active"
    assert item["source"] == "manage"
    assert (
        item["created_at"] and item["embedding_model"] and item["schema_version"] == SCHEMA_VERSION
    )
    assert set(item) == set(portability.FIELDS)
    assert "vector" not in json.dumps(exported)


def test_export_of_an_empty_scope_is_an_empty_document(v1, scope):
    answer = v1.post("export", body(scope))
    assert answer.status_code == 200
    assert answer.json()["memories"] == []


def test_export_refuses_unknown_fields(v1, scope):
    assert_invalid(v1.post("export", body(scope, page=1)), "page")


# --- import ----------------------------------------------------------------------------------
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
    real = portability.scope_write_lock

    @contextlib.contextmanager
    def counting(scope):
        taken.append(scope)
        with real(scope):
            yield

    monkeypatch.setattr(portability, "scope_write_lock", counting)
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
    monkeypatch.setattr(portability, "IMPORT_CHUNK", 3)
    chunked = portability.memory_import(scope=other_scope, items=LOOK_AHEAD_DOCUMENT, actor=agent)

    def answers(report):  # a supersede's reason names the memory it replaced: ids differ
        return [(i.index, i.status, i.status != "superseded" and i.reason) for i in report.items]

    statuses = answers(whole)
    assert answers(chunked) == statuses
    assert [status for _, status, _ in statuses] == [
        "added",
        "added",
        "rejected",
        "no_effect",
        "added",
        "added",
        "superseded",
    ]
    assert texts(scope) == texts(other_scope) and "发布窗口定在三月。" not in texts(scope)


def test_a_look_ahead_that_fails_leaves_the_chunk_to_its_own_analysis(
    other_scope, agent, monkeypatch
):
    def failing(items):
        raise BackendError("embedder busy")

    monkeypatch.setattr(portability, "prepare_import", failing)
    monkeypatch.setattr(portability, "IMPORT_CHUNK", 3)
    report = portability.memory_import(scope=other_scope, items=LOOK_AHEAD_DOCUMENT, actor=agent)
    assert report.backend_error is None
    assert report.count("added") == 4 and report.count("superseded") == 1


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


# --- files for people --------------------------------------------------------------------------
def test_csv_cells_that_a_spreadsheet_would_run_are_quoted():
    document = {
        "memories": [
            {"content": '=HYPERLINK("http://x")', "category": "fact"},
            {"content": "+1 的意思是同意", "category": "fact"},
            {"content": "-号开头", "category": "fact"},
            {"content": "@提及", "category": "fact"},
            {"content": "普通的一句话", "category": "fact"},
        ]
    }
    with translation.override("zh-hans"):
        rows = list(csv.DictReader(io.StringIO(export_csv(document))))
    assert [row["内容"] for row in rows] == [
        '\'=HYPERLINK("http://x")',
        "'+1 的意思是同意",
        "'-号开头",
        "'@提及",
        "普通的一句话",
    ]


# --- commands --------------------------------------------------------------------------------
def test_export_and_import_commands_round_trip(scope, other_scope, agent, tmp_path):
    store(scope, agent)
    path = tmp_path / "export.json"
    call_command("memory_export", tenant=scope.tenant_id, user=scope.user_id, output=str(path))
    assert json.loads(path.read_text(encoding="utf-8"))["format"] == EXPORT_FORMAT
    out, progress = io.StringIO(), io.StringIO()
    args = ["--tenant", other_scope.tenant_id, "--user", other_scope.user_id, str(path)]
    call_command("memory_import", *args, stdout=out, stderr=progress)
    assert "added 3" in out.getvalue()
    assert "imported: 3/3 (" in progress.getvalue()
    again = io.StringIO()
    call_command("memory_import", *args, stdout=again)
    assert "added 0" in again.getvalue() and "no_effect 3" in again.getvalue()
    assert texts(other_scope) == {text for text, _ in FACTS}


def test_import_command_refuses_an_invalid_file(other_scope, tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"format": EXPORT_FORMAT, "version": 9, "memories": []}))
    with pytest.raises(CommandError, match="version"):
        call_command("memory_import", "--tenant", "acme", "--user", other_scope.user_id, str(path))


def test_export_command_into_a_missing_directory_is_a_command_error(scope, tmp_path):
    path = tmp_path / "no-such-dir" / "export.json"
    with pytest.raises(CommandError, match="no-such-dir") as refused:
        call_command("memory_export", tenant=scope.tenant_id, user=scope.user_id, output=str(path))
    assert "cannot write" in str(refused.value)
    assert not path.parent.exists()


def test_import_command_shows_field_errors_readably(other_scope, tmp_path):
    """The serializer's messages as written (Chinese here), not JSON-escaped."""
    from django.utils import translation

    path = tmp_path / "list.json"
    path.write_text("[]")
    with translation.override("zh-hans"), pytest.raises(CommandError) as refused:
        call_command("memory_import", "--tenant", "acme", "--user", other_scope.user_id, str(path))
    message = str(refused.value)
    assert "无效" in message and "\\u" not in message


@pytest.mark.parametrize("content", ["[" * 5000, "9" * 5000, "5", "null"])
def test_import_command_refuses_a_deep_or_odd_file_without_a_traceback(
    other_scope, tmp_path, content
):
    path = tmp_path / "odd.json"
    path.write_text(content)
    with pytest.raises(CommandError):
        call_command("memory_import", "--tenant", "acme", "--user", other_scope.user_id, str(path))
    assert texts(other_scope) == set()


# --- a whole restore: what the detail page shows comes back ----------------------------------
MARKS = ("imported_at", "import_id")


def comparable(document: dict) -> list[dict]:
    """The document's memories without what an import may change: ids, the import's own
    marks and its own trail row."""
    items = []
    for item in document["memories"]:
        kept = {k: v for k, v in item.items() if k not in ("id", "superseded_by", *MARKS)}
        kept["history"] = [
            {k: v for k, v in entry.items() if k != "imported"}
            for entry in item["history"]
            if entry["status"] != "imported"
        ]
        items.append(kept)
    return items


def test_export_delete_all_import_export_gives_the_same_document(scope, agent):
    from memories.contract.export_reader import ExportDocument, read_export_data
    from memories.services import memory_delete_user, memory_update
    from memories.services.validity import memory_pin
    from memories.usage import Use, count_use

    kept = memory_add(
        scope=scope, text="周报使用“飞书”文档撰写。", actor=agent, run_id="run-20261130-07"
    ).memory_id
    corrected = memory_update(
        scope=scope, memory_id=kept, text="周报使用「飞书」文档撰写，结论先行。", actor=agent
    )
    assert corrected.status == WriteStatus.UPDATED
    assert memory_pin(scope=scope, memory_id=kept, pinned=True, actor=agent).status in (
        WriteStatus.UPDATED,
        WriteStatus.ADDED,
    )
    count_use(scope=scope, memory_ids=[kept], use=Use.RECALLED)
    count_use(scope=scope, memory_ids=[kept], use=Use.RECALLED)
    count_use(scope=scope, memory_ids=[kept], use=Use.INJECTED)
    memory_add(scope=scope, text="用户喜欢猫。", actor=agent, category=Category.PREFERENCE)

    before = portability.memory_export(scope=scope)
    assert before["version"] == EXPORT_VERSION >= 2
    first = next(item for item in before["memories"] if item["content"].startswith("周报"))
    assert first["pinned"] is True and first["source"] == Source.MANAGE
    assert first["source_ref"] == "run-20261130-07"
    assert first["usage"]["recalled_count"] == 2 and first["usage"]["injected_count"] == 1
    assert [entry["event"] for entry in first["history"]][:2] == ["ADD", "UPDATE"]
    assert first["history"][1]["old_text"] == "周报使用“飞书”文档撰写。"

    assert memory_delete_user(scope=scope, actor=agent).status == "deleted"
    read = read_export_data(json.loads(json.dumps(before, ensure_ascii=False)))
    assert isinstance(read, ExportDocument)
    report = portability.memory_import(scope=scope, items=read.memories, actor=agent)
    assert report.count("added") == 2, report

    after = portability.memory_export(scope=scope)
    for old, new in zip(comparable(before), comparable(after), strict=True):
        for key in old:
            assert new[key] == old[key], key
    restored = next(item for item in after["memories"] if item["content"].startswith("周报"))
    assert restored["imported_at"] and restored["import_id"]
    assert all(entry["imported"] for entry in restored["history"] if entry["status"] != "imported")
    # The trail says when it was imported, beside the original times.
    assert [e["status"] for e in restored["history"]].count("imported") == 1


def test_a_version_1_document_is_still_read(scope, agent):
    from memories.contract.export_reader import ExportDocument, read_export_data

    read = read_export_data(version_1_document([{"content": "用户喜欢先看结论。"}]))
    assert isinstance(read, ExportDocument) and read.version == 1
    report = portability.memory_import(scope=scope, items=read.memories, actor=agent)
    assert report.count("added") == 1


def test_a_secret_in_an_imported_trail_does_not_enter_the_audit_trail(scope, agent):
    from memories.contract.export_reader import ExportDocument, read_export_data

    secret = "我的邮箱密码：Kiwi21Moss!"
    item = {
        "content": "用户喜欢先看结论。",
        "history": [
            {"event": "ADD", "new_text": secret, "at": "2026-01-01T00:00:00+00:00"},
            {
                "event": "UPDATE",
                "old_text": secret,
                "new_text": "用户喜欢先看结论。",
                "at": "2026-01-02T00:00:00+00:00",
            },
        ],
    }
    read = read_export_data({"format": EXPORT_FORMAT, "version": 2, "memories": [item]})
    assert isinstance(read, ExportDocument)
    report = portability.memory_import(scope=scope, items=read.memories, actor=agent)
    assert report.count("added") == 1
    written = list(AuditEvent.objects.values_list("old_text", "new_text"))
    assert "Kiwi21Moss" not in json.dumps(written, ensure_ascii=False)
    # The change itself is kept, marked as imported, at its original time.
    update = AuditEvent.objects.get(event="UPDATE")
    assert "imported" in update.changes and update.created_at.year == 2026
    assert update.new_text == "用户喜欢先看结论。" and update.old_text == ""
