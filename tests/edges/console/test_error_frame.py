"""Error pages keep the console's frame for a signed-in user (header, navigation, logout,
language switch) and fall back to a bare page when the request itself cannot be used."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import Client, RequestFactory

from edges.console import errors

pytestmark = pytest.mark.django_db


def framed(page: str) -> bool:
    return 'class="mainnav"' in page and 'name="language"' in page and "退出" in page


def test_page_expired_keeps_the_frame(alice):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    answer = client.post("/memories/new/", {"text": "周会纪要发到飞书群。", "category": "fact"})
    assert answer.status_code == 403
    page = answer.content.decode()
    assert "页面已过期" in page and framed(page)


def test_a_server_error_keeps_the_frame_for_a_signed_in_user(alice):
    request = RequestFactory().get("/memories/")
    request.user = alice
    page = errors.server_error(request).content.decode()
    assert "服务暂时出错了" in page and framed(page)


def test_an_error_page_still_renders_when_the_request_cannot_be_used():
    class Broken(AnonymousUser):
        @property
        def is_authenticated(self):  # what a failed session or database looks like here
            raise RuntimeError("session store down")

    request = RequestFactory().get("/memories/")
    request.user = Broken()
    answer = errors.server_error(request)
    page = answer.content.decode()
    assert answer.status_code == 500 and "服务暂时出错了" in page
    assert 'class="mainnav"' not in page
