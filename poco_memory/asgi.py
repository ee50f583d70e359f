"""The served app (``poco_memory.asgi:application``, run by uvicorn from the launcher): ``/mcp``
goes to the MCP endpoint (with the security headers Django's answers carry), everything else to
Django, on one server and port. Lifespan events go to the MCP app, whose session manager must
run for the server's lifetime (Django's handler has no lifespan)."""

from __future__ import annotations

import os
import warnings
from collections.abc import Awaitable, Callable
from typing import Any

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "poco_memory.settings")
# WhiteNoise 6.12 streams files through a synchronous iterator, which Django's ASGI handler
# consumes in a thread and warns about on every static file; the files are a few small ones.
warnings.filterwarnings(
    "ignore", message="StreamingHttpResponse must consume synchronous iterators"
)
django_application = get_asgi_application()

from django.conf import settings  # noqa: E402 - after setup, like the imports below

from infra.db import BoundedConnection  # noqa: E402

# A serving process never waits on PostgreSQL for longer than this for any one answer.
BoundedConnection.statement_timeout = settings.STATEMENT_TIMEOUT_SECONDS

from edges.mcp.http import MCP_PATH, mcp_application  # noqa: E402 - needs Django set up
from poco_memory.middleware import with_security_headers  # noqa: E402 - reads settings

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


application = route_mcp(mcp=with_security_headers(mcp_application()), django=django_application)
