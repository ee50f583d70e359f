"""Console pages and their HTMX partials, against the real database and embedder."""

from __future__ import annotations

import re
from html import escape

import pytest
from django.test import Client
from django.urls import reverse

from memories import selectors, services
from memories.console.forms import SEMANTIC_TOP_K
from memories.models import AuditEvent, MemoryRow
from memories.selectors import memory_get, memory_history, memory_switches
from memories.types import (
    Actor,
    ActorKind,
    DeleteOutcome,
    DeleteStatus,
    SearchResult,
    Source,
    WriteOutcome,
    WriteStatus,
)
from tests.memories.recall.test_related import WEEKLY_REPORT
from tests.memories.recall.test_search import FACTS

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
WEEKLY = "周报使用“飞书”文档撰写，结论先行。"
LIN = "“林清”负责“Poco”项目的前端文档评审。"
ENGLISH = "Prefers TypeScript for new front-end modules."


def shown(text: str) -> str:
    """A stored text as a page shows it: admission stores “x” as "x", the template escapes it."""
    return escape(text)


def html(response) -> str:
    return response.content.decode()


def checked_switches(page: str) -> int:
    return len(re.findall(r'<input[^>]*role="switch"[^>]*\schecked', page))


def htmx(target: str | None = None) -> dict[str, str]:
    headers = dict(HTMX)
    if target:
        headers["HTTP_HX_TARGET"] = target
    return headers


# --- access -----------------------------------------------------------------------------------
CONSOLE_PAGES = [
    "console:overview",
    "console:memories",
    "console:switches",
    "console:memory_delete_all",
]


@pytest.mark.parametrize("name", CONSOLE_PAGES)
def test_pages_send_anonymous_users_to_login(client, name):
    response = client.get(reverse(name))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_htmx_request_without_session_redirects_the_whole_page(client):
    response = client.get(reverse("console:memories"), **htmx("results"))
    assert response.status_code == 200
    assert response["HX-Redirect"].startswith(reverse("login"))
    assert response.content == b""


def test_login_page_is_chinese_and_logs_in(client, alice):
    page = client.get(reverse("login"))
    assert page.status_code == 200
    assert "登录记忆管理" in html(page)
    assert 'lang="zh-hans"' in html(page)
    response = client.post(reverse("login"), {"username": "alice", "password": "alice-pass-1"})
    assert response.status_code == 302
    assert response["Location"] == reverse("console:overview")


def test_login_with_wrong_password_shows_inline_error(client, alice):
    response = client.post(reverse("login"), {"username": "alice", "password": "nope"})
    assert response.status_code == 200
    assert 'class="alert alert-error"' in html(response)


def test_console_posts_enforce_csrf(alice):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    response = client.post(reverse("console:switches"), {"memory_save_enabled": "on"})
    assert response.status_code == 403


# --- overview ---------------------------------------------------------------------------------
def test_overview_shows_totals_trend_sources_and_topics(alice_client, alice_scope, remember):
    remember(alice_scope, WEEKLY, category="preference", source="ingest")
    remember(alice_scope, LIN, category="fact", source="manage")
    page = html(alice_client.get(reverse("console:overview")))
    assert re.search(r'data-stat="total">\s*2\s*<', page)
    assert re.search(r'data-stat="added_30d">\s*2\s*<', page)
    assert re.search(r'data-stat="updated_30d">\s*0\s*<', page)
    # a real chart: y-axis ticks, one stacked bar for today, donut slices, category bars
    assert page.count('class="seg-adds"') == 2  # today's bar, in the phone and the wide drawing
    assert 'class="tick"' in page
    assert 'class="donut-seg src-ingest"' in page and 'class="donut-seg src-manage"' in page
    assert 'class="cat-fill-preference"' in page
    # topics from the quoted names, each a link that filters the list
    for topic in ("飞书", "林清", "Poco"):
        assert f'data-topic="{topic}"' in page
    assert "还没有记忆" not in page


def test_overview_empty_state_when_no_memories(alice_client):
    page = html(alice_client.get(reverse("console:overview")))
    assert "还没有记忆" in page
    state = page[page.index('class="state state-empty"') :]
    for name in ("console:memory_add", "console:memory_import", "console:switches"):
        assert f'href="{reverse(name)}"' in state  # ways to begin, from the empty state
    assert re.search(r'data-stat="total">\s*0\s*<', page)
    assert "暂无" in page  # last change: none yet, not a made-up date


