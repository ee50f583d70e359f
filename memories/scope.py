"""Building a scope at the edge: from a service call's body or from the signed-in user."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

from memories.types import MemoryScope


def scope_for_user(user: AbstractBaseUser | AnonymousUser) -> MemoryScope:
    """The signed-in user's own memory; nothing the browser sends can widen it."""
    if not user.is_authenticated:
        raise PermissionError("anonymous users have no memory")
    return MemoryScope(tenant_id=settings.CONSOLE_TENANT_ID, user_id=user.get_username())
