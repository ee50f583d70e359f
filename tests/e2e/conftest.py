"""A real headless Chromium (Debian's, through Playwright) against pytest-django's live server.

One browser for the whole e2e package; each test gets a fresh context (cookies, storage) and
a screenshot in ``test-artifacts/`` when it fails.  The data is per test: ``live_server`` needs
``transactional_db``, which empties the tables after every test.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
DESKTOP = {"width": 1280, "height": 900}
FAILED = pytest.StashKey[bool]()
ASYNC_UNSAFE = "DJANGO_ALLOW_ASYNC_UNSAFE"


# Package scope, not session: sync Playwright keeps an event loop running in this thread, and
# suites collected after this one (procrastinate workers call asyncio.run) must not see it.
@pytest.fixture(scope="package")
def chromium() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        message = f"{CHROMIUM} is missing (apt-get install chromium fonts-wqy-microhei)"
        if os.environ.get("POCO_REQUIRE_E2E"):
            pytest.fail(message)
        pytest.skip(message)
    # Sync Playwright runs an event loop in this thread, so Django would refuse the tests' plain
    # synchronous ORM calls; allow them while (and only while) the browser is up.
    previous = os.environ.get(ASYNC_UNSAFE)
    os.environ[ASYNC_UNSAFE] = "true"
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
            )
            yield browser
            browser.close()
    finally:
        if previous is None:
            os.environ.pop(ASYNC_UNSAFE, None)
        else:
            os.environ[ASYNC_UNSAFE] = previous


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):
    report = yield
    item.stash.setdefault(FAILED, False)
    if report.failed:
        item.stash[FAILED] = True
    return report


@pytest.fixture
def browser_context(
    request: pytest.FixtureRequest, chromium: Browser, live_server
) -> Iterator[BrowserContext]:
    context = chromium.new_context(
        base_url=live_server.url, viewport=DESKTOP, locale="zh-CN", timezone_id="Asia/Shanghai"
    )
    context.set_default_timeout(10_000)
    yield context
    if request.node.stash.get(FAILED, False):
        ARTIFACTS.mkdir(exist_ok=True)
        name = re.sub(r"[^\w.-]+", "_", request.node.nodeid)
        for index, page in enumerate(context.pages):
            page.screenshot(path=str(ARTIFACTS / f"{name}-{index}.png"), full_page=True)
    context.close()


@pytest.fixture
def anonymous_page(browser_context: BrowserContext) -> Page:
    """A tab with no session (pytest-playwright's own ``page`` would launch another browser)."""
    return browser_context.new_page()


@pytest.fixture
def signed_in(browser_context: BrowserContext, live_server) -> Callable[..., Page]:
    """``signed_in(user)``: a tab carrying that user's session (login through the form is
    tested once, in ``test_login_and_overview``)."""

    def open_tab(user) -> Page:
        client = Client()
        client.force_login(user)
        cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
        browser_context.add_cookies(
            [{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_server.url}]
        )
        return browser_context.new_page()

    return open_tab


@pytest.fixture
def alice(django_user_model):
    """The console user most browser tests sign in as (password ``alice-pass-1``)."""
    return django_user_model.objects.create_user(username="alice", password="alice-pass-1")
