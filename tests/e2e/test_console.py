"""The memory console in a real browser: what a user sees, clicks and types."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from memories import selectors
from memories.models import AuditEvent, MemoryRow
from memories.scope import scope_for_user
from memories.types import Actor, ActorKind
from tests.edges.console.conftest import add_memory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "alice-pass-1"  # the e2e conftest gives alice this password
MEMORIES = (
    ("周报使用“飞书”文档撰写，结论先行。", "preference", "ingest"),
    ("“林清”负责“Poco”项目的前端文档评审。", "fact", "manage"),
    ("周报需要在周五下班前发给“林清”。", "constraint", "manage"),
    ("团队日常沟通使用“飞书”。", "fact", "import"),
    ("Prefers TypeScript for new front-end modules.", "preference", "console"),
)
BOB_SECRET = "“王磊”的私人备忘：项目代号“Orion”。"
E2E_AGENT = Actor(kind=ActorKind.AGENT, id="agent-e2e")  # who wrote the memories the tests see


@pytest.fixture
def alice_memories(alice) -> dict[str, str]:
    """text → id of alice's five memories."""
    scope = scope_for_user(alice)
    return {
        text: add_memory(scope, text, category=category, source=source, actor=E2E_AGENT)
        for text, category, source in MEMORIES
    }


@pytest.fixture
def bob_memory(django_user_model) -> str:
    bob = django_user_model.objects.create_user(username="bob", password="bob-pass-1")
    return add_memory(scope_for_user(bob), BOB_SECRET, actor=E2E_AGENT)


def memory_items(page: Page):
    return page.locator("#results .memory-item")


def test_login_and_overview(anonymous_page: Page, alice, alice_memories):
    page = anonymous_page
    page.goto("/")
    expect(page).to_have_url(re.compile(r"/accounts/login/\?next=/$"))
    expect(page.get_by_role("heading", name="登录记忆管理")).to_be_visible()
    page.get_by_label("用户名").fill("alice")
    page.get_by_label("密码").fill(PASSWORD)
    page.get_by_role("button", name="登录", exact=True).click()

    expect(page).to_have_url(re.compile(r"/$"))
    expect(page.locator('[data-stat="total"]')).to_have_text("5")
    expect(page.locator('[data-stat="added_30d"]')).to_have_text("5")
    expect(page.locator('[data-stat="updated_30d"]')).to_have_text("0")
    # the trend chart is drawn: today's stacked bar has a real height on screen
    bar = page.locator(".chart-trend:visible rect.seg-adds").last
    expect(bar).to_be_visible()
    box = bar.bounding_box()
    assert box is not None and box["height"] > 20
    expect(page.locator(".chart-trend:visible text.tick").first).to_be_visible()
    expect(page.locator(".donut .donut-seg")).to_have_count(4)  # ingest, manage, import, console
    expect(page.locator(".legend").get_by_text("任务沉淀")).to_be_visible()
    expect(page.locator('.heat-cell[data-topic="飞书"]')).to_be_visible()


def test_keyboard_starts_at_the_skip_link(signed_in, alice, alice_memories):
    page = signed_in(alice)
    page.goto("/")
    page.keyboard.press("Tab")
    expect(page.locator(":focus")).to_have_text("跳到主要内容")
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"#main$"))


def test_typing_in_search_narrows_the_list(signed_in, alice, alice_memories):
    page = signed_in(alice)
    page.goto("/memories/")
    expect(memory_items(page)).to_have_count(5)
    search = page.get_by_label("搜索记忆")
    search.fill("飞书")
    expect(memory_items(page)).to_have_count(2)
    expect(page.locator("#results")).not_to_contain_text("TypeScript")
    expect(search).to_be_focused()  # only the results were swapped
    expect(page).to_have_url(re.compile(r"q=%E9%A3%9E%E4%B9%A6"))
    search.fill("周报 飞书")  # every word must appear, not the exact phrase
    expect(memory_items(page)).to_have_count(1)
    expect(memory_items(page)).to_contain_text("周报")
    search.fill("周报 钉钉")  # no memory contains both words
    expect(page.locator("#results")).to_contain_text("没有匹配的记忆")
    search.fill("")
    expect(memory_items(page)).to_have_count(5)


def test_category_filter(signed_in, alice, alice_memories):
    page = signed_in(alice)
    page.goto("/memories/")
    page.get_by_label("类别").select_option("constraint")
    expect(memory_items(page)).to_have_count(1)
    expect(memory_items(page)).to_contain_text("周五下班前")


