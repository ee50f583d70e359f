"""Failed-login lockout (django-axes) on the console's and the admin's login."""

from __future__ import annotations

from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.test import Client
from django.urls import reverse

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
