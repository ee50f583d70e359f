"""OpenID Connect sign-in through the platform's identity provider (mozilla-django-oidc).

The library does the protocol (authorization code + PKCE, token exchange, ID token signature
and nonce); this module adds what is ours:

- the provider's endpoints come from ``POCO_OIDC_ISSUER``'s discovery document, read on first
  use and kept per process (settings stay free of network calls), unless given explicitly;
- the memory scope comes from the two configured claims (``POCO_OIDC_TENANT_CLAIM``,
  ``POCO_OIDC_USER_CLAIM``) and is stored on the user (``OidcIdentity``); the user is found by
  (issuer, ``sub``) only, so no username or e-mail collision can join two subjects;
- a login without those claims, or whose scope already belongs to another subject, is refused
  with a page that says why;
- the periodic re-check at the provider (``SessionRefresh``) sends an HTMX request's whole page
  there instead of letting htmx swap the provider's page into a fragment.
"""

from __future__ import annotations

import hashlib
import logging
from typing import Any
from urllib.parse import urlsplit

import requests
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import ImproperlyConfigured, SuspiciousOperation
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import resolve_url
from django.urls import reverse
from django.utils.deprecation import MiddlewareMixin
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.generic import View
from django_htmx.http import HttpResponseClientRedirect
from mozilla_django_oidc.auth import OIDCAuthenticationBackend
from mozilla_django_oidc.middleware import SessionRefresh as LibrarySessionRefresh
from mozilla_django_oidc.utils import import_from_settings
from mozilla_django_oidc.views import (
    OIDCAuthenticationCallbackView,
    OIDCAuthenticationRequestView,
)

from accounts.models import OidcIdentity
from memories.scope import scope_of
from memories.types import MemoryScope, ScopeError

logger = logging.getLogger(__name__)

# Our setting name → the discovery document's key.
PROVIDER_ENDPOINTS = {
    "OIDC_OP_AUTHORIZATION_ENDPOINT": "authorization_endpoint",
    "OIDC_OP_TOKEN_ENDPOINT": "token_endpoint",
    "OIDC_OP_USER_ENDPOINT": "userinfo_endpoint",
    "OIDC_OP_JWKS_ENDPOINT": "jwks_uri",
    "OIDC_OP_END_SESSION_ENDPOINT": "end_session_endpoint",
}
_metadata: dict[str, dict[str, Any]] = {}

# Why a login was refused: the code travels in the session to the refusal page.
REFUSED_SESSION_KEY = "oidc_refused"
CLAIMS_MISSING = "claims_missing"
SCOPE_TAKEN = "scope_taken"
PROVIDER_UNREACHABLE = "provider_unreachable"
NOT_CONFIRMED = "not_confirmed"
# The provider's answers to a silent re-check (prompt=none) that just mean "sign in again".
SIGN_IN_AGAIN = {"login_required", "interaction_required", "consent_required"}
# JSON callers cannot follow a redirect to the provider: they keep their Django session.
NOT_REFRESHED_PREFIXES = ("/api/", "/v1/", "/mcp", "/metrics", "/health", "/static/")


class LoginRefused(SuspiciousOperation):
    """mozilla-django-oidc turns a SuspiciousOperation in user lookup into a failed login."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(detail)
        self.code = code


def provider_metadata(issuer: str) -> dict[str, Any]:
    """The issuer's discovery document, fetched once per process."""
    if issuer not in _metadata:
        response = requests.get(f"{issuer}/.well-known/openid-configuration", timeout=10)
        response.raise_for_status()
        document = response.json()
        if document.get("issuer", "").rstrip("/") != issuer:
            raise ImproperlyConfigured(
                f"the discovery document of {issuer} names another issuer: "
                f"{document.get('issuer')!r}"
            )
        _metadata[issuer] = document
    return _metadata[issuer]


def setting(attr: str, *default: Any) -> Any:
    """mozilla-django-oidc's ``get_settings``, with the provider's endpoints discovered."""
    if attr not in PROVIDER_ENDPOINTS:
        return import_from_settings(attr, *default)
    value = getattr(settings, attr, None)
    if value is None and settings.OIDC_ISSUER:
        value = provider_metadata(settings.OIDC_ISSUER).get(PROVIDER_ENDPOINTS[attr])
    return value


def _only_when_enabled() -> None:
    if not settings.OIDC_ENABLED:
        raise Http404("OpenID Connect sign-in is not configured")