def test_overview_never_counts_another_users_memories(
    alice_client, alice_scope, bob_scope, remember
):
    remember(bob_scope, WEEKLY)
    page = html(alice_client.get(reverse("console:overview")))
    assert re.search(r'data-stat="total">\s*0\s*<', page)
    assert "飞书" not in page


# --- list, search, filters --------------------------------------------------------------------
def test_list_shows_only_own_memories(alice_client, alice_scope, bob_scope, remember):
    remember(alice_scope, WEEKLY)
    remember(bob_scope, LIN)
    page = html(alice_client.get(reverse("console:memories")))
    assert shown(WEEKLY) in page
    assert shown(LIN) not in page
    assert "共 1 条记忆" in page


def test_typing_returns_only_the_results_fragment(alice_client, alice_scope, remember):
    remember(alice_scope, WEEKLY)
    remember(alice_scope, ENGLISH)
    response = alice_client.get(reverse("console:memories"), {"q": "周报"}, **htmx("results"))
    page = html(response)
    assert response.status_code == 200
    assert "<html" not in page and 'id="results"' not in page
    assert shown(WEEKLY) in page and ENGLISH not in page
    assert "HX-Request" in response["Vary"]


def test_filter_change_returns_the_list_body_fragment(alice_client, alice_scope, remember):
    remember(alice_scope, WEEKLY, category="preference")
    remember(alice_scope, ENGLISH, category="constraint")
    response = alice_client.get(
        reverse("console:memories"), {"category": "constraint"}, **htmx("list-body")
    )
    page = html(response)
    assert "<html" not in page
    assert 'name="topic"' in page  # the list body carries the topic filter and the heat map
    assert ENGLISH in page and shown(WEEKLY) not in page


def test_source_filter(alice_client, alice_scope, remember):
    remember(alice_scope, WEEKLY, source="ingest")
    remember(alice_scope, ENGLISH, source="console")
    page = html(alice_client.get(reverse("console:memories"), {"source": "console"}))
    assert ENGLISH in page and shown(WEEKLY) not in page


def test_topic_filter_lists_memories_linked_to_the_entity(alice_client, alice_scope, remember):
    remember(alice_scope, WEEKLY)
    remember(alice_scope, LIN)
    topic = next(t for t in selectors.topic_heatmap(scope=alice_scope) if t.text == "林清")
    page = html(alice_client.get(reverse("console:memories"), {"topic": topic.id}))
    assert shown(LIN) in page and shown(WEEKLY) not in page
    assert "主题：林清" in page


def test_invalid_filter_is_shown_inline_and_ignored(alice_client, alice_scope, remember):
    remember(alice_scope, WEEKLY)
    page = html(alice_client.get(reverse("console:memories"), {"category": "bogus"}))
    assert 'id="category-error"' in page
    assert shown(WEEKLY) in page


def test_a_search_longer_than_allowed_says_so_in_its_words_and_stays_in_the_box(alice_client):
    """Only an edited address can hold one (the box takes 200): the page names the limit, as
    the console's own message, and the box keeps the search so it can be shortened."""
    query = "飞书周报" * 51
    page = html(alice_client.get(reverse("console:memories"), {"q": query}))
    assert 'id="q-error"' in page
    assert "搜索词最多 200 个字（这次有 204 个），请缩短后再搜索。" in page
    assert f'value="{query}"' in page


def test_no_match_is_distinct_from_no_memories(alice_client, alice_scope, remember):
    remember(alice_scope, WEEKLY)
    page = html(alice_client.get(reverse("console:memories"), {"q": "不存在的词"}))
    assert "没有匹配的记忆" in page and "还没有记忆" not in page


def test_empty_list_explains_what_is_remembered(alice_client):
    page = html(alice_client.get(reverse("console:memories")))
    assert "还没有记忆" in page and "适合记住" in page


def test_paging(alice_client, alice_scope, remember):
    for n in range(22):
        remember(alice_scope, f"第 {n} 条测试记忆：项目代号 “Orion-{n}”。")
    first = html(alice_client.get(reverse("console:memories")))
    assert "第 1 / 2 页" in first and "下一页" in first
    second = html(alice_client.get(reverse("console:memories"), {"page": 2}, **htmx("results")))
    assert "第 2 / 2 页" in second and "上一页" in second
    assert second.count('class="memory-item"') == 2


