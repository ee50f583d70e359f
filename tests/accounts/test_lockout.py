"""Failed-login lockout (django-axes) on the console's and the admin's login."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from datetime import timedelta

import httpx2
import pytest
from axes.models import AccessAttempt
from django.test import Client
from django.urls import reverse

from poco_memory import launcher
from tests.processes import uvicorn_in_thread

pytestmark = pytest.mark.django_db

LOGIN = "/accounts/login/"
ADMIN_LOGIN = "/admin/login/"


@pytest.fixture
def kim(django_user_model):
    return django_user_model.objects.create_user(username="kim", password="kim-pass-1")


@pytest.fixture
def staff(django_user_model):
    return django_user_model.objects.create_user(
        username="root-kim", password="root-pass-1", is_staff=True, is_superuser=True
    )


def attempt(url: str, username: str, password: str, ip: str = "10.0.0.1", **headers):
    return Client(REMOTE_ADDR=ip).post(url, {"username": username, "password": password}, **headers)


def fail_until_locked(url: str, username: str, limit: int, ip: str = "10.0.0.1") -> None:
    for _ in range(limit - 1):
        assert attempt(url, username, "wrong", ip).status_code == 200  # the form again
    assert attempt(url, username, "wrong", ip).status_code == 429


def test_console_login_locks_after_the_failure_limit(kim, settings):
    fail_until_locked(LOGIN, "kim", settings.AXES_FAILURE_LIMIT)
    # Locked: even the right password is refused, with the page in the console's language.
    locked = attempt(LOGIN, "kim", "kim-pass-1")
    assert locked.status_code == 429
    body = locked.content.decode()
    assert "登录已暂停" in body
    assert f"{settings.AXES_COOLOFF_TIME.seconds // 60} 分钟" in body
    assert "_auth_user_id" not in locked.client.session


def test_lockout_is_per_username_and_address(kim, django_user_model, settings):
    django_user_model.objects.create_user(username="lee", password="lee-pass-1")
    fail_until_locked(LOGIN, "kim", settings.AXES_FAILURE_LIMIT)
    assert attempt(LOGIN, "lee", "lee-pass-1").status_code == 302  # another user, same address
    assert attempt(LOGIN, "kim", "kim-pass-1", ip="10.0.0.2").status_code == 302


def test_a_forged_forwarded_header_does_not_change_the_address(kim, settings):
    """Behind the proxy uvicorn sets REMOTE_ADDR from trusted proxies; the header itself is
    the client's to forge and must not open a fresh lockout bucket."""
    fail_until_locked(LOGIN, "kim", settings.AXES_FAILURE_LIMIT)
    forged = attempt(LOGIN, "kim", "kim-pass-1", HTTP_X_FORWARDED_FOR="203.0.113.9")
    assert forged.status_code == 429


def test_lockout_ends_after_the_cool_off(kim, settings):
    fail_until_locked(LOGIN, "kim", settings.AXES_FAILURE_LIMIT)
    earlier = settings.AXES_COOLOFF_TIME + timedelta(minutes=1)
    for row in AccessAttempt.objects.all():
        row.attempt_time -= earlier
        row.save(update_fields=["attempt_time"])
    response = attempt(LOGIN, "kim", "kim-pass-1")
    assert response.status_code == 302
    assert response["Location"] == reverse("console:overview")


def test_admin_login_locks_too(staff, settings):
    fail_until_locked(ADMIN_LOGIN, "root-kim", settings.AXES_FAILURE_LIMIT)
    assert attempt(ADMIN_LOGIN, "root-kim", "root-pass-1").status_code == 429


