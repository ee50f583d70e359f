"""Mem0's platform calls, one view per path, each answered by the service ``/v1`` uses.

A view reads Mem0's input, translates it into the ``/v1`` input it means (``Mem0View.v1_input``
validates that with ``/v1``'s serializer and builds the scope there), calls one service or
selector, and answers in Mem0's shape (``edges.mem0_api.shapes``). A decided outcome that
is not a success answers the user API's status for it (``edges.contract.outcomes``): 400 for a
rejected text, 404 for an unknown id, 403 for another user's, 503 for an outage.

The views by subject: ``add`` (add and its events), ``reads`` (``get_all`` and search),
``memory`` (one memory by id, batches, feedback), ``users`` (``delete_all``, the tenant's users);
here the server itself (ping) and what only the hosted platform has.
"""

from __future__ import annotations

from typing import Any

from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from edges.mem0_api import schema as doc
from edges.mem0_api.edge import Mem0View, NotSupported, Refused

ORG_ID = "poco-memory"  # one organisation: this server


# --- ping -------------------------------------------------------------------------------------
class PingView(Mem0View):
    """The client checks its key here when it is built, and needs an org and a project id
    (``mem0/client/project.py``): the project is the tenant the calls will act for; project
    operations themselves answer 501."""

    @doc.mem0_operation(
        operation_id="mem0_ping",
        summary="Check the token (the client does at construction)",
        ok=doc.PingOut,
    )
    def get(self, request: Request) -> Response:
        try:
            project = self.tenant()
        except Refused:  # a token for several tenants, no header: every call names one
            project = "unbound"
        return Response(
            {
                "status": "ok",
                "message": "API key is valid",
                "org_id": ORG_ID,
                "project_id": project,
                "user_email": None,
            }
        )


# --- what only the hosted platform has --------------------------------------------------------
class NotSupportedView(Mem0View):
    """Profiles, webhooks, projects, exports, summaries: the hosted platform's own.
    501 with a ``detail`` the client raises as its error (no token needed to hear it)."""

    authentication_classes: list[Any] = []
    permission_classes = [AllowAny]

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        # No caller is known here (no authentication), so no tenant is checked: a token and an
        # ``X-Poco-Tenant-Id`` header hear the same 501 as an anonymous call.
        APIView.initial(self, request, *args, **kwargs)

    def _refuse(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        raise NotSupported(
            f"not supported by this server: {request.method} {request.path} is a feature of "
            "Mem0's hosted platform (docs/mem0-compat.md lists what is supported)"
        )

    get = post = put = patch = delete = _refuse
