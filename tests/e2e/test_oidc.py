"""Signing in through the platform in a real Chromium, against a real OpenID provider
(oidc-provider-mock in a thread): login, the scope from the claims, an expired session and an
aged ID token on HTMX requests, logout at the provider."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from django.conf import settings
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from playwright.sync_api import BrowserContext, Page, expect

from memories.scope import scope_of
from tests.edges.console.conftest import add_memory
from tests.oidc_provider import Provider, oidc_configured, running_provider

pytestmark = pytest.mark.e2e

MIA = scope_of(tenant_id="acme", user_id="mia")
NOA = scope_of(tenant_id="acme", user_id="noa")


@pytest.fixture(scope="module")
def provider() -> Iterator[Provider]:
    with running_provider() as running:
        running.set_user("sub-mia", {"tenant": "acme", "preferred_username": "mia"})
        running.set_user("sub-noa", {"tenant": "acme", "preferred_username": "noa"})
        yield running


@pytest.fixture
def oidc_on(provider: Provider, live_server) -> Iterator[Provider]:
    with oidc_configured(provider):
        yield provider


def authorize_at_provider(page: Page, sub: str) -> None:
    expect(page.get_by_role("heading", name="Authorize Client")).to_be_visible()
    page.locator("input[name=sub]").fill(sub)
    page.get_by_role("button", name="Authorize").click()


def session_key(context: BrowserContext) -> str:
    cookies = {c["name"]: c["value"] for c in context.cookies()}
    return cookies[settings.SESSION_COOKIE_NAME]


def test_platform_sign_in_scope_expiry_and_logout(
    oidc_on: Provider, anonymous_page: Page, browser_context: BrowserContext
):
    add_memory(MIA, "我每周五下午写周报")
    add_memory(NOA, "我对花生过敏")
    page = anonymous_page

    # Login: the platform button, the provider's consent, back to the console.
    page.goto("/memories/")
    expect(page).to_have_url(re.compile(r"/accounts/login/\?next=/memories/$"))
    page.get_by_role("link", name="通过平台账号登录").click()
    authorize_at_provider(page, "sub-mia")
    expect(page).to_have_url(re.compile(r"/memories/$"))

    # Scope from the claims: mia's memory, never noa's.
    expect(page.get_by_text("我每周五下午写周报")).to_be_visible()
    expect(page.get_by_text("我对花生过敏")).to_have_count(0)

    # The ID token aged: the next HTMX request sends the whole page to the provider for a
    # silent re-check (not a swap of its answer into #results). This provider keeps no
    # session, so it answers login_required: the login page, then back to the same page.
    store = SessionStore(session_key=session_key(browser_context))
    store["oidc_id_token_expiration"] = 0
    store.save()
    page.get_by_role("searchbox", name="搜索记忆").fill("周报")
    expect(page).to_have_url(re.compile(r"/accounts/login/\?next=/memories/"))
    expect(page.locator("#results")).to_have_count(0)
    page.get_by_role("link", name="通过平台账号登录").click()
    authorize_at_provider(page, "sub-mia")
    expect(page).to_have_url(re.compile(r"/memories/"))
    expect(page.get_by_text("我每周五下午写周报")).to_be_visible()

    # The Django session expired: the next HTMX request moves the whole page to the login.
    Session.objects.all().delete()
    page.get_by_role("searchbox", name="搜索记忆").fill("花生")
    expect(page).to_have_url(re.compile(r"/accounts/login/\?next="))
    expect(page.get_by_role("heading", name="登录记忆管理")).to_have_count(1)
    expect(page.locator("#results")).to_have_count(0)

    # Sign in again, then log out: the provider ends its session and sends us to the login.
    page.get_by_role("link", name="通过平台账号登录").click()
    authorize_at_provider(page, "sub-mia")
    expect(page.get_by_text("我每周五下午写周报")).to_be_visible()
    page.get_by_role("button", name="退出").click()
    expect(page.get_by_role("heading", name="End Session")).to_be_visible()
    page.get_by_role("button", name="End session").click()
    expect(page).to_have_url(re.compile(r"/accounts/login/\?reason=signed_out$"))
    expect(page.get_by_text("你已退出登录")).to_be_visible()  # the page says why it is shown
    page.goto("/memories/")
    expect(page).to_have_url(re.compile(r"/accounts/login/\?next=/memories/$"))