@pytest.mark.parametrize("typed", ["3", "10001", "9223372036854775807", str(10**40)])
def test_a_page_past_the_end_redirects_to_the_last_page(alice_client, alice_scope, remember, typed):
    """A typed number past the end, however large, shows the last page: no number reaches SQL
    that PostgreSQL cannot take (an OFFSET past bigint was a 503 outage page)."""
    for n in range(22):
        remember(alice_scope, f"第 {n} 条测试记忆：项目代号 “Orion-{n}”。")
    response = alice_client.get(reverse("console:memories"), {"page": typed, "sort": "updated"})
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('console:memories')}?page=2&sort=updated"
    assert "第 2 / 2 页" in html(alice_client.get(response["Location"]))


def test_semantic_search_finds_by_meaning(alice_client, alice_scope, remember):
    remember(alice_scope, "用户偏好使用简体中文回答，结论先行，说明保持简洁。")
    response = alice_client.get(
        reverse("console:memories"),
        {"q": "用户偏好用简体中文回答", "mode": "semantic"},
        **htmx("results"),
    )
    page = html(response)
    assert response.status_code == 200
    assert "结论先行" in page and "高度相关" in page  # a word, not a fused score read as cosine


def test_semantic_search_marks_the_related_memories(alice_client, alice_scope, remember):
    """After the evidence, a search may list memories only near in meaning: each says so."""
    for text in FACTS.values():
        remember(alice_scope, text)
    query = WEEKLY_REPORT
    result = selectors.memory_search(scope=alice_scope, query=query, top_k=SEMANTIC_TOP_K)
    related = [hit for hit in result.items if hit.related]
    assert related and len(related) < len(result.items)
    page = html(
        alice_client.get(
            reverse("console:memories"), {"q": query, "mode": "semantic"}, **htmx("results")
        )
    )
    assert page.count('data-field="match"') == len(result.items)
    assert page.count("可能相关") == len(related)
    assert page.index("技术方案都使用简体中文") < page.index("可能相关")  # evidence first


def test_search_outage_is_unavailable_not_zero_results(
    alice_client, alice_scope, remember, monkeypatch
):
    # The selector's outage contract (available=False) is the fact under test here.
    remember(alice_scope, WEEKLY)
    monkeypatch.setattr(
        selectors,
        "memory_search",
        lambda **_: SearchResult(items=(), available=False, error_reason="search failed"),
    )
    response = alice_client.get(
        reverse("console:memories"), {"q": "周报", "mode": "semantic"}, **htmx("results")
    )
    page = html(response)
    assert response.status_code == 503
    assert "语义搜索暂时不可用" in page
    assert "没有找到" not in page and "共 0 条" not in page


# --- detail -----------------------------------------------------------------------------------
def test_detail_shows_text_metadata_related_and_history(alice_client, alice_scope, remember):
    memory_id = remember(alice_scope, WEEKLY, category="preference", source="ingest")
    related_id = remember(alice_scope, "周报需要在周五下班前发给“林清”。")
    page = html(alice_client.get(reverse("console:memory_detail", args=[memory_id])))
    assert shown(WEEKLY) in page
    assert memory_id in page
    assert "偏好" in page and "任务沉淀" in page
    assert reverse("console:memory_detail", args=[related_id]) in page  # related memories
    assert "变更轨迹" in page and "你的助手在任务中记下" in page
    assert ">ADD<" not in page and "agent-test" not in page  # codes and ids stay in the admin


def test_detail_of_another_users_memory_is_404_without_content(alice_client, bob_scope, remember):
    memory_id = remember(bob_scope, LIN)
    response = alice_client.get(reverse("console:memory_detail", args=[memory_id]))
    assert response.status_code == 404
    assert "林清" not in html(response)


def test_detail_of_unknown_id_is_404(alice_client):
    response = alice_client.get(
        reverse("console:memory_detail", args=["00000000-0000-0000-0000-000000000000"])
    )
    assert response.status_code == 404


def test_not_a_uuid_is_404(alice_client):
    assert alice_client.get("/memories/not-a-uuid/").status_code == 404


