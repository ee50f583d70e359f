"""The two switches and the page's language."""

from __future__ import annotations

import pytest
from django.urls import reverse

from memories import services
from memories.selectors import memory_switches
from memories.types import (
    Actor,
    ActorKind,
    Source,
)
from tests.edges.console.pages import HTMX, WEEKLY, checked_switches, html

pytestmark = pytest.mark.django_db


# --- switches ---------------------------------------------------------------------------------
def test_switches_page_explains_both_switches(alice_client):
    page = html(alice_client.get(reverse("console:switches")))
    assert "保存记忆" in page and "参考记忆" in page
    # account-wide switches, never worded as "this conversation"
    assert "对你账号下的所有对话和任务生效" in page and "这次对话" not in page
    # in the words a user uses, not the code's
    assert not any(word in page for word in ("注入", "遗忘工具", "记忆候选"))
    assert page.count('role="switch"') == 2 and checked_switches(page) == 2


def test_switches_save_through_htmx(alice_client, alice_scope):
    response = alice_client.post(
        reverse("console:switches"), {"memory_reference_enabled": "on"}, **HTMX
    )
    page = html(response)
    assert "<html" not in page and "设置已保存" in page
    assert memory_switches(scope=alice_scope).memory_save_enabled is False
    assert memory_switches(scope=alice_scope).memory_reference_enabled is True
    reloaded = html(alice_client.get(reverse("console:switches")))
    assert checked_switches(reloaded) == 1


def test_switches_without_javascript(alice_client, alice_scope):
    response = alice_client.post(reverse("console:switches"), {}, follow=True)
    assert "设置已保存" in html(response)
    switches = memory_switches(scope=alice_scope)
    assert not switches.memory_save_enabled and not switches.memory_reference_enabled


# --- language ---------------------------------------------------------------------------------
def test_english_through_the_language_switch(alice_client):
    response = alice_client.post(
        reverse("set_language"),
        {"language": "en", "next": reverse("console:overview")},
        follow=True,
    )
    page = html(response)
    assert 'lang="en"' in page
    assert "Memory overview" in page and "记忆概览" not in page
    assert "简体中文" in page  # the way back


def test_in_english_a_memory_added_here_comes_from_the_memory_page(alice_client, alice_scope):
    outcome = services.memory_add(
        scope=alice_scope,
        text=WEEKLY,
        actor=Actor(kind=ActorKind.USER, id="alice"),
        source=Source.CONSOLE,
    )
    alice_client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    page = html(alice_client.get(reverse("console:memory_detail", args=[outcome.memory_id])))
    assert 'class="badge src">Memory page<' in page and "This page" not in page
