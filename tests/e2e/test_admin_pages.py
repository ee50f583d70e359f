"""The staff admin's pages in Chromium: the memory sections first, titles that name what a
page shows, values as words, one empty mark, one time format with the zone named once, English
columns sized by what they hold, and a bulk-delete confirmation that looks destructive."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import expect

from memories.scope import scope_for_user
from memories.services import memory_add, memory_pin, memory_switches_update
from memories.types import Actor, ActorKind, Source

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

AGENT = Actor(kind=ActorKind.AGENT, id="agent")
TEXTS = (
    "周报使用飞书文档撰写，结论先行。",
    "A long English memory about release notes written in two languages every week.",
)


def test_admin_pages_read_as_words_in_one_format(browser_context, live_server, admin_user, alice):
    scope = scope_for_user(alice)
    ids = [
        memory_add(
            scope=scope, text=t, actor=AGENT, category="fact", source=Source.MANAGE, run_id="run-1"
        ).memory_id
        for t in TEXTS
    ]
    memory_pin(scope=scope, memory_id=ids[0], pinned=True, actor=AGENT)
    memory_switches_update(scope=scope, memory_save_enabled=False)
    client = Client()
    client.force_login(admin_user)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    browser_context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": live_server.url}]
    )
    page = browser_context.new_page()
    page.set_viewport_size({"width": 1440, "height": 900})

    page.goto("/admin/")
    expect(page.locator("#content-main .module caption").first).to_have_text("记忆")

    page.goto("/admin/memories/memoryrow/")
    expect(page.locator("#content h1")).to_have_text("记忆")
    html = page.content()
    for stock in ("选择记忆查看", "以 用户", "By User"):
        assert stock not in html
    expect(page.locator("[data-zone]")).to_have_count(1)
    expect(page.locator("[data-zone]")).to_contain_text("Asia/Shanghai")

    page.goto("/admin/memories/auditevent/")
    expect(page.locator("#content h1")).to_have_text("变更记录")
    cells = page.locator("#result_list tbody td").all_inner_texts()
    assert "设为始终使用" in cells and "pinned" not in cells
    assert not any(re.search(r"\((ADD|UPDATE|VIEW)\)", c) for c in cells)
    assert "-" not in cells and "—" in cells  # one empty mark

    page.goto(f"/admin/memories/memoryrow/{ids[0]}/change/")
    expect(page.locator("#content h1")).to_have_text("记忆")
    metadata = page.locator(".field-metadata_table").inner_text()
    assert "True" not in metadata and "是" in metadata and "Agent 管理" in metadata

    page.goto("/admin/memories/memorysettings/")
    updated = page.locator("#result_list td.field-updated_at").first.inner_text()
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d", updated), updated

    # English: the text column takes the room, the empty key stays narrow, times on one line.
    browser_context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": "en", "url": live_server.url}]
    )
    page.goto("/admin/memories/memoryrow/")
    expect(page.locator("#content h1")).to_have_text("Memory")
    text_width = page.locator("th.column-short_content").bounding_box()["width"]
    key_width = page.locator("th.column-memory_key").bounding_box()["width"]
    assert text_width > 3 * key_width, (text_width, key_width)
    for column in ("valid_until", "created"):
        cell = page.locator(f"td.field-{column}").first
        height = cell.evaluate("e => e.getBoundingClientRect().height")
        line = cell.evaluate("e => parseFloat(getComputedStyle(e).lineHeight)")
        assert cell.evaluate("e => e.scrollWidth <= e.clientWidth")
        assert cell.evaluate("e => getComputedStyle(e).whiteSpace") == "nowrap", column
        assert height < 3 * line + 20, column

    # The bulk-delete confirmation's button is styled as destructive.
    page.locator("input.action-select").first.check()
    page.select_option("select[name=action]", "delete_selected")
    page.locator("button[name=index]").click()
    button = page.locator(".submit-row input[type=submit]")
    color = button.evaluate("e => getComputedStyle(e).backgroundColor")
    red, green, blue = (int(v) for v in re.findall(r"\d+", color)[:3])
    assert red > 150 and green < 80 and blue < 80, color
