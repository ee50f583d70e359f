"""The inline editor and what surrounds it, in Chromium: long unbroken words inside their
cards, notices that go stale, the detail page in step with its own changes, bulk actions that
keep the list's filters, typed corrections that survive an expired session, and the editor's
keyboard."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.test_console_list_and_detail import add, sign_in_again, sign_out_in_another_tab
from tests.e2e.test_layout import WIDTHS, layout_problems

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WORD = "Pneumonoultramicroscopicsilicovolcanoconiosis"
UNBROKEN = f"项目代号是{WORD * 6}"


def tick_all_and_submit(page: Page, button: str) -> None:
    for box in page.locator("#results .row-select").all():
        box.check()
    page.get_by_role("button", name=button).click()


# --- 1, 2: a long unbroken word stays inside its card -----------------------------------------
def test_a_long_unbroken_word_stays_inside_its_card_on_every_page(signed_in, alice):
    memory_id = add(alice, UNBROKEN)
    add(alice, f"{WORD * 6}也出现在周报里。")  # a second link, so the topic shows as a chip
    page = signed_in(alice)
    found = []
    for device, viewport in WIDTHS.items():
        page.set_viewport_size(viewport)
        page.goto("/")
        assert page.locator(".heat-cell", has_text=WORD).count(), "the word is a topic"
        found += [f"{device} overview: {p}" for p in layout_problems(page)]

        page.goto("/memories/")
        page.locator(".topic-panel summary").click()
        found += [f"{device} list, topics open: {p}" for p in layout_problems(page)]
        topic = page.locator(".heat-cell", has_text=WORD).first
        page_topic = topic.get_attribute("href")
        topic.click()
        page.wait_for_url("**topic=*")
        found += [f"{device} list by topic: {p}" for p in layout_problems(page)]

        for title, path in {
            "search": f"/memories/?q={WORD * 4}",
            "meaning search": f"/memories/?q={WORD * 4}&mode=semantic",
            "detail": f"/memories/{memory_id}/",
            "edit": f"/memories/{memory_id}/edit/",
            "delete": f"/memories/{memory_id}/delete/",
            "topic link": page_topic or "",
        }.items():
            page.goto(path)
            found += [f"{device} {title}: {p}" for p in layout_problems(page)]

        page.goto("/memories/")
        tick_all_and_submit(page, "删除所选")
        page.wait_for_url("**/delete-selected/")
        found += [f"{device} delete selected: {p}" for p in layout_problems(page)]

        page.goto("/memories/")
        tick_all_and_submit(page, "修改类别")  # no category chosen: the page asks for one
        page.wait_for_url("**/set-category/")
        found += [f"{device} set category, none chosen: {p}" for p in layout_problems(page)]
    assert not found, "\n".join(found)


# --- 3: an old notice never stands beside a new result -----------------------------------------
WEEKLY = "周报使用飞书文档撰写，结论先行。"


def open_editor(page: Page) -> None:
    page.locator("#fact-card").get_by_role("link", name="纠正").click()
    expect(page.get_by_role("heading", name="纠正记忆")).to_be_visible()


def test_reopening_the_editor_clears_the_last_corrections_notice(signed_in, alice):
    memory_id = add(alice, WEEKLY)
    page = signed_in(alice)
    page.goto(f"/memories/{memory_id}/")
    open_editor(page)
    page.get_by_label("记忆内容").fill("周报使用飞书文档撰写，结论先行，表格放最后。")
    page.get_by_role("button", name="保存纠正").click()
    expect(page.get_by_text("已纠正")).to_be_visible()

    open_editor(page)
    expect(page.get_by_text("已纠正")).to_have_count(0)
    page.get_by_label("记忆内容").fill("我的身份证号是 110101199003071234。")
    page.get_by_role("button", name="保存纠正").click()
    expect(page.locator("#text-error")).to_contain_text("身份证号")
    expect(page.get_by_text("已纠正")).to_have_count(0)


def test_an_unchanged_save_says_so_only_until_the_next_attempt(signed_in, alice):
    memory_id = add(alice, WEEKLY)
    page = signed_in(alice)
    page.goto(f"/memories/{memory_id}/")
    open_editor(page)
    page.get_by_role("button", name="保存纠正").click()
    expect(page.get_by_text("内容没有变化")).to_be_visible()

    open_editor(page)
    page.get_by_label("记忆内容").fill("周报参考 /home/alice/docs/report.md，结论先行。")
    page.get_by_role("button", name="保存纠正").click()
    expect(page.locator("[data-cleaning]")).to_be_visible()
    expect(page.get_by_text("内容没有变化")).to_have_count(0)


def test_a_message_from_the_last_page_goes_when_the_editor_opens(signed_in, alice):
    page = signed_in(alice)
    page.goto("/memories/new/")
    page.get_by_label("记忆内容").fill(WEEKLY)
    page.get_by_role("button", name="保存").click()
    expect(page.get_by_text("已添加这条记忆")).to_be_visible()
    open_editor(page)
    expect(page.get_by_text("已添加这条记忆")).to_have_count(0)


# --- 4: a new expiry shows in the history and the last-changed time at once -----------------
@pytest.mark.parametrize("button", ["延长一年", "设为长期有效", "设为此日期"])
def test_changing_the_expiry_updates_the_history_and_last_changed(signed_in, alice, button):
    memory_id = add(alice, WEEKLY)
    page = signed_in(alice)
    page.goto(f"/memories/{memory_id}/")
    if button == "设为长期有效":  # offered once the memory has an expiry
        page.get_by_role("button", name="延长一年").click()
        expect(page.get_by_text("有效期已更新")).to_be_visible()
    history = page.locator(".timeline > li")
    before = history.count()
    last_changed = page.locator("[data-field=last-changed] time")
    changed_before = last_changed.get_attribute("datetime")
    if button == "设为此日期":
        page.get_by_label("有效期至").fill("2099-05-01")
    page.get_by_role("button", name=button).click()
    expect(page.get_by_text("有效期已更新")).to_be_visible()
    expect(history).to_have_count(before + 1)
    expect(history.first).to_contain_text("有效期已修改")
    expect(last_changed).not_to_have_attribute("datetime", changed_before or "")
    page.reload()  # and what the page shows is what a reload shows
    expect(history).to_have_count(before + 1)


# --- 5: bulk actions return to the list as it was filtered -------------------------------------
TEAM = "团队日常沟通使用飞书。"
CATS = "办公室的猫每天下午在窗台上晒太阳。"


def search_for_feishu(page: Page) -> None:
    page.goto("/memories/")
    page.get_by_label("搜索记忆").fill("飞书")
    expect(page.locator("#results .memory-item")).to_have_count(2)
    expect(page).to_have_url(re.compile(r"q=%E9%A3%9E%E4%B9%A6"))


def test_bulk_category_after_a_live_search_returns_to_the_search(signed_in, alice):
    for text in (WEEKLY, TEAM, CATS):
        add(alice, text)
    page = signed_in(alice)
    search_for_feishu(page)
    page.locator("#bulk-category").select_option("preference")
    tick_all_and_submit(page, "修改类别")
    expect(page.get_by_text("已把 2 条记忆的类别改为")).to_be_visible()
    expect(page).to_have_url(re.compile(r"q=%E9%A3%9E%E4%B9%A6"))
    expect(page.locator("#results .memory-item")).to_have_count(2)


@pytest.mark.parametrize("answer", ["确认删除", "取消"])
def test_delete_selected_after_a_live_search_returns_to_the_search(signed_in, alice, answer):
    for text in (WEEKLY, TEAM, CATS):
        add(alice, text)
    page = signed_in(alice)
    search_for_feishu(page)
    page.locator("#results .row-select").first.check()
    page.get_by_role("button", name="删除所选").click()
    page.get_by_role("link" if answer == "取消" else "button", name=answer).click()
    expect(page).to_have_url(re.compile(r"/memories/\?.*q=%E9%A3%9E%E4%B9%A6"))
    expect(page.locator("#results .memory-item")).to_have_count(1 if answer == "确认删除" else 2)


# --- 6: the phone's 筛选 count follows the filters set inside it -----------------------------
def test_on_a_phone_the_filter_count_follows_source_and_status(signed_in, alice):
    for text in (WEEKLY, TEAM):
        add(alice, text)
    page = signed_in(alice)
    page.set_viewport_size(WIDTHS["phone"])
    page.goto("/memories/")
    toggle = page.locator(".more-filters-toggle")
    expect(toggle).to_have_text(re.compile(r"^\s*筛选\s*$"))
    toggle.click()
    page.get_by_label("来源").select_option("manage")
    expect(page).to_have_url(re.compile("source=manage"))
    expect(toggle.locator(".count-badge")).to_have_text("1")
    page.get_by_label("状态").select_option("all")
    expect(page).to_have_url(re.compile("status=all"))
    expect(toggle.locator(".count-badge")).to_have_text("2")
    page.get_by_label("来源").select_option("")
    expect(toggle.locator(".count-badge")).to_have_text("1")
    shown = toggle.inner_text()
    page.reload()
    expect(toggle).to_have_text(shown)


# --- 7: a correction typed into the inline editor survives an expired session or form ----------
TYPED = "周报使用飞书文档撰写，结论先行，每周五发给林清。"


def type_a_correction(page: Page, memory_id: str) -> None:
    page.goto(f"/memories/{memory_id}/")
    open_editor(page)
    page.get_by_label("记忆内容").fill(TYPED)


def test_a_correction_typed_before_the_session_ended_waits_after_signing_in(signed_in, alice):
    memory_id = add(alice, WEEKLY)
    page = signed_in(alice)
    type_a_correction(page, memory_id)
    sign_out_in_another_tab(page)
    page.get_by_role("button", name="保存纠正").click()
    sign_in_again(page)
    expect(page).to_have_url(re.compile(f"/memories/{memory_id}/edit/"))
    expect(page.get_by_label("记忆内容")).to_have_value(TYPED)
    expect(page.locator("#fact-card .alert")).to_contain_text("还没有保存")
    page.get_by_role("button", name="保存纠正").click()
    expect(page.locator("#fact-card blockquote")).to_have_text(TYPED)


def test_a_correction_refused_as_expired_can_be_resumed(signed_in, alice, browser_context):
    memory_id = add(alice, WEEKLY)
    page = signed_in(alice)
    type_a_correction(page, memory_id)
    browser_context.clear_cookies(name="csrftoken")  # as after signing in again elsewhere
    page.get_by_role("button", name="保存纠正").click()
    alert = page.get_by_role("alert")
    expect(alert).to_contain_text("页面已过期")
    expect(alert).to_contain_text("你输入的内容已经保留")
    alert.get_by_role("link", name="恢复输入的内容").click()
    expect(page).to_have_url(re.compile(f"/memories/{memory_id}/edit/"))
    expect(page.get_by_label("记忆内容")).to_have_value(TYPED)
    page.goto(f"/memories/{memory_id}/edit/")  # offered back once, not forever
    expect(page.get_by_label("记忆内容")).to_have_value(WEEKLY)


# --- 8: the inline editor by keyboard ------------------------------------------------------
@pytest.mark.parametrize("key", ["Enter on 取消", "Escape"])
def test_closing_the_editor_by_keyboard_gives_focus_back_to_correct(signed_in, alice, key):
    memory_id = add(alice, WEEKLY)
    page = signed_in(alice)
    page.goto(f"/memories/{memory_id}/")
    correct = page.locator("#fact-card").get_by_role("link", name="纠正")
    correct.focus()
    page.keyboard.press("Enter")
    text = page.get_by_label("记忆内容")
    expect(text).to_be_focused()
    if key == "Escape":
        page.keyboard.press("Escape")
    else:
        page.locator("#fact-card").get_by_role("link", name="取消").focus()
        page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name="记忆内容")).to_be_visible()
    expect(page.locator(".topbar")).to_have_count(1)  # the card, not a page inside the page
    expect(correct).to_be_focused()
    expect(page).to_have_url(re.compile(f"/memories/{memory_id}/$"))


# --- polish: the search box's hint is read whole -------------------------------------------
def placeholder_overflow(page: Page) -> float:
    """How far the search box's placeholder runs past the box's text area (<= 0: it fits)."""
    return page.locator("#id_q").evaluate(
        """el => {
          const s = getComputedStyle(el);
          const ctx = document.createElement('canvas').getContext('2d');
          ctx.font = `${s.fontWeight} ${s.fontSize} ${s.fontFamily}`;
          const room = el.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight);
          return ctx.measureText(el.placeholder).width - room;
        }"""
    )


def test_the_search_hint_fits_its_box_in_both_languages(signed_in, alice):
    page = signed_in(alice)
    found = []
    for language in ("zh-hans", "en"):
        if language == "en":
            page.goto("/")
            page.get_by_role("button", name="English").click()
            page.wait_for_url("**/")
        for device, viewport in WIDTHS.items():
            page.set_viewport_size(viewport)
            page.goto("/memories/")
            over = placeholder_overflow(page)
            if over > 0:
                found.append(f"{language} {device}: {over:.0f}px cut off")
    assert not found, found
