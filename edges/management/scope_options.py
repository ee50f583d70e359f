"""``--tenant``/``--user`` for the commands that act on one scope."""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandError, CommandParser

from memories.scope import scope_of
from memories.types import MemoryScope, ScopeError


def add_scope_arguments(parser: CommandParser) -> None:
    parser.add_argument("--tenant", required=True, help="tenant_id of the scope")
    parser.add_argument("--user", required=True, help="user_id of the scope")


def scope_from_options(options: dict[str, Any]) -> MemoryScope:
    """The scope ``--tenant``/``--user`` name; a bad id stops the command (CommandError)."""
    try:
        return scope_of(tenant_id=options["tenant"], user_id=options["user"])
    except ScopeError as exc:
        raise CommandError(str(exc)) from exc