def test_clicking_a_topic_filters_the_list(signed_in, alice, alice_memories):
    page = signed_in(alice)
    page.goto("/")
    page.locator('.heat-cell[data-topic="林清"]').click()
    expect(page).to_have_url(re.compile(r"/memories/\?topic="))
    expect(memory_items(page)).to_have_count(2)
    expect(page.locator("#results .chip").first).to_contain_text("主题：林清")

    # on the list page the heat map filters in place, and the chip takes the filter away
    page.locator('.heat-cell[data-topic="飞书"]').click()
    expect(page.locator("#results .chip").first).to_contain_text("主题：飞书")
    expect(memory_items(page)).to_have_count(2)
    expect(memory_items(page).first).to_contain_text("飞书")
    page.locator("#results .chip").first.click()
    expect(memory_items(page)).to_have_count(5)


def test_memory_detail_shows_history_and_related(signed_in, alice, alice_memories):
    page = signed_in(alice)
    page.goto("/memories/")
    page.get_by_role("link", name=re.compile("林清”负责")).click()
    expect(page.get_by_role("heading", name="记忆内容")).to_be_visible()
    memory_id = alice_memories["“林清”负责“Poco”项目的前端文档评审。"]
    expect(page.locator('[data-field="memory-id"]')).to_have_text(memory_id)
    timeline = page.locator(".timeline .event")
    expect(timeline).to_have_count(1)
    expect(timeline.first).to_contain_text("你的助手按你的要求记下")
    related = page.locator(".related li a")
    expect(related.first).to_be_visible()
    assert related.count() < 4  # only the closely related ones clear the floor, not every other
    related.first.click()
    expect(page).not_to_have_url(re.compile(memory_id))
    expect(page.get_by_role("heading", name="记忆内容")).to_be_visible()


def test_correcting_a_fact_keeps_its_id_and_adds_history(signed_in, alice, alice_memories):
    original = "团队日常沟通使用“飞书”。"
    typed = "团队日常沟通已改用“钉钉”。"
    corrected = typed
    memory_id = alice_memories[original]
    page = signed_in(alice)
    page.goto(f"/memories/{memory_id}/")
    page.get_by_role("link", name="纠正", exact=True).click()
    editor = page.get_by_label("记忆内容")
    expect(editor).to_be_focused()
    expect(editor).to_have_value(original)
    editor.fill(typed)
    page.get_by_role("button", name="保存纠正").click()

    expect(page.get_by_role("status").filter(has_text="已纠正")).to_be_visible()
    expect(page.locator(".fact-text")).to_have_text(corrected)
    expect(page.locator('[data-field="memory-id"]')).to_have_text(memory_id)
    events = page.locator(".timeline .event")
    expect(events).to_have_count(2)
    newest = events.first
    expect(newest).to_contain_text("你在管理页纠正")
    expect(newest.locator("del")).to_contain_text(original)
    expect(newest.locator("ins")).to_contain_text(corrected)

    page.reload()  # it is stored, not just drawn
    expect(page.locator(".fact-text")).to_have_text(corrected)
    assert MemoryRow.objects.get(id=memory_id).content == corrected


def test_empty_correction_shows_the_error_inline(signed_in, alice, alice_memories):
    memory_id = alice_memories["团队日常沟通使用“飞书”。"]
    page = signed_in(alice)
    page.goto(f"/memories/{memory_id}/edit/")
    editor = page.get_by_label("记忆内容")
    editor.fill("   ")
    editor.evaluate("element => element.removeAttribute('required')")  # past the browser check
    page.get_by_role("button", name="保存纠正").click()
    expect(page.locator("#text-error")).to_have_text("记忆内容不能为空。")
    expect(editor).to_have_attribute("aria-invalid", "true")


def test_delete_one_memory(signed_in, alice, alice_memories):
    text = "Prefers TypeScript for new front-end modules."
    memory_id = alice_memories[text]
    page = signed_in(alice)
    page.goto(f"/memories/{memory_id}/")

    delete = page.get_by_role("link", name="删除", exact=True)
    delete.click()
    expect(page.get_by_role("heading", name="确定删除这条记忆？")).to_be_visible()
    page.get_by_role("link", name="取消").click()  # cancel closes the panel, focus returns
    expect(page.get_by_role("heading", name="确定删除这条记忆？")).to_have_count(0)
    expect(delete).to_be_focused()

    delete.click()
    page.get_by_role("button", name="确认删除").click()
    expect(page).to_have_url(re.compile(r"/memories/$"))
    expect(page.locator(".messages")).to_contain_text("已删除这条记忆")
    expect(memory_items(page)).to_have_count(4)
    expect(page.locator("#results")).not_to_contain_text("TypeScript")
    assert not MemoryRow.objects.filter(id=memory_id).exists()
    page.goto(f"/memories/{memory_id}/")
    expect(page.get_by_role("heading", name="页面不存在")).to_be_visible()


