"""The one error shape of both APIs, and the one place that maps failures onto it.

Every non-2xx answer under ``/v1/`` and ``/api/v1/user-customer-settings/`` that is not a
decided write/delete outcome has this body::

    {"success": false, "status": "<code>",
     "error": {"code": "<code>", "message": "<text>", "fields": {"<field>": ["<why>"]}}}

``status`` repeats the code so a client can read ``success``/``status`` from every body,
outcomes included. ``fields`` names each bad input field (nested for nested input) and is
``{}`` otherwise. DRF's errors reach :func:`exception_handler`; everything Django answers before
or around DRF (unknown URLs, oversized bodies, server errors, even with DEBUG on) passes
through :class:`ApiErrorMiddleware`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig, SuspiciousOperation
from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse, JsonResponse
from rest_framework import exceptions, status
from rest_framework.response import Response

from memories.ratelimits import RateLimited
from memories.types import (
    BackendError,
    CleanupError,
    MemoryForbidden,
    MemoryNotFound,
    ScopeError,
)

API_PREFIXES = ("/v1/", "/api/", "/mem0/")  # the user API, the Mem0 door, unknown API paths

# The code of every status either API can answer with an error body.
CODE_FOR_STATUS = {
    400: "invalid_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    406: "not_acceptable",
    413: "payload_too_large",
    415: "unsupported_media_type",
    429: "rate_limited",
    500: "server_error",
    503: "backend_error",
}
MESSAGES = {
    "invalid_request": "invalid input",
    "unauthorized": "authentication required",
    "forbidden": "this id belongs to another scope",
    "not_found": "not found",
    "method_not_allowed": "method not allowed",
    "payload_too_large": "request body too large",
    "unsupported_media_type": "send application/json",
    "rate_limited": "too many requests; retry after the seconds in Retry-After",
    "server_error": "internal error; nothing was reported as done",
    "backend_error": "the memory backend is unavailable; nothing was changed",
    "partial_cleanup": "the memory is gone but derived data could not be purged",
}

logger = logging.getLogger("django.request")


def error_body(code: str, message: str = "", fields: Any = None) -> dict[str, Any]:
    return {
        "success": False,
        "status": code,
        "error": {
            "code": code,
            "message": message or MESSAGES.get(code, code),
            "fields": fields or {},
        },
    }


def error_response(http_status: int, code: str, message: str = "") -> JsonResponse:
    return JsonResponse(error_body(code, message), status=http_status)


def _mapped(exc: Exception) -> tuple[int, str, str, Any] | None:
    """(HTTP status, code, message, fields) for an exception a view let through; None for a
    bug of ours (the middleware answers it with a logged 500)."""
    if isinstance(exc, MemoryNotFound):
        return 404, "not_found", "nothing with this id in this scope", {}
    if isinstance(exc, RateLimited):
        return 429, "rate_limited", str(exc), {}
    if isinstance(exc, MemoryForbidden):
        return 403, "forbidden", MESSAGES["forbidden"], {}
    if isinstance(exc, CleanupError):
        return 500, "partial_cleanup", MESSAGES["partial_cleanup"], {}
    if isinstance(exc, DatabaseError | BackendError):
        # PostgreSQL, the embedder or Mem0 failed: an outage, never a fake empty answer.
        return 503, "backend_error", MESSAGES["backend_error"], {}
    if isinstance(exc, ScopeError):
        return 400, "invalid_request", MESSAGES["invalid_request"], {"user_id": [str(exc)]}
    if isinstance(exc, exceptions.ValidationError):
        fields = exc.detail if isinstance(exc.detail, dict) else {"non_field_errors": exc.detail}
        return 400, "invalid_request", MESSAGES["invalid_request"], fields
    if isinstance(exc, exceptions.ParseError):
        return 400, "malformed_json", str(exc.detail), {}
    if isinstance(exc, exceptions.NotAuthenticated | exceptions.AuthenticationFailed):
        return 401, "unauthorized", str(exc.detail), {}
    if isinstance(exc, exceptions.APIException):
        code = CODE_FOR_STATUS.get(exc.status_code, str(exc.default_code))
        return exc.status_code, code, str(exc.detail), getattr(exc, "fields", {})
    return None


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's EXCEPTION_HANDLER for both APIs: domain errors and DRF's own, one shape."""
    mapped = _mapped(exc)
    if mapped is None:
        return None
    http_status, code, message, fields = mapped
    response = Response(error_body(code, message, fields), status=http_status)
    if isinstance(exc, RateLimited):
        response["Retry-After"] = str(exc.retry_after)
    if http_status == status.HTTP_401_UNAUTHORIZED:
        request = context.get("request")
        view = context.get("view")
        if view is not None and request is not None:
            header = view.get_authenticate_header(request)
            if header:
                response["WWW-Authenticate"] = header
    return response


def _is_json(response: HttpResponse) -> bool:
    content_type = response.get("Content-Type", "")
    return content_type.startswith("application/json") or "+json" in content_type


class ApiErrorMiddleware:
    """Answers API paths in JSON even where DRF never runs: unknown URLs and bad path ids
    (404), bodies over DATA_UPLOAD_MAX_MEMORY_SIZE (413), uncaught errors (500, also with
    DEBUG on). Pages outside the APIs are left to Django and the console's own handlers."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not request.path.startswith(API_PREFIXES):
            return self.get_response(request)
        if _declared_length(request) > settings.DATA_UPLOAD_MAX_MEMORY_SIZE:
            return error_response(413, "payload_too_large")
        response = self.get_response(request)
        if response.status_code >= 400 and not _is_json(response):
            code = CODE_FOR_STATUS.get(response.status_code, "error")
            replacement = error_response(response.status_code, code)
            if response.has_header("Allow"):
                replacement["Allow"] = response["Allow"]
            return replacement
        return response

    def process_exception(self, request: HttpRequest, exc: Exception) -> HttpResponse | None:
        if not request.path.startswith(API_PREFIXES):
            return None
        if isinstance(exc, RequestDataTooBig):
            return error_response(413, "payload_too_large")
        if isinstance(exc, SuspiciousOperation):
            return error_response(400, "invalid_request", "request refused")
        logger.error("Internal Server Error: %s", request.path, exc_info=exc)
        if isinstance(exc, CleanupError):
            return error_response(500, "partial_cleanup")
        if isinstance(exc, DatabaseError | BackendError):
            return error_response(503, "backend_error")
        return error_response(500, "server_error")


def _declared_length(request: HttpRequest) -> int:
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return 0