def scope_from_claims(claims: dict[str, Any]) -> MemoryScope:
    """The configured claims, exactly; anything missing or unusable refuses the login."""
    parts = {}
    for field, claim in (
        ("tenant_id", settings.OIDC_TENANT_CLAIM),
        ("user_id", settings.OIDC_USER_CLAIM),
    ):
        value = claims.get(claim)
        if not isinstance(value, str) or not value:
            raise LoginRefused(CLAIMS_MISSING, f"the identity has no usable {claim!r} claim")
        parts[field] = value
    try:
        return scope_of(**parts)
    except ScopeError as exc:
        raise LoginRefused(CLAIMS_MISSING, str(exc)) from exc


def local_username(issuer: str, subject: str) -> str:
    """A username nobody types: local accounts can never be confused with IdP subjects."""
    digest = hashlib.sha256(f"{issuer}\0{subject}".encode()).hexdigest()[:32]
    return f"oidc-{digest}"


class Backend(OIDCAuthenticationBackend):
    """Finds or creates the Django user of one (issuer, subject) and keeps its scope."""

    get_settings = staticmethod(setting)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not (self.OIDC_OP_TOKEN_ENDPOINT and self.OIDC_OP_JWKS_ENDPOINT):
            raise ImproperlyConfigured("the identity provider has no token or JWKS endpoint")

    def verify_token(self, token: str, **kwargs: Any) -> dict[str, Any]:
        payload: dict[str, Any] = super().verify_token(token, **kwargs)
        # The library checks the signature and the nonce; the token must also be meant for
        # us, from the issuer we trust.
        audience = payload.get("aud")
        audiences = [audience] if isinstance(audience, str) else list(audience or [])
        if self.OIDC_RP_CLIENT_ID not in audiences:
            raise SuspiciousOperation("the ID token was issued for another client")
        if settings.OIDC_ISSUER and payload.get("iss", "").rstrip("/") != settings.OIDC_ISSUER:
            raise SuspiciousOperation("the ID token comes from another issuer")
        return payload

    def get_or_create_user(
        self, access_token: str, id_token: str, payload: dict[str, Any]
    ) -> AbstractBaseUser | None:
        try:
            return self._user_for(access_token, id_token, payload)
        except LoginRefused as refused:
            self.request.session[REFUSED_SESSION_KEY] = refused.code
            raise

    def _user_for(
        self, access_token: str, id_token: str, payload: dict[str, Any]
    ) -> AbstractBaseUser:
        claims = dict(payload)
        if self.OIDC_OP_USER_ENDPOINT:
            userinfo = self.get_userinfo(access_token, id_token, payload)
            if userinfo.get("sub") != payload.get("sub"):
                raise SuspiciousOperation("userinfo describes another subject")
            # The signed ID token wins where both speak.
            claims = {**userinfo, **payload}
        issuer = str(payload.get("iss") or settings.OIDC_ISSUER)
        subject = payload.get("sub")
        if not isinstance(subject, str) or not subject:
            raise LoginRefused(CLAIMS_MISSING, "the ID token has no subject")
        scope = scope_from_claims(claims)
        with transaction.atomic():
            identity = (
                OidcIdentity.objects.select_for_update()
                .select_related("user")
                .filter(issuer=issuer, subject=subject)
                .first()
            )
            self._check_scope_is_free(scope, issuer=issuer, subject=subject)
            if identity is None:
                # The username is this subject's alone, so an account left without its
                # identity (deleted in the admin) is this subject's account again.
                user, created = get_user_model().objects.get_or_create(
                    username=local_username(issuer, subject)
                )
                if created:
                    user.set_unusable_password()
                    user.save(update_fields=["password"])
                identity = OidcIdentity(user=user, issuer=issuer, subject=subject)
            identity.scope_tenant, identity.scope_user = scope.tenant_id, scope.user_id
            identity.save()
            email = claims.get("email")
            user = identity.user
            if isinstance(email, str) and getattr(user, "email", None) != email:
                user.email = email
                user.save(update_fields=["email"])
        return user

    def _check_scope_is_free(self, scope: MemoryScope, *, issuer: str, subject: str) -> None:
        other_subject = (
            OidcIdentity.objects.filter(scope_tenant=scope.tenant_id, scope_user=scope.user_id)
            .exclude(issuer=issuer, subject=subject)
            .exists()
        )
        # A local (development/demo) account's memory is CONSOLE_TENANT_ID + its username.
        local_account = (
            scope.tenant_id == settings.CONSOLE_TENANT_ID
            and get_user_model()
            .objects.filter(username=scope.user_id, oidc_identity__isnull=True)
            .exists()
        )
        if other_subject or local_account:
            raise LoginRefused(SCOPE_TAKEN, f"the memory {scope.key} belongs to another account")


