from __future__ import annotations

import pytest
from django.test import Client


@pytest.fixture
def alice(django_user_model):
    return django_user_model.objects.create_user(username="alice", password="alice-pass-1")


@pytest.fixture
def alice_client(alice) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(alice)
    return client
