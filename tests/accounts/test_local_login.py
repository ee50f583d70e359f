"""The console's local password form is for development and the demo: it can be turned off, and
is off by default in production with an identity provider (POCO_LOCAL_LOGIN)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client, override_settings
from django.urls import reverse

from tests.accounts.test_settings import OIDC
from tests.processes import settings_process

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice() -> None:
    get_user_model().objects.create_user("alice", password="correct horse battery")


def test_the_form_signs_in_by_default(alice):
    client = Client()
    page = client.get(reverse("login")).content.decode()
    assert 'name="password"' in page
    answer = client.post(
        reverse("login"), {"username": "alice", "password": "correct horse battery"}
    )
    assert answer.status_code == 302
    assert client.session.get("_auth_user_id")


@override_settings(LOCAL_LOGIN_ENABLED=False)
def test_turned_off_the_form_is_gone_and_a_post_signs_in_nobody(alice):
    client = Client()
    page = client.get(reverse("login")).content.decode()
    assert 'name="password"' not in page
    answer = client.post(
        reverse("login"), {"username": "alice", "password": "correct horse battery"}
    )
    assert answer.status_code == 403
    assert "本地账号登录已关闭" in answer.content.decode()
    assert not client.session.get("_auth_user_id")


def local_login_enabled(**env: str) -> str:
    """``LOCAL_LOGIN_ENABLED`` as a fresh process reads it from ``env``."""
    code = "from django.conf import settings as s; print(s.LOCAL_LOGIN_ENABLED)"
    result = settings_process(code, **env)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_production_with_a_provider_turns_it_off_unless_asked():
    production = {
        "POCO_ENV": "production",
        "POCO_SECRET_KEY": "x" * 50,
        "DATABASE_URL": "postgresql://u@db.example.invalid/poco",
        "POCO_SERVICE_TOKENS": "agent:" + "t" * 40,
        "POCO_ALLOWED_HOSTS": "memory.example.com",
    }
    assert local_login_enabled() == "True"
    assert local_login_enabled(**production) == "True"
    assert local_login_enabled(**production, **OIDC) == "False"
    assert local_login_enabled(**production, **OIDC, POCO_LOCAL_LOGIN="1") == "True"
