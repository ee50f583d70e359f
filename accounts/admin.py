"""Staff can see which platform subject holds which memory scope; the sign-in writes it."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from accounts.models import OidcIdentity


@admin.register(OidcIdentity)
class OidcIdentityAdmin(admin.ModelAdmin):
    list_display = ["scope_tenant", "scope_user", "issuer", "subject", "last_login_at"]
    search_fields = ["scope_tenant", "scope_user", "subject"]
    readonly_fields = [f.name for f in OidcIdentity._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False
