"""Mem0's entity index in the admin: read-only, derived from the memories."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from edges.admin.display import memory_link, support_link
from edges.admin.memories.staff import ReadingLeavesATrace, record_view
from memories.models import AuditEvent, EntityRow, MemoryRow


@admin.register(EntityRow)
class EntityRowAdmin(ReadingLeavesATrace):
    """Mem0's entity index: what the topic heat map and recall boost read (derived data)."""

    list_display = ("text", "kind", "scope", "linked_count")
    search_fields = ("payload__data", "payload__user_id")
    search_help_text = _("按实体文字或作用域（tenant:user）搜索")
    fields = ("text", "kind", "scope", "linked_memories")
    readonly_fields = fields
    list_per_page = 100

    def get_queryset(self, request: HttpRequest) -> QuerySet[EntityRow]:
        return super().get_queryset(request).defer("vector").order_by("id")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # derived from the memories: rebuilt, never edited by hand

    def record_reading(self, request: HttpRequest, obj: EntityRow) -> None:
        """The page lists the memories linked to the entity: staff read them."""
        record_view(request, str(obj.payload.get("user_id", "")), AuditEvent.Page.ENTITY)

    @admin.display(description=_("实体"))
    def text(self, obj: EntityRow) -> str:
        return str(obj.payload.get("data", ""))

    @admin.display(description=_("类型"))
    def kind(self, obj: EntityRow) -> str:
        return str(obj.payload.get("entity_type", ""))

    @admin.display(description=_("用户"))
    def scope(self, obj: EntityRow) -> SafeString:
        tenant_id, _sep, user_id = str(obj.payload.get("user_id", "")).partition(":")
        return support_link(tenant_id, user_id)

    @admin.display(description=_("关联记忆数"))
    def linked_count(self, obj: EntityRow) -> int:
        return len(obj.linked_memory_ids)

    @admin.display(description=_("关联的记忆"))
    def linked_memories(self, obj: EntityRow) -> SafeString:
        rows = MemoryRow.objects.defer("vector").filter(pk__in=obj.linked_memory_ids)
        items = [(memory_link(r.pk), r.content[:120]) for r in rows]
        if not items:
            return format_html("<p>{}</p>", gettext("没有关联的记忆。"))
        return format_html("<ul>{}</ul>", format_html_join("", "<li>{} {}</li>", items))
