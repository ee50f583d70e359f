"""Signed-in users with real memories (real embedder, real PostgreSQL) for the console tests."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client

from memories.scope import scope_for_user
from memories.services import memory_add
from memories.types import Actor, ActorKind, Category, MemoryScope, Source, WriteStatus

Remember = Callable[..., str]
TEST_AGENT = Actor(kind=ActorKind.AGENT, id="agent-test")

# The signed-in users' fixtures, which the admin and user API tests take with a star import.
__all__ = ["alice", "alice_client", "alice_scope", "bob", "bob_scope", "remember"]


@pytest.fixture
def alice(django_user_model):
    return django_user_model.objects.create_user(username="alice", password="alice-pass-1")


@pytest.fixture
def bob(django_user_model):
    return django_user_model.objects.create_user(username="bob", password="bob-pass-1")


@pytest.fixture
def alice_scope(alice) -> MemoryScope:
    return scope_for_user(alice)


@pytest.fixture
def bob_scope(bob) -> MemoryScope:
    return scope_for_user(bob)


@pytest.fixture
def alice_client(alice) -> Client:
    client = Client()
    client.force_login(alice)
    return client


def add_memory(
    scope: MemoryScope,
    text: str,
    *,
    category: str = Category.FACT,
    source: str = Source.MANAGE,
    actor: Actor = TEST_AGENT,
) -> str:
    outcome = memory_add(
        scope=scope,
        text=text,
        actor=actor,
        category=category,
        source=source,
    )
    assert outcome.status == WriteStatus.ADDED, outcome
    assert outcome.memory_id
    return outcome.memory_id


@pytest.fixture
def remember(db) -> Remember:
    """``remember(scope, text, category=…, source=…)`` stores one memory and returns its id."""
    return add_memory
