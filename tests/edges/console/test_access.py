"""Signing in to the console: anonymous users, HTMX without a session, CSRF."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.edges.console.pages import html, htmx

pytestmark = pytest.mark.django_db


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


@pytest.mark.parametrize("name", CONSOLE_PAGES)
def test_an_account_whose_name_cannot_be_a_scope_is_refused_not_an_error(django_user_model, name):
    """A local account named outside the scope alphabet has no memory: refused (403) as every
    door refuses such an id, never a server error."""
    person = django_user_model.objects.create_user(username="张三", password="zhang-pass-1")
    client = Client(raise_request_exception=False)
    client.force_login(person)
    assert client.get(reverse(name)).status_code == 403
