"""A real OpenID Connect provider for the tests: oidc-provider-mock in a thread on a free port.

Users and their claims are set through its API (``PUT /users/<sub>``); it signs ID tokens,
serves discovery, JWKS, userinfo and an end_session endpoint, and accepts any client id.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from urllib.parse import quote

import httpx
import oidc_provider_mock
from django.test import override_settings

from accounts import oidc
from poco_memory.settings import CONTENT_SECURITY_POLICY, csp_with_provider

CLIENT_ID = "poco-memory-test"
CLIENT_SECRET = "poco-memory-test-secret"  # noqa: S105 - the mock accepts any secret


@dataclass(frozen=True)
class Provider:
    issuer: str

    def set_user(self, sub: str, claims: dict[str, object]) -> None:
        response = httpx.put(f"{self.issuer}/users/{quote(sub, safe='')}", json=claims)
        response.raise_for_status()


@contextmanager
def running_provider() -> Iterator[Provider]:
    # The mock refuses plain http unless told: it only ever listens on localhost here.
    os.environ["AUTHLIB_INSECURE_TRANSPORT"] = "1"
    with oidc_provider_mock.run_server_in_thread() as server:
        yield Provider(issuer=f"http://localhost:{server.server_port}")


@contextmanager
def oidc_configured(provider: Provider) -> Iterator[None]:
    """The settings ``POCO_OIDC_*`` would give, pointing at ``provider``."""
    oidc._metadata.clear()
    with override_settings(
        OIDC_ENABLED=True,
        OIDC_ISSUER=provider.issuer,
        OIDC_RP_CLIENT_ID=CLIENT_ID,
        OIDC_RP_CLIENT_SECRET=CLIENT_SECRET,
        OIDC_TENANT_CLAIM="tenant",
        OIDC_USER_CLAIM="preferred_username",
        OIDC_VERIFY_KID=False,  # the mock signs with its one key and names none
        AUTHENTICATION_BACKENDS=[
            "axes.backends.AxesStandaloneBackend",
            "django.contrib.auth.backends.ModelBackend",
            "accounts.oidc.Backend",
        ],
        CONTENT_SECURITY_POLICY=csp_with_provider(CONTENT_SECURITY_POLICY, provider.issuer),
    ):
        yield
    oidc._metadata.clear()
