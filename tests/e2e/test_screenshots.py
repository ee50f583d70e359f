"""`make screenshots`: desktop (1440×900) and phone (390×844) PNGs of every console page, in
Chinese, from the demo memory, into docs/screenshots/. Skipped in `make test`."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from memories.ops.portability import memory_export
from memories.scope import scope_for_user
from memories.selectors import memory_list
from memories.types import ListQuery

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not os.environ.get("POCO_SCREENSHOTS"), reason="run by `make screenshots` only"
    ),
]

OUT = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
VIEWPORTS = {"desktop": {"width": 1440, "height": 900}, "phone": {"width": 390, "height": 844}}


def test_screenshots_of_every_console_page(signed_in, settings, tmp_path):
    settings.DATA_DIR = tmp_path
    call_command("seed_demo", stdout=open(os.devnull, "w"))  # noqa: SIM115
    demo = get_user_model().objects.get(username="demo")
    page_of = memory_list(scope=scope_for_user(demo), query=ListQuery(query="周报", page_size=1))
    memory_id = page_of.items[0].id
    pages = {
        "overview": "/",
        "memories": "/memories/",
        "search": "/memories/?q=周报+飞书",
        "search-meaning": "/memories/?q=每周汇报怎么写&mode=semantic",
        "memory-detail": f"/memories/{memory_id}/",
        "memory-edit": f"/memories/{memory_id}/edit/",
        "memory-add": "/memories/new/",
        "memory-import": "/memories/import/",
        "delete-all": "/memories/delete-all/",
        "settings": "/settings/",
    }
    OUT.mkdir(parents=True, exist_ok=True)
    page = signed_in(demo)
    written = []
    for device, viewport in VIEWPORTS.items():
        page.set_viewport_size(viewport)
        for name, path in pages.items():
            response = page.goto(path)
            assert response is not None and response.status == 200, path
            target = OUT / f"{name}-{device}.png"
            page.screenshot(path=str(target), full_page=True)
            written.append(target)
        # The import's preview: a file with one new memory, one refused, the rest repeats.
        document = memory_export(scope=scope_for_user(demo))
        document["memories"] += [
            # One new memory per device: the phone's import must not find the desktop's again.
            {
                "content": f"Release notes are written in English and Chinese ({device}).",
                "category": "fact",
            },
            {"content": "我的身份证号是 110101199003071234。"},
        ]
        upload = tmp_path / "poco-memories-demo.json"
        upload.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
        page.goto("/memories/import/")
        page.locator("input[type=file]").set_input_files(str(upload))
        page.locator("form.edit-form button[type=submit]").click()
        page.wait_for_selector("[data-section=import-preview]")
        target = OUT / f"memory-import-preview-{device}.png"
        page.screenshot(path=str(target), full_page=True)
        written.append(target)
        # Confirmed: the list of what this import brought in.
        page.locator("[data-confirm-import]").click()
        page.wait_for_url("**/memories/?imported=*")
        target = OUT / f"memory-import-done-{device}.png"
        page.screenshot(path=str(target), full_page=True)
        written.append(target)
    assert all(p.stat().st_size > 10_000 for p in written)


def test_screenshots_of_the_new_states(signed_in, settings, tmp_path):
    """What agents learned lately, a selection in the bulk bar, who looked, a restorable past
    version, and the login page after signing out."""
    from memories.models import AuditEvent
    from memories.services import memory_update, staff_view_record
    from memories.types import Actor, ActorKind

    settings.DATA_DIR = tmp_path
    call_command("seed_demo", stdout=open(os.devnull, "w"))  # noqa: SIM115
    demo = get_user_model().objects.get(username="demo")
    scope = scope_for_user(demo)
    staff = Actor(kind=ActorKind.STAFF, id="support-lin")
    staff_view_record(
        scope=scope, actor=staff, page=AuditEvent.Page.SUPPORT, reason="工单 1234：记忆不准"
    )
    first = memory_list(scope=scope, query=ListQuery(query="周报", page_size=1)).items[0]
    memory_update(
        scope=scope,
        memory_id=first.id,
        text="周报使用 Notion 撰写，结论先行。",
        actor=Actor(kind=ActorKind.USER, id="demo"),
    )
    OUT.mkdir(parents=True, exist_ok=True)
    written = []
    for device, viewport in VIEWPORTS.items():
        page = signed_in(demo)
        page.set_viewport_size(viewport)
        page.goto("/")
        target = OUT / f"last-learned-{device}.png"
        page.locator("[data-section=learned]").screenshot(path=str(target))
        written.append(target)
        page.goto("/memories/")
        for box in page.locator(".row-select").all()[:3]:
            box.check()
        target = OUT / f"memories-bulk-selected-{device}.png"
        page.screenshot(path=str(target), full_page=False)
        written.append(target)
        page.goto("/settings/")
        target = OUT / f"settings-who-looked-{device}.png"
        page.screenshot(path=str(target), full_page=True)
        written.append(target)
        page.goto(f"/memories/{first.id}/")
        target = OUT / f"memory-restore-{device}.png"
        page.screenshot(path=str(target), full_page=True)
        written.append(target)
        page.get_by_role("button", name="退出").click()
        page.wait_for_selector("[data-login-reason]")
        target = OUT / f"login-signed-out-{device}.png"
        page.screenshot(path=str(target), full_page=True)
        written.append(target)
        page.close()
    assert all(p.stat().st_size > 5_000 for p in written)
