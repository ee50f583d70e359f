"""Checked by looking, in Chromium at 390 and 1440 px: every console page measured for what a
person would see as broken — something wider than the screen, two controls on top of each
other, a label squeezed to one character a line, a button that looks like plain text.

One browser, one signed-in tab, a loop over the pages and the two widths (quick enough for
``make test``).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page

from memories.scope import scope_for_user
from memories.services import memory_add
from memories.types import Actor, ActorKind, Source, WriteStatus

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WIDTHS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1440, "height": 900}}
LONG = (
    "周报使用飞书文档撰写，结论先行；每周五下班前发给林清，抄送王磊。"
    "表格放在最后，图表优先使用 Mermaid，链接放在正文末尾的参考资料一节。" * 3
)

MEASURE = (Path(__file__).parent / "layout.js").read_text()


def layout_problems(page: Page) -> list[str]:
    return page.evaluate(MEASURE)


@pytest.fixture
def pages(alice) -> dict[str, str]:
    scope = scope_for_user(alice)
    agent = Actor(kind=ActorKind.AGENT, id="agent-e2e")
    ids = []
    for text, category in ((LONG, "preference"), ("团队日常沟通使用飞书。", "fact")):
        outcome = memory_add(
            scope=scope, text=text, actor=agent, category=category, source=Source.MANAGE
        )
        assert outcome.status == WriteStatus.ADDED and outcome.memory_id
        ids.append(outcome.memory_id)
    first = ids[0]
    return {
        "overview": "/",
        "list": "/memories/",
        "list, filtered": "/memories/?q=飞书&category=fact&date_from=2020-01-01&date_to=2030-01-01",
        "search": "/memories/?q=飞书&mode=semantic",
        "detail": f"/memories/{first}/",
        "edit": f"/memories/{first}/edit/",
        "delete": f"/memories/{first}/delete/",
        "add": "/memories/new/",
        "import": "/memories/import/",
        "by use, by run": "/memories/?sort=used&run=run-1&status=all",
        "delete all": "/memories/delete-all/",
        "settings": "/settings/",
        "not found": "/memories/00000000-0000-0000-0000-000000000000/",
    }


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_every_console_page_at_phone_and_desktop_width(signed_in, alice, pages, language):
    page = signed_in(alice)
    if language == "en":
        page.goto("/")
        page.get_by_role("button", name="English").click()
        page.wait_for_url("**/")
    found = []
    for device, viewport in WIDTHS.items():
        page.set_viewport_size(viewport)
        for title, path in pages.items():
            page.goto(path)
            found += [f"{language} {device} {title}: {p}" for p in layout_problems(page)]
    assert not found, "\n".join(found)


def test_the_login_page_at_phone_and_desktop_width(anonymous_page):
    found = []
    for device, viewport in WIDTHS.items():
        anonymous_page.set_viewport_size(viewport)
        anonymous_page.goto("/accounts/login/")
        found += [f"{device}: {p}" for p in layout_problems(anonymous_page)]
    assert not found, "\n".join(found)