# --- correction -------------------------------------------------------------------------------
def test_edit_form_fragment_is_prefilled(alice_client, alice_scope, remember):
    memory_id = remember(alice_scope, WEEKLY, category="preference")
    response = alice_client.get(reverse("console:memory_edit", args=[memory_id]), **HTMX)
    page = html(response)
    assert "<html" not in page
    assert "纠正记忆" in page and shown(WEEKLY) in page
    assert '<option value="preference" selected>' in page


def test_edit_page_without_javascript(alice_client, alice_scope, remember):
    memory_id = remember(alice_scope, WEEKLY)
    page = html(alice_client.get(reverse("console:memory_edit", args=[memory_id])))
    assert "<html" in page and 'name="text"' in page


def test_correction_keeps_the_id_and_adds_history(alice_client, alice_scope, remember):
    memory_id = remember(alice_scope, WEEKLY, category="preference")
    corrected = "周报使用“飞书”文档撰写，周五前发给“林清”。"
    response = alice_client.post(
        reverse("console:memory_edit", args=[memory_id]),
        {"text": corrected, "category": "preference"},
        **HTMX,
    )
    page = html(response)
    assert response.status_code == 200
    assert response["HX-Retarget"] == "#detail-body"
    assert "已纠正" in page and escape(corrected) in page
    assert memory_get(scope=alice_scope, memory_id=memory_id).content == corrected
    history = memory_history(scope=alice_scope, memory_id=memory_id)
    assert [e.event for e in history] == ["ADD", "UPDATE"]
    assert history[-1].old_text == WEEKLY and history[-1].new_text == corrected
    assert history[-1].actor_kind == "user" and history[-1].actor_id == "alice"
    assert history[-1].source == "console"
    assert "<del>" in page and "你在管理页纠正" in page  # the trail shows old → new


def test_correction_without_javascript_redirects_with_message(alice_client, alice_scope, remember):
    memory_id = remember(alice_scope, WEEKLY)
    response = alice_client.post(
        reverse("console:memory_edit", args=[memory_id]),
        {"text": "周报改用“钉钉”文档撰写。", "category": "fact"},
        follow=True,
    )
    assert response.redirect_chain[-1][0] == reverse("console:memory_detail", args=[memory_id])
    assert "已纠正" in html(response)


def test_unchanged_correction_says_so(alice_client, alice_scope, remember):
    memory_id = remember(alice_scope, WEEKLY)
    response = alice_client.post(
        reverse("console:memory_edit", args=[memory_id]),
        {"text": WEEKLY, "category": "fact"},
        **HTMX,
    )
    assert "内容没有变化" in html(response)


def test_empty_correction_shows_inline_error(alice_client, alice_scope, remember):
    memory_id = remember(alice_scope, WEEKLY)
    response = alice_client.post(
        reverse("console:memory_edit", args=[memory_id]),
        {"text": "  ", "category": "fact"},
        **HTMX,
    )
    assert response.status_code == 422
    assert 'id="text-error"' in html(response) and "记忆内容不能为空" in html(response)
    assert memory_get(scope=alice_scope, memory_id=memory_id).content == WEEKLY


def test_correction_backend_error_is_a_failure(alice_client, alice_scope, remember, monkeypatch):
    memory_id = remember(alice_scope, WEEKLY)
    monkeypatch.setattr(
        services,
        "memory_update",
        lambda **_: WriteOutcome(status=WriteStatus.BACKEND_ERROR, memory_id=memory_id),
    )
    response = alice_client.post(
        reverse("console:memory_edit", args=[memory_id]),
        {"text": "新的内容。", "category": "fact"},
        **HTMX,
    )
    page = html(response)
    assert response.status_code == 503
    assert "纠正失败" in page and "已纠正" not in page


def test_correcting_another_users_memory_is_404_and_changes_nothing(
    alice_client, bob_scope, remember
):
    memory_id = remember(bob_scope, LIN)
    response = alice_client.post(
        reverse("console:memory_edit", args=[memory_id]), {"text": "篡改", "category": "fact"}
    )
    assert response.status_code == 404
    assert memory_get(scope=bob_scope, memory_id=memory_id).content == LIN


# --- deletion ---------------------------------------------------------------------------------
def test_delete_confirmation_fragment(alice_client, alice_scope, remember):
    memory_id = remember(alice_scope, WEEKLY)
    page = html(alice_client.get(reverse("console:memory_delete", args=[memory_id]), **HTMX))
    assert "<html" not in page
    assert "确定删除这条记忆" in page and "确认删除" in page


