"""What every /mem0 view shares: Mem0's ``Token`` header, the tenant, the error shape, and the
translation of a Mem0 call into the ``/v1`` input it means (validated by ``/v1``'s own
serializers, so the field rules, the scope check and the rate limits are ``/v1``'s)."""

from __future__ import annotations

from typing import Any

from rest_framework import exceptions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from edges.contract import errors
from edges.contract import serializers as io
from edges.contract.auth import IsServiceCaller, ServiceCaller, ServiceTokenAuthentication
from edges.contract.fields import StrictSerializer, StrictUUIDField
from edges.contract.outcomes import Edge, http_status
from edges.contract.parsers import query_params
from memories import selectors
from memories.ratelimits import RateKind, rate_check
from memories.types import SCOPE_PART, MemoryNotFound, MemoryScope

# The tenant, for a token that serves more than one (or every) tenant. A token bound to exactly
# one tenant needs no header; a header naming another tenant is refused like /v1's tenant_id.
TENANT_HEADER = "X-Poco-Tenant-Id"
_TENANT_META = "HTTP_" + TENANT_HEADER.upper().replace("-", "_")


class Mem0TokenAuthentication(ServiceTokenAuthentication):
    """The service token as Mem0's clients send it: ``Authorization: Token <token>``."""

    keyword = "Token"
    edge = "mem0"


class Refused(exceptions.ValidationError):
    """A Mem0 call this server cannot honour as asked (a filter, an option): 400 with Mem0's
    ``detail`` saying what to change, so nothing is silently widened or dropped."""

    def __init__(self, message: str, field: str = "non_field_errors") -> None:
        super().__init__({field: [message]})
        self.message = message


class NotSupported(exceptions.APIException):
    status_code = 501
    default_code = "not_supported"


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """``/v1``'s mapping of every failure (status, code, headers), answered in Mem0's shape:
    ``detail`` is what the client turns into its exception's message; ``error`` is /v1's."""
    response = errors.exception_handler(exc, context)
    if response is None:
        return None
    error = response.data["error"]
    detail = exc.message if isinstance(exc, Refused) else error["message"]
    if error["fields"] and not isinstance(exc, Refused):
        detail = f"{detail}: {_flat(error['fields'])}"
    response.data = {"detail": detail, "error": error}
    return response


def _flat(fields: Any, prefix: str = "") -> str:
    if isinstance(fields, dict):
        return "; ".join(_flat(value, f"{prefix}{key}.") for key, value in fields.items())
    if isinstance(fields, list) and all(isinstance(item, str) for item in fields):
        return f"{prefix.rstrip('.')}: {' '.join(fields)}"
    if isinstance(fields, list):
        return "; ".join(_flat(item, f"{prefix}{i}.") for i, item in enumerate(fields) if item)
    return f"{prefix.rstrip('.')}: {fields}"


