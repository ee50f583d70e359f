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


def service_token_index(token: str) -> int | None:
    """Which configured service token this is, or None. Every edge that takes a service token
    (/v1, /mcp) checks it here, in constant time."""
    for index, valid in enumerate(settings.SERVICE_TOKENS):
        if hmac.compare_digest(token.encode(), valid.encode()):
            return index
    return None


@dataclass(frozen=True)
class ServiceCaller:
    """The agent platform calling us. Not a Django user; it acts for the scope in the body."""

    token_index: int
    is_authenticated: bool = True


class ServiceTokenAuthentication(BaseAuthentication):
    keyword = "Bearer"

    def authenticate(self, request: Request) -> tuple[ServiceCaller, str] | None:
        header = request.META.get("HTTP_AUTHORIZATION", "")
        if not header:
            return None
        keyword, _, token = header.partition(" ")
        if keyword != self.keyword or not token.strip():
            raise AuthenticationFailed("Authorization must be 'Bearer <token>'")
        token = token.strip()
        index = service_token_index(token)
        if index is None:
            raise AuthenticationFailed("invalid service token")
        return ServiceCaller(token_index=index), token

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