def test_delete_all_with_typed_confirmation(signed_in, alice, alice_memories, bob_memory):
    page = signed_in(alice)
    page.goto("/memories/")
    page.get_by_role("link", name="删除全部记忆").click()
    expect(page.locator("#delete-all-form")).to_contain_text("5")
    field = page.get_by_label("请输入“删除全部”以确认")
    field.fill("删除")
    page.get_by_role("button", name="删除全部记忆").click()
    expect(page.locator("#confirm-error")).to_contain_text("请输入“删除全部”")
    assert selectors.memory_list(scope=scope_for_user(alice)).total == 5

    page.get_by_label("请输入“删除全部”以确认").fill("删除全部")
    page.get_by_role("button", name="删除全部记忆").click()
    expect(page).to_have_url(re.compile(r"/memories/$"))
    expect(page.locator(".messages")).to_contain_text("已删除全部 5 条记忆")
    expect(page.get_by_role("heading", name="还没有记忆")).to_be_visible()
    assert MemoryRow.objects.filter(id=bob_memory).exists()  # only alice's memory went
    assert AuditEvent.objects.filter(user_id="alice", event="DELETE").count() == 5


def test_both_switches_persist_across_reload(signed_in, alice):
    page = signed_in(alice)
    page.goto("/settings/")
    save = page.get_by_role("switch", name="保存记忆")
    reference = page.get_by_role("switch", name="参考记忆")
    expect(save).to_be_checked()
    expect(reference).to_be_checked()

    save.click()
    expect(page.locator("[data-saved]")).to_have_text("设置已保存。")
    page.reload()
    expect(page.get_by_role("switch", name="保存记忆")).not_to_be_checked()
    expect(page.get_by_role("switch", name="参考记忆")).to_be_checked()

    page.get_by_role("switch", name="参考记忆").press("Space")  # keyboard works too
    expect(page.locator("[data-saved]")).to_be_visible()
    page.reload()
    expect(page.get_by_role("switch", name="保存记忆")).not_to_be_checked()
    expect(page.get_by_role("switch", name="参考记忆")).not_to_be_checked()
    page.goto("/")
    expect(page.locator(".switch-status")).to_contain_text("保存记忆：关闭")
    expect(page.locator(".switch-status")).to_contain_text("参考记忆：关闭")


def test_url_tampering_never_shows_another_users_memory(
    signed_in, alice, alice_memories, bob_memory
):
    page = signed_in(alice)
    for path in (
        f"/memories/{bob_memory}/",
        f"/memories/{bob_memory}/edit/",
        f"/memories/{bob_memory}/delete/",
    ):
        response = page.goto(path)
        assert response is not None and response.status == 404
        expect(page.locator("body")).not_to_contain_text("王磊")
        expect(page.locator("body")).not_to_contain_text("Orion")
    api = page.request.get(f"/api/v1/user-customer-settings/memories/{bob_memory}")
    assert api.status == 403 and "王磊" not in api.text()
    history = page.request.get(f"/api/v1/user-customer-settings/memories/{bob_memory}/history")
    assert history.status == 403 and "Orion" not in history.text()
    page.goto("/memories/?q=Orion&user_id=bob")
    expect(page.locator("#results")).to_contain_text("没有匹配的记忆")
    assert MemoryRow.objects.filter(id=bob_memory).exists()


def test_english_through_the_language_switch(signed_in, alice, alice_memories):
    page = signed_in(alice)
    page.goto("/")
    page.get_by_role("button", name="English").click()
    expect(page.get_by_role("heading", name="Memory overview")).to_be_visible()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    page.get_by_role("link", name="Memories", exact=True).click()
    expect(page.get_by_text("5 memories")).to_be_visible()
    page.get_by_role("button", name="简体中文").click()
    expect(page.get_by_role("heading", name="记忆列表")).to_be_visible()
