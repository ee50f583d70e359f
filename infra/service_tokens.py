"""``POCO_SERVICE_TOKENS``: the named tokens agents, MCP clients and scrapers present.

The setting is a comma-separated list of ``name:token`` or ``name:token:tenantA+tenantB``
entries. The name is what the audit trail (``actor_id``) and ``/metrics`` (the ``token`` label)
record; the token itself is never stored or logged. A bare ``token`` (no colon; the format
before names existed) is named ``token-<n>`` after its 1-based position in the list — name it
to keep the name stable. A token never contains ``:``.

The tenant list binds the token: it acts for those tenants only, and any other is refused
(``edges.contract.auth``). An empty list (``name:token:``) binds it to no tenant: a scraper's
token, good for ``/metrics`` and ``/ready``'s details only. Without a list the token keeps its
reach over every tenant — and over ``/metrics`` — which production warns about at start.

Rotating a token: add ``name2:new`` (with the same tenant list) beside ``name:old``, restart the
web nodes (env change only, no database change), move the callers, then remove the old entry
and restart again.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

NAME = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")
# A scope's tenant part (memories.types.SCOPE_PART) without "+", the list's separator.
TENANT = re.compile(r"^[A-Za-z0-9_.@-]{1,64}\Z")


@dataclass(frozen=True)
class ServiceToken:
    name: str
    secret: str
    # None: every tenant (an entry without a list); otherwise the only tenants it acts for.
    tenants: frozenset[str] | None = None

    def __repr__(self) -> str:  # never print the secret (settings dumps, tracebacks)
        return f"ServiceToken(name={self.name!r}, tenants={self.tenants_text!r})"

    def serves(self, tenant_id: str) -> bool:
        return self.tenants is None or tenant_id in self.tenants

    @property
    def operator(self) -> bool:
        """Bound to no tenant's data in particular: may read what spans every tenant
        (``/metrics``, ``/ready``'s details). A token bound to tenants may not."""
        return not self.tenants

    @property
    def tenants_text(self) -> str:
        return "*" if self.tenants is None else "+".join(sorted(self.tenants))


def parse(entries: Iterable[str]) -> tuple[ServiceToken, ...]:
    """The tokens of ``entries`` (``name:token``, ``name:token:t1+t2`` or a bare ``token``);
    ValueError says which entry is wrong, by position and name only."""
    tokens: list[ServiceToken] = []
    for position, entry in enumerate(entries, start=1):
        parts = entry.strip().split(":")
        if len(parts) == 1:
            parts = [f"token-{position}", parts[0]]
        if len(parts) > 3:
            raise ValueError(
                f"entry {position}: name:token or name:token:tenantA+tenantB "
                "(a token never contains ':')"
            )
        name, secret = parts[0], parts[1]
        if not NAME.match(name):
            raise ValueError(f"entry {position}: a token name is 1-64 of A-Z a-z 0-9 _ . -")
        if not secret:
            raise ValueError(f"entry {position} ({name}): the token is empty")
        tenants = _tenants(parts[2], position, name) if len(parts) == 3 else None
        if any(t.name == name for t in tokens):
            raise ValueError(f"entry {position}: the name {name!r} is used twice")
        if any(t.secret == secret for t in tokens):
            raise ValueError(f"entry {position} ({name}): the same token is listed twice")
        tokens.append(ServiceToken(name=name, secret=secret, tenants=tenants))
    return tuple(tokens)


def _tenants(listed: str, position: int, name: str) -> frozenset[str]:
    tenants = frozenset(listed.split("+")) if listed else frozenset()
    for tenant in tenants:
        if not TENANT.match(tenant):
            raise ValueError(
                f"entry {position} ({name}): a tenant is 1-64 of A-Z a-z 0-9 _ . @ -, "
                "tenants are joined by +"
            )
    return tenants


@lru_cache(maxsize=8)
def parsed(entries: tuple[str, ...]) -> tuple[ServiceToken, ...]:
    return parse(entries)


def reach_warnings(tokens: Iterable[ServiceToken]) -> list[str]:
    """What production says at start about each token that acts for every tenant."""
    return [
        f"service token {token.name!r} acts for every tenant: bind it with "
        f"{token.name}:<token>:tenantA+tenantB (or {token.name}:<token>: for /metrics only)"
        for token in tokens
        if token.tenants is None
    ]
