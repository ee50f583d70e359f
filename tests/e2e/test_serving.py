"""What serving adds in a real browser: the CSP breaks nothing, Back does not resurrect a
deleted memory, and an expired form says so in place with a reload link."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import ConsoleMessage, expect

from memories.scope import scope_for_user
from memories.services import memory_add
from memories.types import Actor, ActorKind, WriteStatus

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

TEXT = "Prefers TypeScript for new front-end modules."


@pytest.fixture
def memory_id(alice) -> str:
    outcome = memory_add(
        scope=scope_for_user(alice),
        text=TEXT,
        actor=Actor(kind=ActorKind.AGENT, id="agent-e2e"),
        category="preference",
    )
    assert outcome.status == WriteStatus.ADDED and outcome.memory_id
    return outcome.memory_id


def test_console_pages_run_under_the_csp(signed_in, alice, memory_id):
    page = signed_in(alice)
    violations: list[str] = []

    def collect(message: ConsoleMessage) -> None:
        if "Content Security Policy" in message.text:
            violations.append(message.text)

    page.on("console", collect)
    for path in ("/", "/memories/", f"/memories/{memory_id}/", "/settings/"):
        page.goto(path)
        expect(page.locator("main")).to_be_visible()
    page.goto("/memories/")
    page.get_by_role("searchbox").fill("TypeScript")  # HTMX (a script file) still runs
    expect(page.locator("#results .memory-item")).to_have_count(1)
    assert violations == []


def test_back_after_deleting_does_not_show_the_memory_again(signed_in, alice, memory_id):
    page = signed_in(alice)
    page.goto(f"/memories/{memory_id}/")
    expect(page.locator("main")).to_contain_text("TypeScript")
    page.get_by_role("link", name="删除", exact=True).click()
    page.get_by_role("button", name="确认删除").click()
    expect(page).to_have_url(re.compile(r"/memories/$"))

    page.go_back()
    expect(page).to_have_url(re.compile(rf"/memories/{memory_id}/$"))
    expect(page.get_by_role("heading", name="页面不存在")).to_be_visible()
    expect(page.locator("main")).not_to_contain_text("TypeScript")


def test_expired_form_says_so_in_place_and_offers_a_reload(signed_in, alice, browser_context):
    page = signed_in(alice)
    page.goto("/settings/")
    browser_context.clear_cookies(name="csrftoken")  # as after signing in again elsewhere
    page.get_by_role("switch", name="保存记忆").click()

    alert = page.get_by_role("alert")
    expect(alert).to_contain_text("页面已过期")
    expect(page.locator("body")).not_to_contain_text("CSRF")
    expect(page.locator(".topbar")).to_be_visible()  # a fragment in place, not a new page
    alert.get_by_role("link", name="刷新页面").click()
    expect(page).to_have_url(re.compile(r"/settings/$"))
    expect(page.get_by_role("switch", name="保存记忆")).to_be_checked()  # nothing was saved
