"""The admin site, with a second factor for staff when ``POCO_ADMIN_REQUIRE_2FA`` is on."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.admin import AdminSite
from django.http import HttpRequest
from django_otp.admin import OTPAdminAuthenticationForm, OTPAdminSite

# What staff come for first: the memories, then the write pipeline; sign-in and the queue after.
FIRST_APPS = ("memories", "lifecycle")


class StaffAdminSite(AdminSite):
    """Django's admin; with the setting on, like django-otp's ``OTPAdminSite``: the login
    form asks for a one-time code and only a session verified by a device counts as staff.
    Read per request, so one site serves both modes. The memory sections come first, and an
    empty value is one mark everywhere."""

    empty_value_display = "—"

    def get_app_list(self, request: HttpRequest, app_label: str | None = None) -> list[Any]:
        apps = super().get_app_list(request, app_label)
        rank = {label: i for i, label in enumerate(FIRST_APPS)}
        return sorted(apps, key=lambda app: rank.get(app["app_label"], len(FIRST_APPS)))

    def has_permission(self, request: HttpRequest) -> bool:
        allowed = super().has_permission(request)
        if settings.ADMIN_REQUIRE_2FA:
            return allowed and bool(request.user.is_verified())  # type: ignore[union-attr]
        return allowed

    @property
    def login_form(self) -> Any:  # type: ignore[override]
        return OTPAdminAuthenticationForm if settings.ADMIN_REQUIRE_2FA else None

    @property
    def login_template(self) -> str | None:  # type: ignore[override]
        return OTPAdminSite.login_template if settings.ADMIN_REQUIRE_2FA else None