def test_a_success_before_the_limit_clears_the_failures(kim, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        attempt(LOGIN, "kim", "wrong")
    assert attempt(LOGIN, "kim", "kim-pass-1").status_code == 302
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert attempt(LOGIN, "kim", "wrong").status_code == 200


# --- caps across addresses and across usernames ------------------------------------------------
def test_one_username_is_capped_across_addresses(kim, django_user_model, settings):
    """Guesses spread over many addresses (each below the pair's limit) lock the username."""
    settings.LOGIN_USERNAME_FAILURE_LIMIT = 8
    django_user_model.objects.create_user(username="lee", password="lee-pass-1")
    for n in range(7):
        assert attempt(LOGIN, "kim", "wrong", ip=f"10.1.0.{n}").status_code == 200
    assert attempt(LOGIN, "kim", "wrong", ip="10.1.0.7").status_code == 429
    # Locked from everywhere, even with the right password; other users are not.
    assert attempt(LOGIN, "kim", "kim-pass-1", ip="10.9.9.9").status_code == 429
    assert attempt(LOGIN, "lee", "lee-pass-1", ip="10.1.0.1").status_code == 302


def test_one_address_is_capped_across_usernames(kim, settings):
    """One address trying many accounts (each below the pair's limit) is locked out."""
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 8
    for n in range(7):
        assert attempt(LOGIN, f"user-{n}", "wrong", ip="10.2.0.1").status_code == 200
    assert attempt(LOGIN, "user-7", "wrong", ip="10.2.0.1").status_code == 429
    assert attempt(LOGIN, "kim", "kim-pass-1", ip="10.2.0.1").status_code == 429
    assert attempt(LOGIN, "kim", "kim-pass-1", ip="10.2.0.2").status_code == 302


def test_a_success_does_not_reset_the_address_cap(kim, settings):
    """Holding one account must not buy an address fresh guesses at the others."""
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 6
    for n in range(5):
        assert attempt(LOGIN, f"user-{n}", "wrong", ip="10.3.0.1").status_code == 200
    assert attempt(LOGIN, "kim", "kim-pass-1", ip="10.3.0.1").status_code == 302
    assert attempt(LOGIN, "user-5", "wrong", ip="10.3.0.1").status_code == 429


def test_the_caps_default_above_the_pairs_limit(settings):
    assert settings.AXES_FAILURE_LIMIT < settings.LOGIN_USERNAME_FAILURE_LIMIT
    assert settings.AXES_FAILURE_LIMIT < settings.LOGIN_ADDRESS_FAILURE_LIMIT


# --- forwarded headers through the server the launcher runs -------------------------------------
@pytest.fixture
def served(transactional_db, kim) -> Iterator[Callable[[], str]]:
    """Starts uvicorn in a thread with the launcher's own configuration, read when called (so
    FORWARDED_ALLOW_IPS can be set first), and answers its base URL."""
    from poco_memory.asgi import application

    with ExitStack() as servers:

        def start() -> str:
            config = launcher.web_config(application)
            config.lifespan = "off"
            return servers.enter_context(uvicorn_in_thread(config))

        yield start


def guess(browser: httpx2.Client, base: str, password: str, forwarded_for: str) -> int:
    page = browser.get(f"{base}{LOGIN}")
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text).group(1)
    answer = browser.post(
        f"{base}{LOGIN}",
        data={"username": "kim", "password": password, "csrfmiddlewaretoken": token},
        headers={"X-Forwarded-For": forwarded_for, "Referer": f"{base}{LOGIN}"},
    )
    return answer.status_code


def test_without_a_proxy_a_forwarded_address_from_loopback_is_ignored(
    served, monkeypatch, settings
):
    """uvicorn trusts loopback's X-Forwarded-For by default: any local client named a new
    address per guess and was never locked. The launcher trusts no such header unless
    FORWARDED_ALLOW_IPS names a proxy."""
    monkeypatch.delenv("FORWARDED_ALLOW_IPS", raising=False)
    base = served()
    with httpx2.Client() as browser:
        codes = [
            guess(browser, base, "wrong", f"203.0.113.{n}")
            for n in range(settings.AXES_FAILURE_LIMIT)
        ]
        assert codes[-1] == 429, codes
        assert guess(browser, base, "kim-pass-1", "198.51.100.7") == 429
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {"127.0.0.1"}


def test_behind_a_named_proxy_the_username_cap_still_holds(served, monkeypatch, settings):
    """With FORWARDED_ALLOW_IPS naming the proxy, each guess has the address the proxy gives;
    spread over many addresses, the username's own cap locks it."""
    monkeypatch.setenv("FORWARDED_ALLOW_IPS", "127.0.0.1")
    settings.LOGIN_USERNAME_FAILURE_LIMIT = 8
    base = served()
    with httpx2.Client() as browser:
        codes = [guess(browser, base, "wrong", f"203.0.113.{n}") for n in range(8)]
        assert codes == [200] * 7 + [429], codes
        assert guess(browser, base, "kim-pass-1", "198.51.100.7") == 429
    assert AccessAttempt.objects.filter(ip_address="203.0.113.3").exists()
