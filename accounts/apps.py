from __future__ import annotations

from django.apps import AppConfig
from django.contrib.admin import apps as admin_apps
from django.core import checks

from accounts.checks import service_token_reach


class AccountsConfig(AppConfig):
    """Sign-in: OpenID Connect identities, failed-login lockout, staff second factor."""

    default = True
    name = "accounts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        checks.register(service_token_reach)


class StaffAdminConfig(admin_apps.AdminConfig):
    """django.contrib.admin whose site can require a staff second factor."""

    default = False  # `accounts` itself is AccountsConfig
    default_site = "accounts.admin_site.StaffAdminSite"