class Mem0View(APIView):
    authentication_classes = [Mem0TokenAuthentication]
    permission_classes = [IsServiceCaller]
    # The query string, one value per name (``initial`` refuses a name sent twice).
    params: dict[str, str] = {}

    def get_exception_handler(self) -> Any:
        return exception_handler

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        """Every route, once the caller is known: a query parameter sent twice is a 400 naming
        it, never read as its last value (``?user_id=other&user_id=victim``)."""
        super().initial(request, *args, **kwargs)
        self.params = query_params(request)
        # The tenant is checked before anything is looked up in it: an id of a tenant the token
        # cannot serve and a random one are then refused alike (recorded, counted, 403).
        if request.META.get(_TENANT_META):
            self.caller().check_tenant(self.tenant())

    def caller(self) -> ServiceCaller:
        caller = self.request.user
        assert isinstance(caller, ServiceCaller), "IsServiceCaller guards every /mem0 view"
        return caller

    def tenant(self) -> str:
        """The tenant of the call: the token's one tenant, or the ``X-Poco-Tenant-Id`` header
        (never a body field a model could set). ``ServiceCaller.scope`` checks it."""
        named = self.request.META.get(_TENANT_META, "")
        if named:
            if not SCOPE_PART.match(named):
                raise Refused(f"{TENANT_HEADER} must be 1-64 of A-Z a-z 0-9 _ . @ + -")
            return str(named)
        tenants = self.caller().token.tenants
        if tenants is not None and len(tenants) == 1:
            return next(iter(tenants))
        if tenants is not None and not tenants:  # a token bound to no tenant (a scraper's)
            self.caller().check_tenant("")
        raise Refused(
            f"this token serves more than one tenant: name one in the {TENANT_HEADER} header"
        )

    def v1_input(
        self, serializer: type[io.ScopeInput], data: dict[str, Any], *, rate: RateKind | None
    ) -> tuple[MemoryScope, dict[str, Any], io.ScopeInput]:
        """``data`` (a /v1 body without the tenant) validated by the /v1 ``serializer``, the
        scope built by ``ServiceCaller.scope`` and the call counted as /v1 counts it."""
        form = serializer(
            data={"tenant_id": self.tenant(), **data}, context={"caller": self.caller()}
        )
        form.is_valid(raise_exception=True)
        scope = form.scope()
        if rate is not None:
            self.count(rate, scope)
        return scope, dict(form.validated_data), form

    def count(self, rate: RateKind, scope: MemoryScope) -> None:
        rate_check(kind=rate, scope=scope, token=self.caller().actor.id)

    def owner(self, memory_id: Any, *, named_user: str = "", deleted_too: bool = False) -> str:
        """The user whose memory ``memory_id`` is, within the call's tenant: Mem0's by-id calls
        name no user. ``named_user`` (an optional ``user_id`` parameter) is taken as given, so
        the service answers another user's id with 403 as /v1 does. ``deleted_too``: a deleted
        memory's owner comes from its audit trail (for its history)."""
        memory_id = StrictUUIDField().run_validation(memory_id)
        if named_user:
            return named_user
        owner = selectors.memory_owner(tenant_id=self.tenant(), memory_id=memory_id)
        if owner is None and deleted_too:
            owner = selectors.memory_former_owner(tenant_id=self.tenant(), memory_id=memory_id)
        if owner is None:
            raise MemoryNotFound(memory_id)
        return owner

    def named_user(self) -> str:
        """The optional ``user_id`` query parameter of a by-id call ("" when absent)."""
        return self.params.get("user_id", "")

    def memory_input(
        self,
        memory_id: Any,
        *,
        named_user: str = "",
        deleted_too: bool = False,
        rate: RateKind | None = None,
    ) -> tuple[MemoryScope, dict[str, Any]]:
        """The scope and validated /v1 by-id input of one memory, the scope its ``owner``."""
        owner = self.owner(memory_id, named_user=named_user, deleted_too=deleted_too)
        scope, valid, _ = self.v1_input(
            io.MemoryIdInput, {"user_id": owner, "memory_id": memory_id}, rate=rate
        )
        return scope, valid


class Mem0Input(StrictSerializer):
    """Mem0's body: unknown fields are refused by name, never ignored, except ``accepted``
    ones that cannot change what is stored or returned (e.g. ``fields``, an answer projection:
    a field name a serializer cannot declare)."""

    accepted: tuple[str, ...] = ()

    def read(self, data: Any) -> dict[str, Any]:
        if not isinstance(data, dict):
            raise serializers.ValidationError({"non_field_errors": ["a JSON object is required"]})
        self.initial_data = {k: v for k, v in data.items() if k not in self.accepted}
        self.is_valid(raise_exception=True)
        return dict(self.validated_data)


def json_field(**kwargs: Any) -> serializers.JSONField:
    """A Mem0 field of any JSON, optional: each view reads it and refuses what it cannot honour."""
    return serializers.JSONField(required=False, allow_null=True, **kwargs)


def failure_response(status: str, reason: str | None) -> Response:
    """A decided outcome that is not a success, with the user API's HTTP status."""
    code = http_status(status, Edge.USER_API)
    message = f"{status}: {reason}" if reason else status
    return Response({"detail": message, "error": errors.error_body(status, message)["error"]}, code)


def entity_id(data: dict[str, Any], filters: Any, name: str) -> str:
    """An entity id Mem0 lets a caller send at the top level or inside ``filters``."""
    value = data.get(name)
    if isinstance(filters, dict) and filters.get(name) is not None:
        if value is not None and value != filters[name]:
            raise Refused(f"two different {name} values", name)
        value = filters[name]
    if value is not None and not isinstance(value, str):
        raise Refused(f"{name} must be a string", name)
    return value or ""
