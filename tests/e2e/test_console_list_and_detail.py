"""The management page as a person sees it, in Chromium: the filter bar on a phone and on a
wide screen, the detail card, one "last changed" time, related memories with a floor, error
pages inside the console's frame, a draft that survives signing out elsewhere, the overview's
charts, and the small things (dates, paging, deleting from a filtered list)."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone
from playwright.sync_api import Page, expect

from memories import selectors
from memories.scope import scope_for_user
from memories.services import memory_add, memory_update
from memories.types import Actor, ActorKind, Source, WriteStatus

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

AGENT = Actor(kind=ActorKind.AGENT, id="agent-e2e")
PHONE = {"width": 390, "height": 844}
WIDE = {"width": 1440, "height": 900}
WEEKLY = "周报使用飞书文档撰写，结论先行。"
TEAM = "团队日常沟通使用飞书。"
CATS = "办公室的猫每天下午在窗台上晒太阳。"


def add(user, text: str, category: str = "fact") -> str:
    outcome = memory_add(
        scope=scope_for_user(user), text=text, actor=AGENT, category=category, source=Source.MANAGE
    )
    assert outcome.status == WriteStatus.ADDED and outcome.memory_id
    return outcome.memory_id


@pytest.fixture
def three(alice) -> dict[str, str]:
    return {text: add(alice, text) for text in (WEEKLY, TEAM, CATS)}


def box(page: Page, selector: str) -> dict:
    rect = page.locator(selector).first.bounding_box()
    assert rect is not None, selector
    return rect


def content_width(page: Page, selector: str) -> float:
    return page.locator(selector).evaluate(
        "el => { const s = getComputedStyle(el);"
        " return el.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight); }"
    )


# --- the filter bar -------------------------------------------------------------------------
def test_on_a_phone_the_filters_stack_full_width_and_the_rarer_ones_fold(signed_in, alice, three):
    page = signed_in(alice)
    page.set_viewport_size(PHONE)
    page.goto("/memories/")
    full = content_width(page, "#filter-form")
    for label in ("搜索记忆", "搜索方式", "类别"):
        assert page.get_by_label(label, exact=True).bounding_box()["width"] >= full - 2, label
    for label in ("来源", "排序", "状态"):
        expect(page.get_by_label(label, exact=True)).to_be_hidden()

    page.locator("summary", has_text=re.compile("^筛选")).click()
    for label in ("来源", "排序", "状态", "创建日期从", "到"):
        control = page.get_by_label(label, exact=True)
        expect(control).to_be_visible()
        rect = control.bounding_box()
        assert rect["x"] + rect["width"] <= 390, label
    assert page.get_by_label("来源", exact=True).bounding_box()["width"] >= full - 2
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_on_a_wide_screen_every_filter_is_reachable_by_pointer_and_keyboard(
    signed_in, alice, three
):
    page = signed_in(alice)
    page.set_viewport_size(WIDE)
    page.goto("/memories/")
    on_top = (
        "el => { const r = el.getBoundingClientRect();"
        " const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);"
        " return hit === el || el.contains(hit); }"
    )
    for label in ("来源", "排序", "状态", "创建日期从", "到"):
        assert page.get_by_label(label, exact=True).evaluate(on_top), label
    page.get_by_label("搜索记忆").focus()
    for _ in range(10):
        page.keyboard.press("Tab")
        focused = page.evaluate_handle("document.activeElement")
        if not focused.evaluate("el => !!el.closest('#filter-form .filter-row')"):
            break
        assert focused.evaluate(on_top), focused.evaluate("el => el.outerHTML.slice(0, 80)")


# --- the detail card ----------------------------------------------------------------------
def test_the_detail_card_says_nothing_about_an_unset_memory_key(signed_in, alice, three):
    page = signed_in(alice)
    page.goto(f"/memories/{three[WEEKLY]}/")
    expect(page.locator("#governance-card")).to_contain_text("有效期")
    expect(page.locator("#governance-card")).not_to_contain_text("记忆键")
    expect(page.locator("#governance-card")).not_to_contain_text("未设置")


def test_last_changed_is_the_same_time_in_list_detail_and_overview(signed_in, alice):
    now = timezone.localtime()
    scope = scope_for_user(alice)
    added = memory_add(
        scope=scope,
        text=TEAM,
        actor=AGENT,
        category="fact",
        source=Source.MANAGE,
        created_at=now - timedelta(days=10),
    )
    assert added.memory_id
    outcome = memory_update(
        scope=scope,
        memory_id=added.memory_id,
        text="团队日常沟通和周会纪要都使用飞书。",
        actor=AGENT,
        source=Source.MANAGE,
        occurred_at=now - timedelta(days=3),
    )
    assert outcome.status == WriteStatus.UPDATED
    day = (now - timedelta(days=3)).strftime("%Y-%m-%d")
    page = signed_in(alice)
    page.goto("/memories/?sort=updated")
    row = page.locator(f'.memory-item[data-memory-id="{added.memory_id}"]')
    expect(row).to_contain_text(f"更新于 {day}")
    page.goto(f"/memories/{added.memory_id}/")
    expect(page.locator(".meta").filter(has_text="最近更新")).to_contain_text(day)
    page.goto("/")
    expect(page.locator('[data-stat="last_changed_at"]')).to_contain_text(day)


def test_related_memories_have_a_floor(signed_in, alice, three):
    related = selectors.memory_related(scope=scope_for_user(alice), memory_id=three[CATS], limit=5)
    floor = settings.SEARCH_MIN_SCORE
    assert any(r.score < floor for r in related)  # the cat has nothing to do with the others
    page = signed_in(alice)
    page.goto(f"/memories/{three[CATS]}/")
    card = page.locator("section", has=page.get_by_role("heading", name="相关记忆"))
    shown = card.locator(".related li")
    expect(shown).to_have_count(sum(r.score >= floor for r in related))
    if not any(r.score >= floor for r in related):
        expect(card).to_contain_text("没有密切相关的记忆")


# --- error pages --------------------------------------------------------------------------
def test_a_not_found_page_keeps_the_console_frame(signed_in, alice):
    page = signed_in(alice)
    response = page.goto("/memories/00000000-0000-0000-0000-000000000000/")
    assert response is not None and response.status == 404
    expect(page.get_by_role("navigation", name="主导航")).to_be_visible()
    expect(page.get_by_role("button", name="退出")).to_be_visible()
    expect(page.get_by_role("button", name="English")).to_be_visible()
    card, button = box(page, ".state"), box(page, ".state .btn")
    assert abs((card["x"] + card["width"] / 2) - (button["x"] + button["width"] / 2)) < 4

    page.get_by_role("button", name="English").click()
    expect(page.get_by_role("heading", name="Page not found")).to_be_visible()
    message = page.locator(".state p").first.inner_text()
    assert message.count("does not exist") == 1


# --- a draft survives signing out elsewhere -----------------------------------------------
def sign_out_in_another_tab(page: Page) -> None:
    other = page.context.new_page()
    other.goto("/")
    other.get_by_role("button", name="退出").click()


def sign_in_again(page: Page) -> None:
    """On the login page a form's post was sent to: alice signs in again."""
    expect(page).to_have_url(re.compile("/accounts/login/"))
    page.get_by_label("用户名").fill("alice")
    page.get_by_label("密码").fill("alice-pass-1")
    page.get_by_role("button", name="登录").click()


