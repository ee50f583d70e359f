"""The console's answers to "where did this come from", "do my agents use it", "always use
this", a bulk change of category and an import with a preview — and the user API's.

Real PostgreSQL and the real embedder; the browser's view of the same is in
``tests/e2e/test_console_origin_use_pins_import.py``.
"""

from __future__ import annotations

import html
import json
import re

import pytest
from django.test import Client

from memories import context, selectors, services
from memories.models import AuditEvent
from memories.ops import portability
from memories.services import validity
from memories.types import Actor, ActorKind, ListQuery, Source, StatusFilter, WriteStatus
from memories.usage import Use, count_use

pytestmark = pytest.mark.django_db

AGENT = Actor(kind=ActorKind.AGENT, id="poco-agent")
# Every memory of the scope, whatever its status.
STORED = ListQuery(status=StatusFilter.ALL)


def agent_add(scope, text: str, run_id: str = "run-20261130-07", category: str = "fact") -> str:
    outcome = services.memory_add(
        scope=scope, text=text, actor=AGENT, source=Source.MANAGE, run_id=run_id, category=category
    )
    assert outcome.status == WriteStatus.ADDED and outcome.memory_id, outcome
    return outcome.memory_id


def test_detail_names_the_run_that_wrote_it_and_how_often_agents_used_it(
    alice_client, alice_scope, settings
):
    settings.RUN_URL_TEMPLATE = "https://poco.example.com/runs/{run_id}"
    first = agent_add(alice_scope, "周报使用飞书文档撰写。")
    agent_add(alice_scope, "周报周五发给林清。")
    unused = agent_add(alice_scope, "代码评审先写结论。", run_id="run-20261129-02")
    count_use(scope=alice_scope, memory_ids=[first], use=Use.RECALLED)
    count_use(scope=alice_scope, memory_ids=[first], use=Use.RECALLED)
    count_use(scope=alice_scope, memory_ids=[first], use=Use.INJECTED)

    page = alice_client.get(f"/memories/{first}/").content.decode()
    assert 'data-field="run-id">run-20261130-07<' in page
    assert 'href="https://poco.example.com/runs/run-20261130-07"' in page
    assert "这个任务记下的 2 条记忆" in page
    assert "poco-agent" not in page  # actor ids stay in the admin
    assert 'data-field="recalled">2 次' in page and 'data-field="injected">1 次' in page

    assert (
        "还没有被 Agent 检索或自动引用过"
        in alice_client.get(f"/memories/{unused}/").content.decode()
    )

    # The run's link lists exactly its memories; sorted by use, the used one comes first.
    listed = alice_client.get("/memories/?run=run-20261130-07&status=all").content.decode()
    assert "共 2 条记忆" in listed and "代码评审先写结论" not in listed
    assert "任务：run-20261130-07" in listed
    by_use = alice_client.get("/memories/?sort=used").content.decode()
    assert by_use.index("周报使用飞书文档撰写") < by_use.index("代码评审先写结论")
    assert "被使用 3 次" in by_use


def test_pin_and_unpin_from_the_detail_page_and_the_limit_is_said(
    alice_client, alice_scope, monkeypatch
):
    ids = [agent_add(alice_scope, f"项目代号 P{n} 的负责人是同事 {n} 号。") for n in range(3)]
    answer = alice_client.post(f"/memories/{ids[0]}/pin/", {"pinned": "1"}, follow=True)
    assert "已设为始终使用" in answer.content.decode()
    assert selectors.memory_get(scope=alice_scope, memory_id=ids[0]).metadata["pinned"] is True
    assert 'data-field="pinned"' in alice_client.get("/memories/").content.decode()

    monkeypatch.setattr(validity, "MAX_PINS", 1)  # the limit memory_pin applies
    monkeypatch.setattr(services, "MAX_PINS", 1)  # the limit the page names
    refused = alice_client.post(f"/memories/{ids[1]}/pin/", {"pinned": "1"})
    assert refused.status_code == 422
    assert "最多只能把 1 条记忆设为始终使用" in refused.content.decode()
    assert not selectors.memory_get(scope=alice_scope, memory_id=ids[1]).metadata.get("pinned")

    alice_client.post(f"/memories/{ids[0]}/pin/", {"pinned": "0"})
    assert selectors.memory_get(scope=alice_scope, memory_id=ids[0]).metadata["pinned"] is False


