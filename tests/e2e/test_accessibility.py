"""Every console page checked with axe-core (vendored, static/vendor/axe-core) in Chromium:
no serious or critical violation, at desktop and phone width."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page

from memories.scope import scope_for_user
from memories.services import memory_add, memory_update
from memories.types import Actor, ActorKind, Source, WriteStatus

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

AXE = "/static/vendor/axe-core/axe.min.js"
PHONE = {"width": 390, "height": 844}
BLOCKING = {"serious", "critical"}


def axe_violations(page: Page) -> list[dict[str, Any]]:
    """The serious and critical violations axe finds on the page as it is now."""
    page.add_script_tag(url=AXE)  # same origin: the CSP allows it
    result = page.evaluate(
        "async () => { const r = await axe.run(document, {resultTypes: ['violations']});"
        " return {passes: r.passes.length, violations: r.violations.map(v => ({id: v.id,"
        " impact: v.impact, help: v.help, nodes: v.nodes.map(n => n.target.join(' '))"
        ".slice(0, 5)}))}; }"
    )
    assert result["passes"] > 10  # axe really ran its rules on this page
    return [v for v in result["violations"] if v["impact"] in BLOCKING]


@pytest.fixture
def alice_ids(django_user_model) -> tuple[Any, list[str]]:
    alice = django_user_model.objects.create_user(username="alice", password="alice-pass-1")
    scope = scope_for_user(alice)
    agent = Actor(kind=ActorKind.AGENT, id="poco-agent")
    ids = []
    for text, category, source in (
        ("周报使用“飞书”文档撰写，结论先行。", "preference", Source.INGEST),
        ("“林清”负责“Poco”项目的前端文档评审。", "fact", Source.MANAGE),
        ("Prefers TypeScript for new front-end modules.", "preference", Source.CONSOLE),
    ):
        outcome = memory_add(scope=scope, text=text, actor=agent, category=category, source=source)
        assert outcome.status == WriteStatus.ADDED and outcome.memory_id
        ids.append(outcome.memory_id)
    user = Actor(kind=ActorKind.USER, id="alice")
    memory_update(
        scope=scope, memory_id=ids[1], text="“林清”负责“Poco”项目的文档评审。", actor=user,
        source=Source.CONSOLE,
    )  # fmt: skip
    for text in ("以后默认用中文回答", "以后默认用英文回答"):  # the first becomes history
        memory_add(scope=scope, text=text, actor=agent, memory_key="preference.answer_language")
    return alice, ids


def test_every_console_page_has_no_serious_violation(signed_in, alice_ids, django_user_model):
    alice, ids = alice_ids
    pages = [
        "/",
        "/memories/",
        "/memories/?q=飞书",
        "/memories/?q=文档&mode=semantic",
        "/memories/?status=all",  # a status badge and the status chip
        f"/memories/{ids[1]}/",
        f"/memories/{ids[1]}/edit/",
        f"/memories/{ids[1]}/delete/",
        "/memories/delete-all/",
        "/memories/new/",
        "/memories/import/",
        "/settings/",
    ]
    page = signed_in(alice)
    found: dict[str, list[dict[str, Any]]] = {}
    for viewport in ({"width": 1440, "height": 900}, PHONE):
        page.set_viewport_size(viewport)
        for path in pages:
            page.goto(path)
            if "status=all" in path:  # the badge axe checks is there
                assert page.locator('[data-field="status"]').count() == 1
            if violations := axe_violations(page):
                found[f"{path} @{viewport['width']}"] = violations
        # states reached by acting: the correction preview and the multi-delete confirmation
        page.goto(f"/memories/{ids[0]}/edit/")
        page.get_by_label("记忆内容").fill("周报参考 https://wiki.example.com/w 的格式。")
        page.get_by_role("button", name="保存纠正").click()
        page.locator("[data-cleaning]").wait_for()
        if violations := axe_violations(page):
            found[f"correction preview @{viewport['width']}"] = violations
        page.goto("/memories/")
        page.locator(".row-select").first.check()
        page.get_by_role("button", name="删除所选").click()
        page.get_by_role("button", name="确认删除").wait_for()
        if violations := axe_violations(page):
            found[f"delete selected @{viewport['width']}"] = violations
    assert found == {}


def test_empty_pages_and_login_have_no_serious_violation(
    signed_in, anonymous_page, django_user_model
):
    newcomer = django_user_model.objects.create_user(username="newcomer", password="n-pass-1")
    anonymous_page.goto("/accounts/login/")
    found = {"login": axe_violations(anonymous_page)}
    page = signed_in(newcomer)
    for path in ("/", "/memories/", "/memories/?q=不存在的词"):
        page.goto(path)
        found[path] = axe_violations(page)
    assert {path: v for path, v in found.items() if v} == {}

    # the check itself can fail: an image without a text alternative is reported
    page.evaluate("document.querySelector('main').append(document.createElement('img'))")
    assert "image-alt" in {v["id"] for v in axe_violations(page)}
