"""Staff can see which platform subject holds which memory scope (the sign-in writes it) and
which service token was refused which tenant (the API edges write it)."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from accounts.models import OidcIdentity, TokenRefusal


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
