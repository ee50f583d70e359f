"""``POCO_SERVICE_TOKENS``: the named tokens agents, MCP clients and scrapers present.

The setting is a comma-separated list of ``name:token`` entries. The name is what the audit
trail (``actor_id``) and ``/metrics`` (the ``token`` label) record; the token itself is never
stored or logged. A bare ``token`` (no colon; the format before names existed) is named
``token-<n>`` after its 1-based position in the list — name it to keep the name stable.

Rotating a token: add ``name2:new`` beside ``name:old``, restart the web nodes (env change
only, no database change), move the callers, then remove the old entry and restart again.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

NAME = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")


@dataclass(frozen=True)
class ServiceToken:
    name: str
    secret: str

    def __repr__(self) -> str:  # never print the secret (settings dumps, tracebacks)
        return f"ServiceToken(name={self.name!r})"


def parse(entries: Iterable[str]) -> tuple[ServiceToken, ...]:
    """The tokens of ``entries`` (``name:token`` or a bare ``token``); ValueError says which
    entry is wrong, by position and name only."""
    tokens: list[ServiceToken] = []
    for position, entry in enumerate(entries, start=1):
        name, colon, secret = entry.strip().partition(":")
        if not colon:
            name, secret = f"token-{position}", name
        if not NAME.match(name):
            raise ValueError(f"entry {position}: a token name is 1-64 of A-Z a-z 0-9 _ . -")
        if not secret:
            raise ValueError(f"entry {position} ({name}): the token is empty")
        if any(t.name == name for t in tokens):
            raise ValueError(f"entry {position}: the name {name!r} is used twice")
        if any(t.secret == secret for t in tokens):
            raise ValueError(f"entry {position} ({name}): the same token is listed twice")
        tokens.append(ServiceToken(name=name, secret=secret))
    return tuple(tokens)


@lru_cache(maxsize=8)
def parsed(entries: tuple[str, ...]) -> tuple[ServiceToken, ...]:
    return parse(entries)
