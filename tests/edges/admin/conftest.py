"""Staff act on the console's signed-in users: reuse those fixtures."""

from __future__ import annotations

from tests.edges.console.conftest import *  # noqa: F403 - pytest finds fixtures by name
