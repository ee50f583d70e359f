"""Service-token authentication for the internal /v1 API."""

from __future__ import annotations

import hmac
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework.authentication import BaseAuthentication
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.views import APIView

from memories import metrics
from memories.types import Actor, ActorKind
from poco_memory import service_tokens


def service_token_name(token: str, *, edge: str) -> str | None:
    """The name of the configured service token ``token`` is, or None. Every edge that takes a
    service token (/v1, /mcp, /metrics) checks it here: in constant time, comparing against
    every configured token (no early exit), and counting the call by name and edge."""
    found = None
    for configured in service_tokens.parsed(tuple(settings.SERVICE_TOKENS)):
        if hmac.compare_digest(token.encode(), configured.secret.encode()) and found is None:
            found = configured.name
    if found is not None:
        metrics.service_calls.labels(found, edge).inc()
    return found


@dataclass(frozen=True)
class ServiceCaller:
    """The agent platform calling us. Not a Django user; it acts for the scope in the body."""

    token_name: str
    is_authenticated: bool = True

    @property
    def actor(self) -> Actor:
        """Who the audit trail says acted: the token's name, never the token."""
        return Actor(kind=ActorKind.AGENT, id=self.token_name)


class ServiceTokenAuthentication(BaseAuthentication):
    keyword = "Bearer"
    edge = "v1"

    def authenticate(self, request: Request) -> tuple[ServiceCaller, str] | None:
        header = request.META.get("HTTP_AUTHORIZATION", "")
        if not header:
            return None
        keyword, _, token = header.partition(" ")
        if keyword != self.keyword or not token.strip():
            raise AuthenticationFailed("Authorization must be 'Bearer <token>'")
        token = token.strip()
        name = service_token_name(token, edge=self.edge)
        if name is None:
            raise AuthenticationFailed("invalid service token")
        return ServiceCaller(token_name=name), token

    def authenticate_header(self, request: Request) -> str:
        return self.keyword


class ServiceTokenScheme(OpenApiAuthenticationExtension):
    """Publishes the service token in /v1/schema as HTTP bearer auth (registered on import)."""

    target_class = ServiceTokenAuthentication
    name = "serviceToken"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {"type": "http", "scheme": "bearer"}


class IsServiceCaller(BasePermission):
    def has_permission(self, request: Request, view: APIView) -> bool:
        return isinstance(request.user, ServiceCaller)
