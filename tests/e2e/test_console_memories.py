"""The memories page in Chromium: adding and correcting through admission, history, deleting
one, several or all, sorting, date ranges and highlighted words, long text, Back restoring a
search, and words instead of codes."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from memories.models import AuditEvent, MemoryRow
from memories.scope import scope_for_user
from memories.services import memory_add, memory_delete_user
from memories.types import Actor, ActorKind, Source, WriteStatus

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

AGENT = Actor(kind=ActorKind.AGENT, id="poco-agent")
WEEKLY = "周报使用飞书文档撰写，结论先行。"
TEAM = "团队日常沟通使用飞书。"
TS = "Prefers TypeScript for new front-end modules."


@pytest.fixture
def ids(alice) -> dict[str, str]:
    scope = scope_for_user(alice)
    result = {}
    for text, category, source in (
        (WEEKLY, "preference", Source.INGEST),
        (TEAM, "fact", Source.MANAGE),
        (TS, "preference", Source.MANAGE),
    ):
        outcome = memory_add(
            scope=scope, text=text, actor=AGENT, category=category, source=source, run_id="run-42"
        )
        assert outcome.status == WriteStatus.ADDED and outcome.memory_id
        result[text] = outcome.memory_id
    return result


def items(page: Page):
    return page.locator("#results .memory-item")


def test_a_correction_shows_what_admission_removes_before_saving(signed_in, alice, ids):
    memory_id = ids[WEEKLY]
    page = signed_in(alice)
    page.goto(f"/memories/{memory_id}/edit/")
    page.get_by_label("记忆内容").fill(
        "周报参考 https://wiki.example.com/weekly?id=7 和 /home/alice/docs/report.md，表格放最后。"
    )
    page.get_by_role("button", name="保存纠正").click()

    cleaning = page.locator("[data-cleaning]")
    expect(cleaning).to_contain_text("还没有保存")
    expect(cleaning.locator(".removed-parts li")).to_have_count(2)
    expect(cleaning).to_contain_text("https://wiki.example.com/weekly?id=7")
    expect(cleaning).to_contain_text("/home/alice/docs/report.md")
    expect(page.get_by_text("已纠正")).to_have_count(0)
    assert MemoryRow.objects.get(id=memory_id).content == WEEKLY  # nothing saved yet

    # the person can revise: the text is still in the editor, and saving what is shown works
    expect(page.get_by_label("记忆内容")).to_have_value(re.compile("https://wiki"))
    cleaned = cleaning.locator("[data-cleaned-text]").inner_text()
    page.get_by_role("button", name="按上面的内容保存").click()
    expect(page.get_by_role("status").filter(has_text="已纠正")).to_contain_text(
        "/home/alice/docs/report.md"
    )
    assert MemoryRow.objects.get(id=memory_id).content == cleaned
    assert "https://" not in cleaned and "周报参考" in cleaned


def test_back_restores_the_search_box_filters_and_chip(signed_in, alice, ids):
    page = signed_in(alice)
    page.goto("/memories/")
    page.get_by_label("搜索记忆").fill("飞书")
    expect(items(page)).to_have_count(2)
    page.get_by_label("类别").select_option("preference")
    expect(items(page)).to_have_count(1)
    items(page).first.locator("a.memory-link").click()
    expect(page.get_by_role("heading", name="记忆内容")).to_be_visible()

    page.go_back()
    expect(page).to_have_url(re.compile(r"q=%E9%A3%9E%E4%B9%A6.*category=preference"))
    expect(page.get_by_label("搜索记忆")).to_have_value("飞书")
    expect(page.get_by_label("类别")).to_have_value("preference")
    expect(items(page)).to_have_count(1)

    page.go_back()  # the step before the category filter: the search alone
    expect(page.get_by_label("类别")).to_have_value("")
    expect(page.get_by_label("搜索记忆")).to_have_value("飞书")
    expect(items(page)).to_have_count(2)

    # a topic filter shows a chip; Back from a memory brings search box and chip back
    page.get_by_text("按主题筛选").click()
    page.locator('.heat-cell[data-topic="周报"]').click()
    expect(page.locator("#results .chip").first).to_contain_text("主题：周报")
    expect(items(page)).to_have_count(1)
    items(page).first.locator("a.memory-link").click()
    expect(page.get_by_role("heading", name="记忆内容")).to_be_visible()
    page.go_back()
    expect(page.locator("#results .chip").first).to_contain_text("主题：周报")
    expect(page.get_by_label("搜索记忆")).to_have_value("飞书")
    expect(items(page)).to_have_count(1)
    page.go_back()
    expect(page.locator("#results .chip")).to_have_count(0)
    expect(page.get_by_label("搜索记忆")).to_have_value("飞书")


def test_history_shows_what_changed_and_nothing_for_unchanged_saves(signed_in, alice, ids):
    memory_id = ids[TEAM]
    page = signed_in(alice)
    page.goto(f"/memories/{memory_id}/edit/")
    page.get_by_label("类别", exact=True).select_option("preference")  # category only
    page.get_by_role("button", name="保存纠正").click()
    expect(page.get_by_role("status").filter(has_text="已纠正")).to_be_visible()

    events = page.locator(".timeline .event")
    expect(events).to_have_count(2)
    expect(events.first).to_contain_text("类别")
    expect(events.first).to_contain_text("事实")
    expect(events.first).to_contain_text("偏好")
    expect(events.first.locator(".diff")).to_have_count(0)  # the text did not change

    page.goto(f"/memories/{memory_id}/edit/")
    page.get_by_role("button", name="保存纠正").click()  # nothing changed
    expect(page.get_by_role("status").filter(has_text="没有变化")).to_be_visible()
    expect(page.locator(".timeline .event")).to_have_count(2)
    expect(page.locator(".timeline")).not_to_contain_text("无变化")


def test_end_users_see_words_not_codes_ids_or_model_internals(signed_in, alice, ids):
    page = signed_in(alice)
    page.goto(f"/memories/{ids[WEEKLY]}/")
    body = page.locator("main")
    expect(body).to_contain_text("你的助手在任务中记下")
    for internal in ("ADD", "poco-agent", "置信度", "向量模型", "事实归属", "embedding"):
        expect(body).not_to_contain_text(internal)

    page.goto(f"/memories/{ids[TEAM]}/edit/")
    page.get_by_label("记忆内容").fill("团队日常沟通改用钉钉。")
    page.get_by_role("button", name="保存纠正").click()
    expect(page.locator(".timeline .event").first).to_contain_text("你在管理页纠正")
    expect(page.locator(".timeline")).not_to_contain_text("UPDATE")
    expect(page.locator(".timeline")).not_to_contain_text("alice")


def test_overview_counts_agree_after_delete_all(signed_in, alice, ids):
    memory_delete_user(scope=scope_for_user(alice), actor=AGENT)
    assert AuditEvent.objects.filter(user_id="alice", event="DELETE").count() == 3
    page = signed_in(alice)
    page.goto("/")
    expect(page.locator('[data-stat="total"]')).to_have_text("0")
    expect(page.locator('[data-stat="added_30d"]')).to_have_text("0")
    expect(page.locator('[data-stat="updated_30d"]')).to_have_text("0")
    # no memories: the first steps instead of empty chart cards; the trend still shows the deletes
    empty = page.locator(".state-empty")
    expect(empty.get_by_role("link", name="添加记忆")).to_be_visible()
    expect(empty.get_by_role("link", name="导入")).to_be_visible()
    expect(page.locator("#sources-heading")).to_have_count(0)
    expect(page.locator("#trend-heading")).to_be_visible()


LONG = (
    "长期项目背景：" + "“Poco”助手的周报流程需要先汇总本周任务，再按项目分组写出结论和风险。" * 12
)


def test_add_a_memory_by_hand_through_admission(signed_in, alice, ids):
    page = signed_in(alice)
    page.goto("/memories/")
    page.get_by_role("link", name="添加记忆").click()
    page.get_by_label("记忆内容").fill("下季度目标：把周报模板迁到飞书多维表格。")
    page.get_by_label("类别").select_option("goal")
    page.get_by_role("button", name="保存", exact=True).click()
    expect(page.get_by_role("heading", name="记忆内容")).to_be_visible()
    expect(page.locator(".messages")).to_contain_text("已添加这条记忆")
    expect(page.locator(".fact-text")).to_have_text("下季度目标：把周报模板迁到飞书多维表格。")
    expect(page.locator(".timeline .event").first).to_contain_text("你在管理页添加")
    stored = MemoryRow.objects.get(id=page.locator('[data-field="memory-id"]').inner_text())
    assert stored.payload["category"] == "goal" and stored.payload["source"] == "console"

    page.goto("/memories/new/")  # a credential is refused with words, nothing stored
    key = "sk-proj-" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6"
    page.get_by_label("记忆内容").fill(f"我的 OpenAI key 是 {key}")
    page.get_by_role("button", name="保存", exact=True).click()
    expect(page.locator("#text-error")).to_contain_text("凭据")
    assert MemoryRow.objects.filter(payload__user_id="default:alice").count() == 4


def test_rows_can_be_corrected_deleted_and_several_deleted_at_once(signed_in, alice, ids):
    page = signed_in(alice)
    page.goto("/memories/")
    row = page.locator(f'.memory-item[data-memory-id="{ids[TS]}"]')
    row.locator(".row-actions a").first.click()
    expect(page.get_by_label("记忆内容")).to_have_value(TS)
    page.go_back()

    page.get_by_label(re.compile("选择：周报使用飞书")).check()
    page.get_by_label(re.compile("选择：团队日常沟通")).check()
    page.get_by_role("button", name="删除所选").click()
    expect(page.get_by_role("heading", name="确定删除这 2 条记忆？")).to_be_visible()
    page.get_by_role("button", name="确认删除").click()
    expect(page.locator(".messages")).to_contain_text("已删除所选的 2 条记忆")
    expect(items(page)).to_have_count(1)
    assert [str(i) for i in MemoryRow.objects.values_list("id", flat=True)] == [ids[TS]]


def test_sort_date_range_and_highlighted_words(signed_in, alice, ids):
    page = signed_in(alice)
    page.goto(f"/memories/{ids[WEEKLY]}/edit/")  # the oldest memory changes last
    page.get_by_label("记忆内容").fill("周报使用飞书文档撰写，结论先行，风险单列。")
    page.get_by_role("button", name="保存纠正").click()
    expect(page.get_by_role("status").filter(has_text="已纠正")).to_be_visible()

    page.goto("/memories/")
    expect(items(page).first).to_contain_text("TypeScript")  # newest created first
    page.get_by_label("排序").select_option("updated")
    expect(items(page).first).to_contain_text("风险单列")
    expect(page).to_have_url(re.compile("sort=updated"))

    page.get_by_label("创建日期从").fill("2099-01-01")
    page.get_by_label("创建日期从").dispatch_event("change")
    expect(page.locator("#results")).to_contain_text("没有匹配的记忆")
    page.goto("/memories/?q=飞书+周报")
    marks = page.locator("#results mark")
    expect(marks.first).to_be_visible()
    assert {m.inner_text() for m in marks.all()} == {"飞书", "周报"}


def test_long_text_is_clamped_with_expand_and_the_trend_reads_on_a_phone(signed_in, alice, ids):
    memory_add(scope=scope_for_user(alice), text=LONG, actor=AGENT, category="project")
    page = signed_in(alice)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto("/memories/")
    text = page.locator(".memory-text.is-clamped")
    expect(text).to_have_count(1)
    clamped = text.bounding_box()
    assert clamped is not None and clamped["height"] < 120  # three lines, not a screen
    page.get_by_role("button", name="展开").click()
    expanded = text.bounding_box()
    assert expanded is not None and expanded["height"] > 3 * clamped["height"]
    expect(page.get_by_role("button", name="收起")).to_have_attribute("aria-expanded", "true")

    page.goto("/")
    chart = page.locator(".chart-trend:visible")
    box = chart.bounding_box()
    assert box is not None and box["width"] <= 390 and box["height"] > 120
    tick = page.locator(".chart-trend:visible text.tick").first
    font = tick.evaluate("t => t.getBoundingClientRect().height")
    assert font >= 9  # labels readable at phone width, not 5 px
    bar = page.locator(".chart-trend:visible rect.seg-adds").last
    bar_box = bar.bounding_box()
    assert bar_box is not None and bar_box["width"] >= 10  # a week is a real bar, not a sliver


def test_an_expected_4xx_is_no_console_error_and_topics_say_when_more_exist(
    signed_in, alice, ids, monkeypatch
):
    from edges.console.views import browse as views

    monkeypatch.setattr(views, "TOPIC_LIMIT", 2)
    page = signed_in(alice)
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(f"/memories/{ids[TEAM]}/edit/")
    editor = page.get_by_label("记忆内容")
    editor.fill("   ")
    editor.evaluate("element => element.removeAttribute('required')")
    page.get_by_role("button", name="保存纠正").click()
    expect(page.locator("#text-error")).to_have_text("记忆内容不能为空。")
    assert [e for e in errors if "htmx" in e.lower() or "responseError" in e] == []

    page.goto("/")
    expect(page.locator(".heat-cell")).to_have_count(2)
    expect(page.locator("[data-more-topics]")).to_contain_text("还有")
