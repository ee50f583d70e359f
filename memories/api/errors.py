"""One shape for every API error: ``{"error": code, "detail": text, "fields": {...}}``."""

from __future__ import annotations

from typing import Any

from django.db import DatabaseError
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from memories.types import BackendError, ScopeError


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, DatabaseError | BackendError):
        # PostgreSQL itself is unreachable: an outage, said as one (never a fake empty answer).
        body = {
            "error": "backend_unavailable",
            "detail": type(exc).__name__,
            "fields": {},
            "success": False,
            "status": "backend_error",
        }
        return Response(body, status=status.HTTP_503_SERVICE_UNAVAILABLE)
    if isinstance(exc, ScopeError):
        exc = exceptions.ValidationError({"user_id": [str(exc)]})
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        fields = exc.detail if isinstance(exc.detail, dict) else {"non_field_errors": exc.detail}
        response.data = {"error": "invalid_request", "detail": "invalid input", "fields": fields}
    elif isinstance(exc, exceptions.ParseError):
        response.data = {"error": "malformed_json", "detail": str(exc.detail), "fields": {}}
    elif isinstance(exc, exceptions.NotAuthenticated | exceptions.AuthenticationFailed):
        response.status_code = status.HTTP_401_UNAUTHORIZED
        response.data = {"error": "unauthorized", "detail": str(exc.detail), "fields": {}}
    else:
        code = getattr(exc, "default_code", "error")
        detail = getattr(exc, "detail", str(exc))
        response.data = {"error": code, "detail": str(detail), "fields": {}}
    return response
