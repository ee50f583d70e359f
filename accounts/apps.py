from __future__ import annotations

from axes.apps import AppConfig as AxesAppConfig
from django.apps import AppConfig
from django.contrib.admin import apps as admin_apps
from django.core import checks
from django.utils.translation import gettext_lazy as _
from django_otp.plugins.otp_totp.apps import DefaultConfig as TotpAppConfig

from accounts.checks import service_token_reach
from infra.app_labels import Labels, RelabelledApp

_ACCESS = {
    "user_agent": _("浏览器标识"),
    "ip_address": _("IP 地址"),
    "username": _("用户名"),
    "http_accept": _("HTTP Accept 头"),
    "path_info": _("路径"),
    "attempt_time": _("尝试时间"),
}


class AccountsConfig(AppConfig):
    """Sign-in: OpenID Connect identities, failed-login lockout, staff second factor."""

    default = True
    name = "accounts"
    verbose_name = _("账号与登录")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        checks.register(service_token_reach)


class StaffAdminConfig(admin_apps.AdminConfig):
    """django.contrib.admin whose site can require a staff second factor."""

    default = False  # `accounts` itself is AccountsConfig
    default_site = "accounts.admin_site.StaffAdminSite"


class AxesConfig(RelabelledApp, AxesAppConfig):
    """django-axes (failed sign-in lockout), its tables named in the page's language."""

    default = False
    verbose_name = _("登录锁定")
    labels: Labels = {
        "accessattempt": (
            _("登录尝试"),
            _("登录尝试"),
            {
                **_ACCESS,
                "get_data": _("GET 数据"),
                "post_data": _("POST 数据"),
                "failures_since_start": _("失败次数"),
            },
        ),
        "accesslog": (
            _("登录记录"),
            _("登录记录"),
            {**_ACCESS, "logout_time": _("退出时间"), "session_hash": _("会话哈希")},
        ),
        "accessfailurelog": (
            _("登录失败"),
            _("登录失败"),
            {**_ACCESS, "locked_out": _("已锁定")},
        ),
        "accessattemptexpiration": (
            _("登录尝试到期"),
            _("登录尝试到期"),
            {"access_attempt": _("登录尝试"), "expires_at": _("到期时间")},
        ),
    }


class OtpTotpConfig(RelabelledApp, TotpAppConfig):
    """django-otp's TOTP devices (the staff second factor), named in the page's language."""

    default = False
    verbose_name = _("两步验证")
    labels: Labels = {
        "totpdevice": (
            _("TOTP 设备"),
            _("TOTP 设备"),
            {
                "user": _("用户"),
                "name": _("名称"),
                "confirmed": _("已确认"),
                "created_at": _("创建时间"),
                "last_used_at": _("最近使用时间"),
                "key": _("密钥"),
                "step": _("时间步长"),
                "t0": _("起始时间"),
                "digits": _("位数"),
                "tolerance": _("容差"),
                "drift": _("时钟偏差"),
                "last_t": _("最近验证的时间步"),
                "throttling_failure_timestamp": _("最近失败时间"),
                "throttling_failure_count": _("连续失败次数"),
            },
        ),
    }
