"""Who a user signed in through the identity provider is, and which memory is theirs."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class OidcIdentity(models.Model):
    """One IdP subject = one Django user = one memory scope.

    The user is found by (issuer, subject), never by a username or an e-mail address, so two
    subjects cannot meet in one account; and one scope belongs to one subject only.
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="oidc_identity"
    )
    issuer = models.CharField(max_length=255)
    subject = models.CharField(max_length=255)
    scope_tenant = models.CharField(max_length=64)
    scope_user = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)
    last_login_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["issuer", "subject"], name="oidc_identity_subject"),
            models.UniqueConstraint(
                fields=["scope_tenant", "scope_user"], name="oidc_identity_scope"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.scope_tenant}:{self.scope_user} ({self.issuer} {self.subject})"