def test_the_add_form_keeps_its_text_after_signing_out_in_another_tab(signed_in, alice):
    page = signed_in(alice)
    page.goto("/memories/new/")
    page.get_by_label("记忆内容").fill("周会纪要发到飞书群，并抄送林清。")
    sign_out_in_another_tab(page)
    page.get_by_role("button", name="保存").click()
    sign_in_again(page)
    expect(page).to_have_url(re.compile("/memories/new/"))
    expect(page.get_by_label("记忆内容")).to_have_value("周会纪要发到飞书群，并抄送林清。")
    expect(page.locator(".alert")).to_contain_text("还没有保存")


# --- overview -----------------------------------------------------------------------------
def test_the_overview_charts_fill_their_cards_and_do_not_share_colours(signed_in, alice, three):
    page = signed_in(alice)
    page.set_viewport_size(WIDE)
    page.goto("/")
    chart = page.locator("svg.chart-trend:visible")
    card = content_width(page, "section.chart-card >> nth=0")
    assert chart.bounding_box()["width"] >= 0.9 * card
    tick = chart.locator(".tick").first
    scale = chart.evaluate("svg => svg.getBoundingClientRect().width / svg.viewBox.baseVal.width")
    tick_px = scale * float(tick.evaluate("t => parseFloat(getComputedStyle(t).fontSize)"))
    assert tick_px <= 15
    donut = set(
        page.locator(".donut-seg").evaluate_all("els => els.map(e => getComputedStyle(e).stroke)")
    )
    bars = set(
        page.locator(".chart-bars rect").evaluate_all(
            "els => els.map(e => getComputedStyle(e).fill)"
        )
    )
    assert donut and bars and not donut & bars


