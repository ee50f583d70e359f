"""The audit trail (append-only) and the users' two switches in the admin."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

from edges.admin.display import ScopeUserFilter, local_time, memory_link, support_link
from edges.admin.memories.filters import AuditActorFilter, AuditSourceFilter
from edges.support import audit_status_label
from memories.labels import actor_label, event_label, source_label
from memories.models import AuditEvent, MemorySettings
from memories.scope import scope_of
from memories.services import memory_switches_update


@admin.register(AuditEvent)
class AuditEventAdmin(admin.ModelAdmin):
    list_display = (
        "when",
        "event_name",
        "memory",
        "scope",
        "actor",
        "source_name",
        "page",
        "run_id",
        "status_name",
    )
    list_filter = ("event", "page", AuditActorFilter, AuditSourceFilter, ScopeUserFilter)
    search_fields = ("memory_id", "tenant_id", "user_id", "actor_id", "run_id")
    date_hierarchy = "created_at"
    list_per_page = 100

    @admin.display(description=_("时间"), ordering="created_at")
    def when(self, obj: AuditEvent) -> str:
        return local_time(obj.created_at)

    @admin.display(description=_("事件"), ordering="event")
    def event_name(self, obj: AuditEvent) -> str:
        return event_label(obj.event)  # in the page's language; the filter keeps the codes

    @admin.display(description=_("记忆"))
    def memory(self, obj: AuditEvent) -> SafeString | str:
        return memory_link(obj.memory_id)

    @admin.display(description=_("用户"))
    def scope(self, obj: AuditEvent) -> SafeString:
        return support_link(obj.tenant_id, obj.user_id)

    @admin.display(description=_("操作者"))
    def actor(self, obj: AuditEvent) -> str:
        return actor_label(obj.actor_kind, obj.actor_id)

    @admin.display(description=_("来源"))
    def source_name(self, obj: AuditEvent) -> str:
        return source_label(obj.source) if obj.source else "—"

    @admin.display(description=_("状态"), ordering="status")
    def status_name(self, obj: AuditEvent) -> str:
        return audit_status_label(obj.status)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # the audit trail is append-only

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(MemorySettings)
class MemorySettingsAdmin(admin.ModelAdmin):
    list_display = (
        "tenant_id",
        "user_id",
        "memory_save_enabled",
        "memory_reference_enabled",
        "updated_at",
    )
    list_filter = ("memory_save_enabled", "memory_reference_enabled")
    search_fields = ("tenant_id", "user_id")
    fields = (
        "tenant_id",
        "user_id",
        "memory_save_enabled",
        "memory_reference_enabled",
        "updated_at",
    )
    readonly_fields = ("tenant_id", "user_id", "updated_at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # a row appears when a user first changes a switch

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def save_model(
        self, request: HttpRequest, obj: MemorySettings, form: Any, change: bool
    ) -> None:
        memory_switches_update(
            scope=scope_of(tenant_id=obj.tenant_id, user_id=obj.user_id),
            memory_save_enabled=obj.memory_save_enabled,
            memory_reference_enabled=obj.memory_reference_enabled,
        )
