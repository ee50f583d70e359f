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
from infra.app_labels import relabel_actions


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


# django-otp explains its fields in English only; said here in the page's language (set on the
# form, not the model, so no migration of the app follows).
TOTP_HELP = {
    "user": _("这个设备属于哪位员工。"),
    "name": _("便于识别的设备名称。"),
    "confirmed": _("这个设备是否已可使用。"),
    "key": _("十六进制编码的密钥，最多 40 字节。"),
    "step": _("一个验证码有效的秒数。"),
    "t0": _("开始计算时间步的 Unix 时间。"),
    "digits": _("验证码的位数。"),
    "tolerance": _("允许前后偏差的时间步数。"),
    "drift": _("这个设备的时钟与服务器相差的时间步数。"),
    "last_t": _("最近一次验证通过的时间步；下一个验证码必须更晚。"),
    "throttling_failure_timestamp": _("最近一次验证失败的时间。"),
    "throttling_failure_count": _("连续验证失败的次数。"),
    "created_at": _("设备首次创建的时间。"),
    "last_used_at": _("设备最近一次使用的时间。"),
}


class TotpDeviceLabelsAdmin(TOTPDeviceAdmin):
    @admin.display(description=_("二维码"))
    def qrcode_link(self, device: TOTPDevice) -> Any:
        return super().qrcode_link(device)

    def formfield_for_dbfield(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        field = super().formfield_for_dbfield(db_field, request, **kwargs)
        if field is not None and db_field.name in TOTP_HELP:
            field.help_text = TOTP_HELP[db_field.name]
        return field


if admin.site.is_registered(AccessAttempt):
    admin.site.unregister(AccessAttempt)
    admin.site.register(AccessAttempt, AccessAttemptLabelsAdmin)
if admin.site.is_registered(TOTPDevice):
    admin.site.unregister(TOTPDevice)
    admin.site.register(TOTPDevice, TotpDeviceLabelsAdmin)