def pin_help(page: str) -> str:
    found = re.search(r'id="pin-help">(.*?)</p>', page, re.S)
    assert found, "the detail page explains 始终使用"
    return html.unescape(found.group(1))


def test_the_pin_help_says_what_the_automatic_context_does(alice_client, alice_scope):
    """Pinned or not, the help names the same limits, the ones memories.context applies: up to
    MAX_PINS pinned, of which at most MAX_FACTS facts within BUDGET_CHARS go into a run."""
    ids = [agent_add(alice_scope, f"项目代号 P{n} 的负责人是同事 {n} 号。") for n in range(2)]
    alice_client.post(f"/memories/{ids[0]}/pin/", {"pinned": "1"})
    pinned = pin_help(alice_client.get(f"/memories/{ids[0]}/").content.decode())
    unpinned = pin_help(alice_client.get(f"/memories/{ids[1]}/").content.decode())
    limits = f"每次最多带上 {context.MAX_FACTS} 条记忆、共 {context.BUDGET_CHARS} 字以内"
    assert limits in pinned and limits in unpinned
    assert f"最多可设 {services.MAX_PINS} 条" in unpinned
    for text in (pinned, unpinned):  # no promise that every pinned memory goes in every time
        assert "都会优先带上" not in text


def test_bulk_category_change_from_the_list(alice_client, alice_scope, bob_scope):
    mine = [agent_add(alice_scope, "团队使用飞书沟通。"), agent_add(alice_scope, "周报周五发。")]
    theirs = agent_add(bob_scope, "王磊负责部署。")
    back = "/memories/?q=%E5%91%A8%E6%8A%A5"
    answer = alice_client.post(
        "/memories/set-category/",
        {"ids": [*mine, theirs], "category": "project", "next": back},
    )
    assert answer.status_code == 302 and answer["Location"] == back
    assert {selectors.memory_get(scope=alice_scope, memory_id=m).category for m in mine} == {
        "project"
    }
    assert selectors.memory_get(scope=bob_scope, memory_id=theirs).category == "fact"

    # No category chosen: the selection is shown again with the field's error; nothing changes.
    missing = alice_client.post("/memories/set-category/", {"ids": mine, "category": ""})
    assert missing.status_code == 422
    assert "请选择一个类别" in missing.content.decode()
    bad = alice_client.post("/memories/set-category/", {"ids": mine, "category": "nonsense"})
    assert bad.status_code == 422
    assert {selectors.memory_get(scope=alice_scope, memory_id=m).category for m in mine} == {
        "project"
    }


def export_file(scope, *, extra: list[dict] | None = None) -> bytes:
    document = portability.memory_export(scope=scope)
    document["memories"] += extra or []
    return json.dumps(document, ensure_ascii=False).encode()


def upload(client: Client, content: bytes, name: str = "memories.json"):
    from django.core.files.uploadedfile import SimpleUploadedFile

    file = SimpleUploadedFile(name, content, content_type="application/json")
    return client.post("/memories/import/", {"file": file})


def test_import_previews_added_refused_and_skipped_then_imports_on_confirm(
    alice_client, alice_scope, bob_scope
):
    agent_add(alice_scope, "团队使用飞书做日常沟通。")  # alice has it already
    agent_add(bob_scope, "团队使用飞书做日常沟通。")
    agent_add(bob_scope, "画图优先使用 Mermaid。", category="preference")
    content = export_file(
        bob_scope,
        extra=[
            {"content": "我的身份证号是 110101199003071234。"},  # admission refuses
            {"content": "旧的沟通工具是钉钉。", "status": "superseded"},  # history
        ],
    )
    audit_before = AuditEvent.objects.count()
    stored_before = selectors.memory_list(scope=alice_scope, query=STORED).total

    preview = upload(alice_client, content)
    page = preview.content.decode()
    assert preview.status_code == 200
    assert 'data-count="add">1<' in page
    assert 'data-count="refuse">1<' in page
    assert 'data-count="skip">2<' in page
    assert "画图优先使用 Mermaid" in page and "与已有记忆重复" in page
    assert "已被替代的旧记忆" in page and "含有身份证号" in page
    assert "110101199003071234" not in page  # a refused memory is named, never shown
    # A preview writes nothing.
    assert AuditEvent.objects.count() == audit_before
    assert selectors.memory_list(scope=alice_scope, query=STORED).total == stored_before

    document = page.split('name="document" value="', 1)[1].split('"', 1)[0]
    confirmed = alice_client.post("/memories/import/", {"document": html.unescape(document)})
    assert confirmed.status_code == 302
    texts = {r.content for r in selectors.memory_list(scope=alice_scope).items}
    assert texts == {"团队使用飞书做日常沟通。", "画图优先使用 Mermaid。"}
    imported = selectors.memory_list(scope=alice_scope, query=ListQuery(query="Mermaid")).items[0]
    # The original door and run come back; the import is marked beside them.
    assert imported.source == Source.MANAGE and imported.category == "preference"
    assert imported.metadata["source_ref"] == "run-20261130-07" and imported.metadata["import_id"]