class AuthenticateView(OIDCAuthenticationRequestView):
    """The "sign in with the platform account" button: off to the provider."""

    get_settings = staticmethod(setting)

    def __init__(self, **kwargs: Any) -> None:
        # The library reads the endpoint here, before dispatch could answer a provider outage.
        View.__init__(self, **kwargs)

    def get(self, request: HttpRequest) -> HttpResponse:
        _only_when_enabled()
        try:
            self.OIDC_OP_AUTH_ENDPOINT = setting("OIDC_OP_AUTHORIZATION_ENDPOINT")
        except (requests.RequestException, ValueError, ImproperlyConfigured):
            logger.exception("the identity provider's discovery document is unavailable")
            return refuse(request, PROVIDER_UNREACHABLE)
        self.OIDC_RP_CLIENT_ID = settings.OIDC_RP_CLIENT_ID
        response: HttpResponse = super().get(request)
        return response


class CallbackView(OIDCAuthenticationCallbackView):
    """The provider sends the browser back here with a code (or an error)."""

    get_settings = staticmethod(setting)

    def get(self, request: HttpRequest) -> HttpResponse:
        _only_when_enabled()
        # The library logs the user out on a provider error, and the page they were on with it.
        self.page_before = request.session.get("oidc_login_next")
        try:
            response: HttpResponse = super().get(request)
        except requests.RequestException:
            logger.exception("the identity provider did not answer the token exchange")
            return refuse(request, PROVIDER_UNREACHABLE)
        return response

    def login_failure(self) -> HttpResponse:
        if self.request.GET.get("error") in SIGN_IN_AGAIN:
            # A silent re-check found no session at the provider: sign in again, then come
            # back to the same page.
            if self.page_before:
                return redirect_to_login(self.page_before)
            return HttpResponseRedirect(resolve_url(settings.LOGIN_URL))
        code = self.request.session.pop(REFUSED_SESSION_KEY, NOT_CONFIRMED)
        return refuse(self.request, code)


def refuse(request: HttpRequest, code: str) -> HttpResponse:
    request.session[REFUSED_SESSION_KEY] = code
    return HttpResponseRedirect(reverse("oidc_refused"))


class SessionRefresh(LibrarySessionRefresh):
    """Re-checks an OIDC user at the provider every ``OIDC_RENEW_ID_TOKEN_EXPIRY_SECONDS``.

    The library sends a redirect to the provider (or a 403 JSON for ``X-Requested-With``
    requests). htmx sends neither that header nor follows a cross-site redirect usefully: its
    fetch would land on the provider's page and swap it into a fragment. An HTMX request gets
    ``HX-Redirect`` instead, so the whole page goes, and comes back to the page the user was on.
    Settings are read per request (tests and the live server switch OIDC on and off).
    """

    OIDC_EXEMPT_URLS: list[str] = []
    OIDC_STATE_SIZE = 32
    OIDC_NONCE_SIZE = 32
    OIDC_USE_NONCE = True
    OIDC_AUTHENTICATION_CALLBACK_URL = "oidc_authentication_callback"

    def __init__(self, get_response: Any) -> None:
        MiddlewareMixin.__init__(self, get_response)

    get_settings = staticmethod(setting)

    @property
    def OIDC_OP_AUTHORIZATION_ENDPOINT(self) -> str:  # noqa: N802 - the library's name
        return str(setting("OIDC_OP_AUTHORIZATION_ENDPOINT"))

    @property
    def OIDC_RP_CLIENT_ID(self) -> str:  # noqa: N802 - the library's name
        return str(settings.OIDC_RP_CLIENT_ID)

    @property
    def OIDC_RP_SCOPES(self) -> str:  # noqa: N802 - the library's name
        return str(settings.OIDC_RP_SCOPES)

    @property
    def exempt_urls(self) -> set[str]:
        return {
            reverse("oidc_authentication_init"),
            reverse("oidc_authentication_callback"),
            reverse("oidc_refused"),
            reverse("logout"),
        }

    def is_refreshable_url(self, request: HttpRequest) -> bool:
        return (
            settings.OIDC_ENABLED
            and not request.path.startswith(NOT_REFRESHED_PREFIXES)
            and bool(super().is_refreshable_url(request))
        )

    def process_request(self, request: HttpRequest) -> HttpResponse | None:
        response: HttpResponse | None = super().process_request(request)
        if response is None or request.headers.get("HX-Request") != "true":
            return response
        current = request.headers.get("HX-Current-URL", "")
        if current and url_has_allowed_host_and_scheme(current, allowed_hosts={request.get_host()}):
            parts = urlsplit(current)
            request.session["oidc_login_next"] = f"{parts.path}?{parts.query}".rstrip("?")
        return HttpResponseClientRedirect(response["Location"])
