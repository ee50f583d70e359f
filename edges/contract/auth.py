"""Service-token authentication for the internal /v1 API, and the tenant check of every door
that takes a service token (/v1, /mcp, /metrics)."""

from __future__ import annotations

import hmac
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework.authentication import BaseAuthentication
from rest_framework.exceptions import AuthenticationFailed, PermissionDenied
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.views import APIView

from accounts.services import token_refusal_record
from infra import service_tokens
from infra.service_tokens import ServiceToken
from memories import metrics
from memories.scope import scope_for_caller
from memories.types import Actor, ActorKind, MemoryScope


def service_token(token: str, *, edge: str) -> ServiceToken | None:
    """The configured service token ``token`` is, or None. Every edge that takes a service
    token (/v1, /mcp, /metrics, /ready) checks it here: in constant time, comparing against
    every configured token (no early exit), and counting the call by name and edge."""
    found = None
    for configured in service_tokens.parsed(tuple(settings.SERVICE_TOKENS)):
        if hmac.compare_digest(token.encode(), configured.secret.encode()) and found is None:
            found = configured
    if found is not None:
        metrics.service_calls.labels(found.name, edge).inc()
    return found


class TenantRefused(PermissionDenied):
    """A token bound to tenants asked for another one (403 in the one error shape). Raised
    after the refusal is recorded; ``tenant_id`` is "" for what spans every tenant."""

    def __init__(self, *, token_name: str, tenant_id: str, edge: str) -> None:
        what = f"tenant {tenant_id!r}" if tenant_id else "what spans every tenant"
        super().__init__(f"this service token may not act for {what}")
        self.token_name = token_name
        self.tenant_id = tenant_id
        self.edge = edge


def refuse(*, token_name: str, tenant_id: str, edge: str) -> TenantRefused:
    """Record the refusal (accounts.TokenRefusal, a counter, a log line) and return the
    exception to raise. Needs the database: call it from sync code."""
    token_refusal_record(token_name=token_name, tenant_id=tenant_id, edge=edge)
    return TenantRefused(token_name=token_name, tenant_id=tenant_id, edge=edge)


@dataclass(frozen=True)
class ServiceCaller:
    """The agent platform calling us through ``edge`` with ``token``. Not a Django user; it acts
    for the scope it names, if its token serves that tenant."""

    token: ServiceToken
    edge: str
    is_authenticated: bool = True

    @property
    def token_name(self) -> str:
        return self.token.name

    @property
    def actor(self) -> Actor:
        """Who the audit trail says acted: the token's name, never the token."""
        return Actor(kind=ActorKind.AGENT, id=self.token.name)

    def scope(self, *, tenant_id: str, user_id: str) -> MemoryScope:
        """The scope a request names, built here for every door: a token bound to tenants is
        refused (recorded, then TenantRefused) for any other tenant."""
        return scope_for_caller(self, tenant_id=tenant_id, user_id=user_id)

    def check_tenant(self, tenant_id: str) -> None:
        """For what spans one tenant's users (``/mem0``'s entity list): refused as ``scope``."""
        if not self.token.serves(tenant_id):
            raise refuse(token_name=self.token.name, tenant_id=tenant_id, edge=self.edge)

    def check_operator(self) -> None:
        """For what spans every tenant (/metrics): a token bound to tenants is refused."""
        if not self.token.operator:
            raise refuse(token_name=self.token.name, tenant_id="", edge=self.edge)


class ServiceTokenAuthentication(BaseAuthentication):
    keyword = "Bearer"
    edge = "v1"

    def authenticate(self, request: Request) -> tuple[ServiceCaller, str] | None:
        header = request.META.get("HTTP_AUTHORIZATION", "")
        if not header:
            return None
        keyword, _, token = header.partition(" ")
        if keyword != self.keyword or not token.strip():
            raise AuthenticationFailed(f"Authorization must be '{self.keyword} <token>'")
        token = token.strip()
        found = service_token(token, edge=self.edge)
        if found is None:
            raise AuthenticationFailed("invalid service token")
        return ServiceCaller(token=found, edge=self.edge), token

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
