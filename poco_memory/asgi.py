"""The served app (``poco_memory.asgi:application``): ``/mcp`` goes to the MCP endpoint,
everything else to Django, on one server and port. Lifespan events go to the MCP app, whose
session manager must run for the server's lifetime (Django's handler has no lifespan)."""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable
from typing import Any

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "poco_memory.settings")
django_application = get_asgi_application()

from memories.mcp.http import MCP_PATH, mcp_application  # noqa: E402 - needs Django set up

# Django's and Starlette's ASGI signatures differ only in how they spell the dicts.
App = Callable[[Any, Any, Any], Awaitable[None]]


def route_mcp(*, mcp: App, django: App) -> App:
    async def app(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            await mcp(scope, receive, send)
            return
        path = scope.get("path", "")
        target = mcp if path == MCP_PATH or path.startswith(MCP_PATH + "/") else django
        await target(scope, receive, send)

    return app


application = route_mcp(mcp=mcp_application(), django=django_application)
