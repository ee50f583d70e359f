"""Fixtures of the recall tests: a scope's memories written through the services."""

from __future__ import annotations

from importlib import import_module

import pytest
from django.db import connection

from memories import services

ATLAS = "项目“Atlas”的发布窗口定在三月底，负责人是王磊。"
KESTREL = "Kestrel is the code name of the billing rewrite."
FEISHU = "团队沟通统一用“飞书”，不用邮件。"
CAT = "用户养了一只叫豆豆的猫。"
HIKING = "用户周末喜欢爬山。"
TEA = "User likes green tea in the afternoon."

# A project named inside a longer entity name ("Project Kestrel"), asked when it is due.
KESTREL_PROJECT = {
    "goal": "Project Kestrel is the billing rewrite, due the end of March.",
    "owner": "Maya Chen leads Kestrel; scope changes go through her.",
    "stack": "Kestrel runs on Go and PostgreSQL.",
}


@pytest.fixture
def remember(scope, agent):
    def add(text: str, **extra) -> str:
        outcome = services.memory_add(scope=scope, text=text, actor=agent, **extra)
        assert outcome.memory_id is not None, outcome
        return outcome.memory_id

    return add


@pytest.fixture
def facts(remember) -> dict[str, str]:
    return {text: remember(text) for text in (ATLAS, KESTREL, FEISHU, CAT, HIKING, TEA)}


def apply_data_migration(module: str, function: str) -> None:
    """Run a data migration's forward step again, over rows written as before it."""
    getattr(import_module(f"memories.migrations.{module}"), function)(
        None, connection.schema_editor()
    )
