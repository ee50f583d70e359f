"""Simplified Chinese by default, whatever the browser asks for; English once chosen."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_an_english_browser_still_gets_chinese_by_default():
    page = Client(HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9").get("/accounts/login/")
    assert page.status_code == 200
    assert 'lang="zh-hans"' in page.content.decode()


def test_the_language_switch_turns_english_on():
    client = Client(HTTP_ACCEPT_LANGUAGE="zh-CN")
    client.post("/i18n/setlang/", {"language": "en", "next": "/accounts/login/"})
    page = client.get("/accounts/login/")
    assert 'lang="en"' in page.content.decode()