def test_the_english_switch_pills_use_an_english_colon(signed_in, alice):
    page = signed_in(alice)
    page.goto("/")
    page.get_by_role("button", name="English").click()
    pills = page.locator(".switch-status .pill")
    expect(pills.first).to_contain_text("Save memories: On")
    assert "：" not in "".join(pills.all_inner_texts())


# --- small ones ---------------------------------------------------------------------------
def test_a_reversed_date_range_names_the_dates(signed_in, alice, three):
    page = signed_in(alice)
    page.goto("/memories/?date_from=2026-12-01&date_to=2026-11-01")
    results = page.locator("#results")
    expect(results).to_contain_text("2026-12-01")
    expect(results).to_contain_text("2026-11-01")
    expect(results).not_to_contain_text("换个关键词")


def test_next_page_shows_the_top_of_the_new_page(signed_in, alice):
    for n in range(22):
        add(alice, f"第 {n} 号项目的周会安排在星期{'一二三四五'[n % 5]}上午。")
    page = signed_in(alice)
    page.set_viewport_size(WIDE)
    page.goto("/memories/")
    page.get_by_role("link", name="下一页").click()
    expect(page).to_have_url(re.compile("page=2"))
    expect(page.locator(".pager-status")).to_contain_text("第 2 / 2 页")
    top = page.locator("#results").evaluate("el => el.getBoundingClientRect().top")
    assert 0 <= top < 900


def test_a_page_past_the_end_corrects_the_address(signed_in, alice, three):
    page = signed_in(alice)
    page.goto("/memories/?category=fact&page=99999")
    expect(page).not_to_have_url(re.compile("99999"))
    expect(page).to_have_url(re.compile("category=fact"))


def test_deleting_from_a_filtered_list_returns_to_that_list(signed_in, alice, three):
    page = signed_in(alice)
    page.goto("/memories/?q=飞书")
    row = page.locator(f'.memory-item[data-memory-id="{three[TEAM]}"]')
    row.get_by_role("link", name="删除").click()
    page.get_by_role("button", name=re.compile("确认删除|删除")).last.click()
    expect(page).to_have_url(re.compile(r"q=%E9%A3%9E%E4%B9%A6|q=飞书"))
    expect(page.locator("#results .memory-item")).to_have_count(1)


def test_with_no_memories_export_and_delete_all_are_not_offered(signed_in, alice):
    page = signed_in(alice)
    page.goto("/memories/")
    for name in ("JSON", "CSV", "删除全部记忆"):
        expect(page.get_by_role("link", name=name)).to_have_count(0)
    expect(page.locator(".head-actions [aria-disabled='true']")).to_have_count(3)


def test_keyboard_users_can_skip_past_the_rows(signed_in, alice, three):
    page = signed_in(alice)
    page.goto("/memories/")
    skip = page.get_by_role("link", name="跳过列表")
    skip.focus()
    page.keyboard.press("Enter")
    after = page.evaluate("document.activeElement.id")
    assert after == "after-list"


def test_the_browser_finds_a_favicon(anonymous_page):
    response = anonymous_page.goto("/favicon.ico")
    assert response is not None and response.status == 200
    assert "svg" in response.headers["content-type"]


def test_a_link_can_be_kept_as_its_host_name_instead_of_losing_the_sentence(signed_in, alice):
    from memories.models import MemoryRow

    page = signed_in(alice)
    page.goto("/memories/new/")
    page.get_by_label("记忆内容").fill(
        "设计文档在 https://docs.example.com/poco/design?v=2 里，每周一更新。"
    )
    page.get_by_role("button", name="保存").click()
    option = page.locator("[data-host-text]")
    expect(option).to_have_text("设计文档在 docs.example.com 里，每周一更新。")
    page.get_by_role("button", name="保留整句").click()
    expect(page.locator(".fact-text")).to_have_text("设计文档在 docs.example.com 里，每周一更新。")
    assert MemoryRow.objects.filter(
        payload__data="设计文档在 docs.example.com 里，每周一更新。"
    ).exists()
