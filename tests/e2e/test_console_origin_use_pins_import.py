"""What users of other memory pages expect, in Chromium: where a memory came from and how often
agents used it, "always use this", one category for ticked rows, and an import that shows what
it would do before it does it — each page also measured at phone and desktop width."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from memories import selectors
from memories.ops import portability
from memories.scope import scope_for_user
from memories.services import memory_add
from memories.types import Actor, ActorKind, Source, WriteStatus
from memories.usage import Use, count_use
from tests.e2e.test_layout import WIDTHS, layout_problems

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

AGENT = Actor(kind=ActorKind.AGENT, id="poco-agent")
RUN = "run-20261130-07"


def add(scope, text: str, *, run_id: str = RUN, category: str = "fact") -> str:
    outcome = memory_add(
        scope=scope,
        text=text,
        actor=AGENT,
        category=category,
        source=Source.MANAGE,
        run_id=run_id,
    )
    assert outcome.status == WriteStatus.ADDED and outcome.memory_id
    return outcome.memory_id


def measured(page: Page, what: str) -> list[str]:
    found = []
    for device, viewport in WIDTHS.items():
        page.set_viewport_size(viewport)
        found += [f"{what} {device}: {p}" for p in layout_problems(page)]
    page.set_viewport_size(WIDTHS["desktop"])
    return found


def test_origin_use_pin_bulk_category_and_import_in_the_browser(
    signed_in, alice, django_user_model, tmp_path: Path
):
    scope = scope_for_user(alice)
    weekly = add(scope, "周报使用飞书文档撰写，结论先行。")
    add(scope, "周报每周五下班前发给林清。")
    team = add(scope, "团队日常沟通使用飞书。", run_id="run-20261128-02")
    count_use(scope=scope, memory_ids=[weekly], use=Use.RECALLED)
    count_use(scope=scope, memory_ids=[weekly], use=Use.INJECTED)
    page = signed_in(alice)
    problems: list[str] = []

    # Where it came from, how often agents used it; then "always use this".
    page.goto(f"/memories/{weekly}/")
    origin = page.locator("[data-section=origin]")
    expect(origin.locator("[data-field=run-id]")).to_have_text(RUN)
    expect(origin).to_contain_text("Agent 管理")
    expect(page.locator("[data-field=recalled]")).to_contain_text("1 次")
    expect(page.locator("[data-field=injected]")).to_contain_text("1 次")
    page.get_by_role("button", name="始终使用").click()
    expect(page.locator(".messages")).to_contain_text("已设为始终使用")
    expect(page.locator("#fact-card [data-field=pinned]")).to_have_text("始终使用")
    expect(page.get_by_role("button", name="取消始终使用")).to_be_visible()
    problems += measured(page, "detail")
    origin.get_by_role("link", name="这个任务记下的 2 条记忆").click()
    expect(page.locator(".result-count")).to_have_text("共 2 条记忆")
    expect(page.locator("[data-chip=run]")).to_contain_text(RUN)

    # Tick two rows, give them one category; the list keeps its filter.
    page.goto("/memories/?q=周报")
    for row in page.locator(".memory-item").all():
        row.locator(".row-select").check()
    page.locator("#bulk-category").select_option("project")
    page.get_by_role("button", name="修改类别").click()
    expect(page.locator(".messages")).to_contain_text("已把 2 条记忆的类别改为“项目”")
    assert "q=" in page.url
    expect(page.locator(".memory-item .cat-project")).to_have_count(2)
    assert selectors.memory_get(scope=scope, memory_id=team).category == "fact"
    problems += measured(page, "list")

    # Import another account's export: see what it would do, then confirm.
    bob = django_user_model.objects.create_user(username="bob", password="bob-pass-1")
    bob_scope = scope_for_user(bob)
    add(bob_scope, "团队日常沟通使用飞书。")
    add(bob_scope, "画图优先使用 Mermaid，表格优先使用 Markdown。", category="preference")
    document = portability.memory_export(scope=bob_scope)
    document["memories"].append({"content": "我的身份证号是 110101199003071234。"})
    exported = tmp_path / "bob.json"
    exported.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")

    page.goto("/memories/")
    page.get_by_role("link", name="导入").click()
    problems += measured(page, "import")
    page.get_by_label("导出文件（JSON）").set_input_files(str(exported))
    page.get_by_role("button", name="预览导入").click()
    preview = page.locator("[data-section=import-preview]")
    expect(preview.locator("[data-count=add]")).to_have_text("1")
    expect(preview.locator("[data-count=refuse]")).to_have_text("1")
    expect(preview.locator("[data-count=skip]")).to_have_text("1")
    expect(preview.locator("[data-group=add]")).to_contain_text("画图优先使用 Mermaid")
    problems += measured(page, "import preview")
    assert selectors.memory_list(scope=scope).total == 3  # nothing written yet
    page.get_by_role("button", name="导入 1 条记忆").click()
    expect(page.locator(".messages")).to_contain_text("已导入 1 条记忆")
    # The list shows what this import brought, and a chip goes back to all of them.
    expect(page.locator("[data-chip=imported]")).to_be_visible()
    expect(page.locator(".result-count")).to_have_text("共 1 条记忆")
    page.locator("[data-chip=imported]").click()
    expect(page.locator(".result-count")).to_have_text("共 4 条记忆")

    assert not problems, "\n".join(problems)