def test_delete_removes_the_memory_and_redirects(alice_client, alice_scope, remember):
    memory_id = remember(alice_scope, WEEKLY)
    response = alice_client.post(reverse("console:memory_delete", args=[memory_id]), **HTMX)
    assert response.status_code == 200
    assert response["HX-Redirect"] == reverse("console:memories")
    assert not MemoryRow.objects.filter(id=memory_id).exists()
    listing = html(alice_client.get(reverse("console:memories")))
    assert "已删除这条记忆" in listing and shown(WEEKLY) not in listing


def test_delete_without_javascript(alice_client, alice_scope, remember):
    memory_id = remember(alice_scope, WEEKLY)
    confirm = html(alice_client.get(reverse("console:memory_delete", args=[memory_id])))
    assert "<html" in confirm and "确认删除" in confirm
    response = alice_client.post(reverse("console:memory_delete", args=[memory_id]))
    assert response.status_code == 302
    assert not MemoryRow.objects.filter(id=memory_id).exists()


@pytest.mark.parametrize(
    ("status", "http_status", "headline"),
    [
        (DeleteStatus.PARTIAL_CLEANUP, 500, "删除没有完全完成"),
        (DeleteStatus.BACKEND_ERROR, 503, "删除失败"),
    ],
)
def test_failed_delete_is_never_shown_as_success(
    alice_client, alice_scope, remember, monkeypatch, status, http_status, headline
):
    # The service's outcome is the fact under test: the page must say what it says.
    memory_id = remember(alice_scope, WEEKLY)
    monkeypatch.setattr(
        services, "memory_delete", lambda **_: DeleteOutcome(status=status, deleted_count=1)
    )
    response = alice_client.post(reverse("console:memory_delete", args=[memory_id]), **HTMX)
    page = html(response)
    assert response.status_code == http_status
    assert headline in page and f'data-outcome="{status.value}"' in page
    assert "HX-Redirect" not in response
    assert "已删除这条记忆" not in page


def test_deleting_another_users_memory_is_404_and_keeps_it(alice_client, bob_scope, remember):
    memory_id = remember(bob_scope, LIN)
    response = alice_client.post(reverse("console:memory_delete", args=[memory_id]))
    assert response.status_code == 404
    assert MemoryRow.objects.filter(id=memory_id).exists()


def test_delete_all_needs_the_typed_phrase(alice_client, alice_scope, remember):
    remember(alice_scope, WEEKLY)
    page = html(alice_client.get(reverse("console:memory_delete_all")))
    assert "删除全部" in page and "1</strong> 条记忆" in page
    response = alice_client.post(reverse("console:memory_delete_all"), {"confirm": "删除"}, **HTMX)
    assert response.status_code == 422
    assert 'id="confirm-error"' in html(response)
    assert selectors.memory_list(scope=alice_scope).total == 1


def test_delete_all_deletes_only_own_memories(alice_client, alice_scope, bob_scope, remember):
    remember(alice_scope, WEEKLY)
    remember(alice_scope, ENGLISH)
    bobs = remember(bob_scope, LIN)
    response = alice_client.post(
        reverse("console:memory_delete_all"), {"confirm": "删除全部"}, **HTMX
    )
    assert response["HX-Redirect"] == reverse("console:memories")
    assert selectors.memory_list(scope=alice_scope).total == 0
    assert MemoryRow.objects.filter(id=bobs).exists()
    listing = html(alice_client.get(reverse("console:memories")))
    assert "已删除全部 2 条记忆" in listing
    deletes = AuditEvent.objects.filter(user_id="alice", event="DELETE")
    assert deletes.count() == 2 and not deletes.exclude(new_text="", old_text="").exists()


def test_delete_all_partial_cleanup_is_a_failure(alice_client, alice_scope, remember, monkeypatch):
    remember(alice_scope, WEEKLY)
    monkeypatch.setattr(
        services,
        "memory_delete_user",
        lambda **_: DeleteOutcome(status=DeleteStatus.PARTIAL_CLEANUP, deleted_count=3),
    )
    response = alice_client.post(
        reverse("console:memory_delete_all"), {"confirm": "删除全部"}, **HTMX
    )
    page = html(response)
    assert response.status_code == 500
    assert "删除没有完全完成" in page and "已删除 3 条记忆" in page
    assert "HX-Redirect" not in response


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
