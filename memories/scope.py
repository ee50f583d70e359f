"""Building a scope at the edge: from a service call's body or from the signed-in user."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

from memories.types import MemoryScope


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
        return MemoryScope(tenant_id=identity.scope_tenant, user_id=identity.scope_user)
    return MemoryScope(tenant_id=settings.CONSOLE_TENANT_ID, user_id=user.get_username())
