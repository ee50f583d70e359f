"""Who a user signed in through the identity provider is, and which memory is theirs; which
service token was refused a tenant it is not bound to."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models.functions import Now
from django.utils.translation import gettext_lazy as _


class OidcIdentity(models.Model):
    """One IdP subject = one Django user = one memory scope.

    The user is found by (issuer, subject), never by a username or an e-mail address, so two
    subjects cannot meet in one account; and one scope belongs to one subject only.
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="oidc_identity",
        verbose_name=_("用户"),
    )
    issuer = models.CharField(_("身份提供方"), max_length=255)
    subject = models.CharField(_("主体标识"), max_length=255)
    scope_tenant = models.CharField(_("记忆租户"), max_length=64)
    scope_user = models.CharField(_("记忆用户"), max_length=64)
    created_at = models.DateTimeField(_("创建时间"), auto_now_add=True)
    last_login_at = models.DateTimeField(_("最近登录"), auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["issuer", "subject"], name="oidc_identity_subject"),
            models.UniqueConstraint(
                fields=["scope_tenant", "scope_user"], name="oidc_identity_scope"
            ),
        ]
        verbose_name = _("登录身份")
        verbose_name_plural = _("登录身份")

    def __str__(self) -> str:
        return f"{self.scope_tenant}:{self.scope_user} ({self.issuer} {self.subject})"


class TokenRefusal(models.Model):
    """A service token bound to tenants that asked for another tenant (or for ``/metrics``,
    which spans every tenant): the token's name, never the token; the tenant it asked for, never
    a user or any memory text. Written by ``accounts.services.token_refusal_record``."""

    token_name = models.CharField(_("令牌"), max_length=64)
    tenant_id = models.CharField(_("租户"), max_length=64, blank=True, default="")
    edge = models.CharField(_("入口"), max_length=16)
    created_at = models.DateTimeField(_("时间"), db_default=Now(), db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("令牌越权拒绝")
        verbose_name_plural = _("令牌越权拒绝")

    def __str__(self) -> str:
        return f"{self.token_name} → {self.tenant_id or '*'} ({self.edge})"
