"""Staff can see which platform subject holds which memory scope (the sign-in writes it) and
which service token was refused which tenant (the API edges write it)."""

from __future__ import annotations

from typing import Any

from axes.admin import AccessAttemptAdmin, IsLockedOutFilter
from axes.conf import settings as axes_settings
from axes.models import AccessAttempt
from django.contrib import admin
from django.http import HttpRequest
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django_otp.plugins.otp_totp.admin import TOTPDeviceAdmin
from django_otp.plugins.otp_totp.models import TOTPDevice

from accounts.models import OidcIdentity, TokenRefusal
from poco_memory.app_labels import relabel_actions


@admin.register(OidcIdentity)
class OidcIdentityAdmin(admin.ModelAdmin):
    list_display = ["scope_tenant", "scope_user", "issuer", "subject", "last_login_at"]
    search_fields = ["scope_tenant", "scope_user", "subject"]
    readonly_fields = [f.name for f in OidcIdentity._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(TokenRefusal)
class TokenRefusalAdmin(admin.ModelAdmin):
    list_display = ["created_at", "token_name", "tenant_id", "edge"]
    list_filter = ["edge", "token_name"]
    search_fields = ["token_name", "tenant_id"]
    readonly_fields = [f.name for f in TokenRefusal._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


# --- the sign-in apps' own admin pages, their columns and filters named in words --------------
class LockedOutFilter(IsLockedOutFilter):
    title = _("是否已锁定")

    def lookups(self, request: HttpRequest, model_admin: Any) -> tuple[tuple[str, Any], ...]:
        return (("yes", _("是")), ("no", _("否")))


class AccessAttemptLabelsAdmin(AccessAttemptAdmin):
    list_filter = [
        LockedOutFilter if f is IsLockedOutFilter else f for f in AccessAttemptAdmin.list_filter
    ]

    @admin.display(description=_("到期时间"))
    def expiration(self, obj: AccessAttempt) -> Any:
        return super().expiration(obj)

    @admin.display(description=_("状态"))
    def status(self, obj: AccessAttempt) -> str:
        remaining = axes_settings.AXES_FAILURE_LIMIT - obj.failures_since_start
        if remaining > 0:
            return gettext("还可尝试 %(n)d 次") % {"n": remaining}
        return gettext("已锁定")

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        labels = {"cleanup_expired_attempts": _("清理已到期的登录尝试")}
        return relabel_actions(super().get_actions(request), labels)


class TotpDeviceLabelsAdmin(TOTPDeviceAdmin):
    @admin.display(description=_("二维码"))
    def qrcode_link(self, device: TOTPDevice) -> Any:
        return super().qrcode_link(device)


if admin.site.is_registered(AccessAttempt):
    admin.site.unregister(AccessAttempt)
    admin.site.register(AccessAttempt, AccessAttemptLabelsAdmin)
if admin.site.is_registered(TOTPDevice):
    admin.site.unregister(TOTPDevice)
    admin.site.register(TOTPDevice, TotpDeviceLabelsAdmin)
