"""POCO_OIDC_* from the environment: explicit about the scope claims, no network at import."""

from __future__ import annotations

import subprocess

from tests.processes import settings_process

PRINT = (
    "from django.conf import settings as s; "
    "print(s.OIDC_ENABLED, s.AUTHENTICATION_BACKENDS[-1], s.CONTENT_SECURITY_POLICY)"
)
# An issuer nothing listens on: importing the settings must not try to reach it.
OIDC = {
    "POCO_OIDC_CLIENT_ID": "poco",
    "POCO_OIDC_CLIENT_SECRET": "secret",
    "POCO_OIDC_ISSUER": "https://id.example.invalid/realms/platform",
    "POCO_OIDC_TENANT_CLAIM": "tenant",
    "POCO_OIDC_USER_CLAIM": "sub",
}


def load(**env: str) -> subprocess.CompletedProcess[str]:
    return settings_process(PRINT, **env)


def test_off_without_a_client_id():
    result = load()
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("False django.contrib.auth.backends.ModelBackend ")


def test_on_with_a_client_and_the_provider_allowed_as_form_target():
    result = load(**OIDC)
    assert result.returncode == 0, result.stderr
    enabled, backend, policy = result.stdout.strip().split(" ", 2)
    assert (enabled, backend) == ("True", "accounts.oidc.Backend")
    assert "form-action 'self' https://id.example.invalid;" in policy


def test_the_scope_claims_must_be_configured():
    result = load(**{**OIDC, "POCO_OIDC_TENANT_CLAIM": ""})
    assert result.returncode != 0
    assert "POCO_OIDC_TENANT_CLAIM and POCO_OIDC_USER_CLAIM" in result.stderr


def test_the_provider_must_be_named():
    result = load(**{**OIDC, "POCO_OIDC_ISSUER": ""})
    assert result.returncode != 0
    assert "POCO_OIDC_ISSUER or the authorization, token and JWKS endpoints" in result.stderr
