"""Staff act on the console's signed-in users: reuse those fixtures."""

from __future__ import annotations

from tests.console.conftest import (  # noqa: F401 - pytest finds fixtures by name
    alice,
    alice_client,
    alice_scope,
    bob,
    bob_scope,
    remember,
)