def test_import_refuses_what_is_not_an_export_with_the_reason_and_changes_nothing(
    alice_client, alice_scope
):
    for content, words in (
        (b"not json", "不是有效的 JSON 文件"),
        (b'{"format": "something-else", "version": 1, "memories": []}', "格式或版本不对"),
        (
            json.dumps({"format": "poco-memory-export", "version": 1, "memories": []}).encode(),
            "文件里没有记忆",
        ),
    ):
        answer = upload(alice_client, content)
        assert answer.status_code == 422, content
        assert words in answer.content.decode()
    missing = alice_client.post("/memories/import/", {})
    assert missing.status_code == 422 and "请选择一个 JSON 导出文件" in missing.content.decode()
    tampered = alice_client.post("/memories/import/", {"document": "[{}]"})
    assert tampered.status_code == 400
    assert selectors.memory_list(scope=alice_scope, query=STORED).total == 0


# --- the user API ----------------------------------------------------------------------------
API = "/api/v1/user-customer-settings/memories"


def test_user_api_shows_origin_use_and_pins_and_caps_them(
    alice_client, alice_scope, bob_scope, monkeypatch
):
    mine = agent_add(alice_scope, "周报使用飞书文档撰写。")
    theirs = agent_add(bob_scope, "王磊负责部署。")
    count_use(scope=alice_scope, memory_ids=[mine], use=Use.INJECTED)
    detail = alice_client.get(f"{API}/{mine}").json()
    assert detail["origin"]["run_id"] == "run-20261130-07"
    assert detail["origin"]["source"] == "manage" and detail["origin"]["created_at"]
    assert detail["usage"]["injected_count"] == 1 and detail["usage"]["recalled_count"] == 0
    assert detail["pinned"] is False

    pinned = alice_client.post(
        f"{API}/{mine}/pin", {"pinned": True}, content_type="application/json"
    )
    assert pinned.status_code == 200 and pinned.json()["status"] == "updated"
    assert alice_client.get(f"{API}/{mine}").json()["pinned"] is True
    listed = alice_client.get(f"{API}/vector?order=used").json()
    assert listed["items"][0]["id"] == mine and listed["items"][0]["usage"]["injected_count"] == 1

    foreign = alice_client.post(
        f"{API}/{theirs}/pin", {"pinned": True}, content_type="application/json"
    )
    assert foreign.status_code == 403
    bad = alice_client.post(f"{API}/{mine}/pin", {"pinned": "yes"}, content_type="application/json")
    assert bad.status_code == 400 and "pinned" in bad.json()["error"]["fields"]

    monkeypatch.setattr(validity, "MAX_PINS", 1)
    other = agent_add(alice_scope, "代码评审先写结论。")
    capped = alice_client.post(
        f"{API}/{other}/pin", {"pinned": True}, content_type="application/json"
    )
    assert capped.status_code == 400
    assert capped.json()["reason"] == services.PIN_LIMIT and capped.json()["success"] is False


