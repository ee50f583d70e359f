"""The console's navigation: how many memories agents learned lately wait for the user's look
(the count beside "概览", where "最近记住的" lists them)."""

from __future__ import annotations

from typing import Any

from django import template

from memories import selectors
from memories.scope import scope_for_user
from memories.types import ScopeError

register = template.Library()


@register.simple_tag(takes_context=True)
def unreviewed_count(context: dict[str, Any]) -> int:
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return 0
    try:
        scope = scope_for_user(user)
    except ScopeError:
        return 0
    return selectors.unreviewed_count(scope=scope)
