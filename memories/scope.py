"""Building a scope: the one home of how every door turns what it was given into a
``MemoryScope``.

Each door has its constructor here — a service caller naming a tenant and a user
(``scope_for_caller``: /v1, /mcp, /mem0, the user API's service side), the signed-in person
(``scope_for_user``: the console, the user API), a staff member's ``tenant:user`` entry
(``scope_for_staff_entry``: the admin), a stored scope key (``scope_from_key``) and a command's
``--tenant``/``--user`` (``scope_of``, through ``edges.management.scope_options``). All of
them end in ``scope_of``, so a bad tenant or user id is refused everywhere with the same
``ScopeError`` and the same words; each door only chooses how to show it.
"""

from __future__ import annotations

from typing import Protocol

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

from memories.types import MemoryScope


class TenantGuard(Protocol):
    """Who may act for some tenants only (``edges.contract.auth.ServiceCaller``)."""

    def check_tenant(self, tenant_id: str) -> None: ...


def scope_of(*, tenant_id: str, user_id: str) -> MemoryScope:
    """A tenant's user's memory; ``ScopeError`` when either id cannot form a scope."""
    return MemoryScope(tenant_id=tenant_id, user_id=user_id)


def scope_for_caller(caller: TenantGuard, *, tenant_id: str, user_id: str) -> MemoryScope:
    """The scope a service call names: a token bound to other tenants is refused first
    (recorded, ``TenantRefused``), then the ids must form a scope."""
    caller.check_tenant(tenant_id)
    return scope_of(tenant_id=tenant_id, user_id=user_id)


def scope_for_user(user: AbstractBaseUser | AnonymousUser) -> MemoryScope:
    """The signed-in user's own memory; nothing the browser sends can widen it.

    A user who signed in through the identity provider has the scope its claims gave
    (``accounts.OidcIdentity``); a local (development/demo) account is ``POCO_CONSOLE_TENANT_ID``
    + its username.
    """
    if not user.is_authenticated:
        raise PermissionError("anonymous users have no memory")
    identity = getattr(user, "oidc_identity", None)
    if identity is not None:
        return scope_of(tenant_id=identity.scope_tenant, user_id=identity.scope_user)
    return scope_of(tenant_id=settings.CONSOLE_TENANT_ID, user_id=user.get_username())


def scope_from_key(key: str) -> MemoryScope:
    """A stored scope key (``tenant:user``, Mem0's ``user_id`` column)."""
    tenant_id, _sep, user_id = key.partition(":")
    return scope_of(tenant_id=tenant_id, user_id=user_id)


def scope_for_staff_entry(entry: str) -> MemoryScope:
    """What staff typed to find a user: ``tenant:user``, or a bare user id of the console's
    tenant (``POCO_CONSOLE_TENANT_ID``), whose local accounts have no tenant to type."""
    entry = entry.strip()
    if ":" in entry:
        return scope_from_key(entry)
    return scope_of(tenant_id=settings.CONSOLE_TENANT_ID, user_id=entry)
