"""The console speaking plainly and fitting the hand, in Chromium at 390 and 1440 px: the bulk
bar (its count, select all, disabled until something is ticked, sticky, on meaning search too),
44 px tap targets on the phone, paging that lands below the sticky bar, a login page that says
why, the expiry card, the overview's words and links, the settings page, and what agents
learned lately, who looked, and restoring a version."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.sessions.models import Session
from django.utils import timezone
from playwright.sync_api import Page, expect

from memories import selectors
from memories.models import AuditEvent
from memories.scope import scope_for_user
from memories.services import memory_add, memory_update, staff_view_record
from memories.types import Actor, ActorKind, ListQuery, Source, StatusFilter, WriteStatus
from tests.e2e.test_layout import WIDTHS

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

AGENT = Actor(kind=ActorKind.AGENT, id="poco-agent")
USER = Actor(kind=ActorKind.USER, id="alice")


def add(scope, text: str, *, source: str = Source.CONSOLE, run_id: str = "", actor=USER) -> str:
    outcome = memory_add(
        scope=scope, text=text, actor=actor, category="fact", source=source, run_id=run_id
    )
    assert outcome.status == WriteStatus.ADDED and outcome.memory_id, outcome
    return outcome.memory_id


def box(page: Page, selector: str) -> dict[str, float]:
    found = page.locator(selector).first.bounding_box()
    assert found is not None, selector
    return found


def small_targets(page: Page, selector: str) -> list[str]:
    """Visible controls under 44×44 px."""
    return page.eval_on_selector_all(
        selector,
        """els => els.filter(e => e.offsetParent !== null).map(e => {
            const r = e.getBoundingClientRect();
            const name = `${e.className || e.tagName} ${r.width}x${r.height}`;
            return r.width < 44 || r.height < 44 ? name : null;
        }).filter(Boolean)""",
    )


# Eight kinds of fact, three each: 24 memories, two pages of 20.
TOPICS = ("周报", "飞书", "代码评审", "发布", "测试", "文档", "会议", "数据")


def test_bulk_bar_paging_and_tap_targets(signed_in, alice):
    scope = scope_for_user(alice)
    for n in range(24):
        add(scope, f"{TOPICS[n % 8]}的第 {n + 1} 条约定：每次都写清楚负责人和截止日期。")
    page = signed_in(alice)
    problems: list[str] = []
    for device, viewport in WIDTHS.items():
        page.set_viewport_size(viewport)
        page.goto("/memories/")
        bar = page.locator("[data-bulk-bar]")
        count = bar.locator("[data-selected-count]")
        expect(count).to_have_text("已选 0 条")
        expect(bar.get_by_role("button", name="删除所选")).to_be_disabled()
        expect(bar.get_by_role("button", name="修改类别")).to_be_disabled()
        page.locator(".row-select").first.check()
        expect(count).to_have_text("已选 1 条")
        expect(bar.get_by_role("button", name="删除所选")).to_be_enabled()
        if device == "phone":
            problems += small_targets(
                page, ".row-actions a, .row-select-hit, [data-bulk-bar] .btn, .pager .btn"
            )
        # The bar stays under the top bar while the rows scroll.
        page.mouse.wheel(0, 900)
        page.wait_for_timeout(200)
        top = box(page, ".topbar")
        assert abs(box(page, "[data-bulk-bar]")["y"] - (top["y"] + top["height"])) < 2, device
        # 下一页: the count and the bar land below the sticky top bar, not under it.
        page.get_by_role("link", name="下一页").click()
        expect(page.locator(".pager-status")).to_contain_text("第 2 / 2 页")
        page.wait_for_timeout(300)
        header_bottom = box(page, ".topbar")["y"] + box(page, ".topbar")["height"]
        assert box(page, "#results")["y"] >= header_bottom - 1, device
        assert box(page, "[data-bulk-bar]")["y"] >= header_bottom - 1, device
    assert not problems, problems

    # Select the page, then every memory the filter matches, and delete them all.
    page.goto("/memories/?q=约定")
    bar = page.locator("[data-bulk-bar]")
    bar.get_by_label("全选本页").check()
    expect(bar.locator("[data-selected-count]")).to_have_text("已选 20 条")
    bar.get_by_role("button", name="选择全部 24 条匹配的记忆").click()
    expect(bar.locator("[data-selected-count]")).to_have_text("已选 24 条")
    bar.get_by_role("button", name="删除所选").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("确定删除这 24 条记忆？")
    page.get_by_role("button", name="确认删除").click()
    expect(page.locator(".messages")).to_contain_text("已删除所选的 24 条记忆")
    assert selectors.memory_list(scope=scope).total == 0

    # Meaning search results can be ticked too.
    add(scope, "周报使用飞书文档撰写，结论先行。")
    page.goto("/memories/?q=每周汇报怎么写&mode=semantic")
    expect(page.locator("#results .row-select").first).to_be_visible()
    page.locator("#results .row-select").first.check()
    expect(page.locator("[data-selected-count]")).to_have_text("已选 1 条")


def test_login_reasons_expiry_card_overview_and_settings(signed_in, alice, django_user_model):
    scope = scope_for_user(alice)
    memory_id = add(scope, "周报使用飞书文档撰写，结论先行。")
    page = signed_in(alice)

    # The overview: "刚刚", the legend filters the list.
    page.goto("/")
    expect(page.locator(".stat-sub")).to_have_text("刚刚")
    page.locator(".legend-link").first.click()
    expect(page).to_have_url(f"{page.url.split('/memories')[0]}/memories/?source=console")
    expect(page.locator(".result-count")).to_have_text("共 1 条记忆")

    # The expiry card: the previous banner goes, a refused date stays with its reason, the
    # trail says from → to, the time left reads as a person says it.
    page.goto(f"/memories/{memory_id}/")
    page.get_by_role("button", name="始终使用").click()
    expect(page.locator(".messages")).to_contain_text("已设为始终使用")
    page.get_by_label("有效期至").fill("2020-01-01")
    page.get_by_role("button", name="设为此日期").click()
    expect(page.locator("#until-error")).to_have_text("请选择今天以后的日期。")
    expect(page.get_by_label("有效期至")).to_have_value("2020-01-01")
    expect(page.locator(".messages")).not_to_contain_text("已设为始终使用")
    day = timezone.localdate() + timedelta(days=700)
    page.get_by_label("有效期至").fill(day.isoformat())
    page.get_by_role("button", name="设为此日期").click()
    expect(page.locator("[data-field=expiry]")).to_contain_text("约 1 年 11 个月后过期")
    expect(page.locator(".timeline > li").first).to_contain_text(f"→ {day.isoformat()}")

    # Settings: the words a user uses; the switch's text has the row's width on a phone.
    page.set_viewport_size(WIDTHS["phone"])
    page.goto("/settings/")
    body = page.locator("main").inner_text()
    for jargon in ("注入", "遗忘工具", "记忆候选"):
        assert jargon not in body
    assert box(page, "#save-help")["width"] > 300
    assert box(page, ".switch-footer")["height"] < 8  # no empty band under the switches
    # The import page is part of the list; delete-all offers a copy first.
    page.goto("/memories/import/")
    expect(page.locator(".mainnav [aria-current=page]")).to_have_text("记忆列表")
    page.goto("/memories/delete-all/")
    download = page.get_by_role("link", name="先下载一份（JSON）")
    expect(download).to_have_attribute("href", "/memories/export.json")
    assert box(page, "[data-section=keep-copy]")["y"] < box(page, "#id_confirm")["y"]
    page.set_viewport_size(WIDTHS["desktop"])

    # The login page says why: after signing out, and when the session has expired.
    page.get_by_role("button", name="退出").click()
    expect(page.locator("[data-login-reason]")).to_contain_text("你已退出登录")
    fresh = signed_in(alice)
    Session.objects.all().delete()
    fresh.goto("/memories/")
    expect(fresh.locator("[data-login-reason]")).to_contain_text("登录已过期")

    # An empty overview offers the first steps.
    bob = django_user_model.objects.create_user(username="bob", password="bob-pass-1")
    other = signed_in(bob)
    other.goto("/")
    expect(other.get_by_role("link", name="添加记忆")).to_be_visible()
    expect(other.get_by_role("link", name="导入")).to_be_visible()


def test_recently_learned_who_looked_and_restore(signed_in, alice):
    scope = scope_for_user(alice)
    learned = add(
        scope, "发布说明同时写中文和英文。", source=Source.INGEST, run_id="run-7", actor=AGENT
    )
    wrong = add(scope, "团队每周一上午开例会。", source=Source.MANAGE, run_id="run-8", actor=AGENT)
    mine = add(scope, "周报使用飞书文档撰写，结论先行。")
    staff = Actor(kind=ActorKind.STAFF, id="support-lin")
    staff_view_record(
        scope=scope, actor=staff, page=AuditEvent.Page.SUPPORT, reason="工单 1234：记忆不准"
    )
    page = signed_in(alice)

    page.goto("/")
    section = page.locator("[data-section=learned]")
    expect(page.locator("[data-field=nav-unreviewed]")).to_have_text("2")
    expect(section.locator(".learned-item")).to_have_count(2)  # not the user's own add
    expect(section.locator(f"[data-memory-id='{learned}'] [data-field=run]")).to_have_text(
        "任务 run-7"
    )
    section.locator(f"[data-memory-id='{learned}']").get_by_role("button", name="确认").click()
    expect(page.locator(".messages")).to_contain_text("已确认")
    expect(page.locator("[data-field=nav-unreviewed]")).to_have_text("1")
    record = selectors.memory_get(scope=scope, memory_id=learned)
    assert record.metadata.get("reviewed_at") and not record.metadata.get("pinned")
    section.locator(f"[data-memory-id='{wrong}']").get_by_role("button", name="忘记").click()
    expect(page.locator(".messages")).to_contain_text("已忘记")
    expect(page.locator("[data-section=learned]")).to_have_count(0)
    expect(page.locator("[data-field=nav-unreviewed]")).to_have_count(0)
    assert selectors.memory_list(scope=scope, query=ListQuery(status=StatusFilter.ALL)).total == 2

    # Who looked: staff's support view of this user's memories.
    page.goto("/settings/")
    looked = page.locator("[data-section=staff-views] [data-field=staff-view]")
    expect(looked).to_have_count(1)
    expect(looked).to_contain_text("用户支持视图")
    expect(looked.locator("[data-field=reason]")).to_have_text("原因：工单 1234：记忆不准")

    # Restore the first text from the trail: a correction, recorded as a restore.
    memory_update(scope=scope, memory_id=mine, text="周报使用 Notion 撰写。", actor=USER)
    page.goto(f"/memories/{mine}/")
    page.get_by_role("button", name="恢复为修改前的内容").click()
    expect(page.locator(".messages")).to_contain_text("已恢复为这一版")
    expect(page.locator(".fact-text")).to_have_text("周报使用飞书文档撰写，结论先行。")
    expect(page.locator(".timeline > li").first).to_contain_text("恢复旧版本")
    newest = selectors.memory_history(scope=scope, memory_id=mine)[-1]
    assert (newest.event, newest.status, newest.source) == ("UPDATE", "restored", "console")