def test_user_api_bulk_category_changes_all_or_nothing(alice_client, alice_scope, bob_scope):
    mine = [agent_add(alice_scope, "团队使用飞书沟通。"), agent_add(alice_scope, "周报周五发。")]
    theirs = agent_add(bob_scope, "王磊负责部署。")
    url = f"{API}/set-category"
    foreign = alice_client.post(
        url, {"memory_ids": [*mine, theirs], "category": "goal"}, content_type="application/json"
    )
    assert foreign.status_code == 403
    assert {selectors.memory_get(scope=alice_scope, memory_id=m).category for m in mine} == {"fact"}
    invalid = alice_client.post(
        url, {"memory_ids": [], "category": "nonsense"}, content_type="application/json"
    )
    assert invalid.status_code == 400
    assert set(invalid.json()["error"]["fields"]) == {"memory_ids", "category"}
    done = alice_client.post(
        url, {"memory_ids": mine, "category": "goal"}, content_type="application/json"
    )
    assert done.status_code == 200 and done.json()["updated"] == 2
    assert [i["status"] for i in done.json()["items"]] == ["updated", "updated"]


def test_user_api_import_preview_writes_nothing_and_import_does(
    alice_client, alice_scope, bob_scope
):
    agent_add(alice_scope, "团队使用飞书做日常沟通。")
    agent_add(bob_scope, "团队使用飞书做日常沟通。")
    agent_add(bob_scope, "画图优先使用 Mermaid。")
    document = json.loads(
        export_file(bob_scope, extra=[{"content": "我的身份证号是 110101199003071234。"}])
    )
    preview = alice_client.post(
        f"{API}/import/preview", {"document": document}, content_type="application/json"
    )
    assert preview.status_code == 200, preview.content
    body = preview.json()
    assert (body["added"], body["refused"], body["skipped"]) == (1, 1, 1)
    assert [i["decision"] for i in body["items"]] == ["skip", "add", "refuse"]
    assert selectors.memory_list(scope=alice_scope).total == 1

    bad = alice_client.post(
        f"{API}/import/preview", {"document": {"format": "x"}}, content_type="application/json"
    )
    assert bad.status_code == 400 and "document" in bad.json()["error"]["fields"]

    imported = alice_client.post(
        f"{API}/import", {"document": document}, content_type="application/json"
    )
    assert imported.status_code == 200 and imported.json()["added"] == 1
    assert selectors.memory_list(scope=alice_scope).total == 2


@pytest.mark.parametrize(
    "content",
    [b"5", b"null", b"true", b"1.5", b"[" * 5000, b"9" * 5000, b'"text"', b"[]"],
)
def test_import_of_a_file_that_is_json_but_no_document_is_a_422_not_a_500(
    alice_client, alice_scope, content
):
    answer = upload(alice_client, content)
    assert answer.status_code == 422, content[:20]
    assert (
        "格式或版本不对" in answer.content.decode() or "不是有效的 JSON" in answer.content.decode()
    )
    assert selectors.memory_list(scope=alice_scope, query=STORED).total == 0


def test_import_preview_marks_what_cleaning_removes_and_the_import_links_to_what_came_in(
    alice_client, alice_scope, bob_scope
):
    agent_add(alice_scope, "团队使用飞书做日常沟通。")  # already there, not part of the import
    document = {
        "format": "poco-memory-export",
        "version": 2,
        "memories": [
            {"content": "接口文档在 https://wiki.example.com/api/v2 里维护。"},
            {"content": "画图优先使用 Mermaid。", "category": "preference", "pinned": True},
        ],
    }
    preview = upload(alice_client, json.dumps(document, ensure_ascii=False).encode())
    page = preview.content.decode()
    assert preview.status_code == 200
    assert "保存时会去掉" in page
    assert re.search(r"<del>[^<]*https://wiki\.example\.com/api/v2[^<]*</del>", page)
    # What cannot come back is named on the page, not promised away.
    assert "不会恢复" in page
    posted = html.unescape(page.split('name="document" value="', 1)[1].split('"', 1)[0])
    confirmed = alice_client.post("/memories/import/", {"document": posted})
    assert confirmed.status_code == 302
    target = confirmed["Location"]
    assert "imported=" in target
    listed = alice_client.get(target).content.decode()
    assert "画图优先使用 Mermaid。" in listed and "接口文档" in listed
    assert "团队使用飞书做日常沟通。" not in listed  # only what this import brought
    assert 'data-chip="imported"' in listed
    pinned = selectors.memory_list(scope=alice_scope, query=ListQuery(query="Mermaid")).items[0]
    assert pinned.metadata.get("pinned") is True
