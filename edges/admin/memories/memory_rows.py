"""The memory admin: Mem0's rows read-only, deleted and corrected only through the services."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.admin.models import LogEntry
from django.db.models import QuerySet
from django.db.models.fields.json import KT
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.loader import render_to_string
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from edges.admin.display import local_time, metadata_rows, support_link
from edges.admin.memories import pages
from edges.admin.memories.actions import delete_selected
from edges.admin.memories.filters import (
    CategoryFilter,
    CreatedWithinFilter,
    GovernanceStatusFilter,
    MemoryUserFilter,
    SourceFilter,
)
from edges.admin.memories.outcomes import report_deletes, report_unreadable_scope
from edges.admin.memories.staff import ReadingLeavesATrace, record_view, staff_actor
from edges.support import memory_changes
from memories.governance import payload_status
from memories.labels import STATUS_LABELS, category_label, source_label
from memories.models import AuditEvent, EntityRow, MemoryRow
from memories.scope import scope_from_key
from memories.services import memory_delete
from memories.types import ScopeError, Source


@admin.register(MemoryRow)
class MemoryRowAdmin(ReadingLeavesATrace):
    list_display = (
        "short_content",
        "scope",
        "category_name",
        "source_name",
        "memory_key",
        "status_name",
        "valid_until",
        "created",
    )
    list_filter = (
        MemoryUserFilter,
        CreatedWithinFilter,
        CategoryFilter,
        SourceFilter,
        GovernanceStatusFilter,
    )
    search_fields = (
        "payload__data",
        "payload__user_id",
        "payload__category",
        "payload__source",
        "payload__memory_key",
    )
    search_help_text = _("按内容、作用域（tenant:user）、类别、来源或记忆键搜索")
    actions = [delete_selected]
    list_per_page = 50
    fields = (
        "id",
        "scope",
        "content",
        "category_name",
        "source_name",
        "memory_key",
        "status_name",
        "superseded_by",
        "valid_until",
        "confidence",
        "created",
        "updated",
        "metadata_table",
        "correct_link",
        "history_table",
        "entities_table",
    )
    readonly_fields = fields

    def get_queryset(self, request: HttpRequest) -> QuerySet[MemoryRow]:
        return (
            super()
            .get_queryset(request)
            .defer("vector")
            .alias(created_key=KT("payload__created_at"))
            .order_by("-created_key", "-id")
        )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # the form is read-only; corrections use the correction view below

    def can_correct(self, request: HttpRequest) -> bool:
        return request.user.has_perm("memories.change_memoryrow")

    # --- columns and detail fields ----------------------------------------------------------
    @admin.display(description=_("内容"))
    def short_content(self, obj: MemoryRow) -> str:
        text = obj.content
        return text if len(text) <= 80 else text[:79] + "…"

    @admin.display(description=_("用户"))
    def scope(self, obj: MemoryRow) -> SafeString:
        tenant_id, _sep, user_id = obj.scope_key.partition(":")
        return support_link(tenant_id, user_id)

    @admin.display(description=_("内容"))
    def content(self, obj: MemoryRow) -> str:
        return obj.content

    @admin.display(description=_("类别"))
    def category_name(self, obj: MemoryRow) -> str:
        return category_label(obj.category)

    @admin.display(description=_("来源"))
    def source_name(self, obj: MemoryRow) -> str:
        return source_label(obj.source)

    @admin.display(description=_("记忆键"))
    def memory_key(self, obj: MemoryRow) -> str:
        return str(obj.payload.get("memory_key") or "—")

    @admin.display(description=_("状态"))
    def status_name(self, obj: MemoryRow) -> str:
        status = payload_status(obj.payload)
        return str(STATUS_LABELS.get(status, status))

    @admin.display(description=_("替代它的记忆"))
    def superseded_by(self, obj: MemoryRow) -> SafeString | str:
        successor = obj.payload.get("superseded_by")
        if not successor:
            return "—"
        url = reverse("admin:memories_memoryrow_change", args=[successor])
        return format_html('<a href="{}">{}</a>', url, successor)

    @admin.display(description=_("有效期至"))
    def valid_until(self, obj: MemoryRow) -> str:
        until = obj.payload.get("valid_until")
        return local_time(until) if until else gettext("长期有效")

    @admin.display(description=_("置信度"))
    def confidence(self, obj: MemoryRow) -> str:
        return str(obj.payload.get("confidence", "—"))

    @admin.display(description=_("创建时间"))
    def created(self, obj: MemoryRow) -> str:
        return local_time(obj.payload.get("created_at"))

    @admin.display(description=_("更新时间"))
    def updated(self, obj: MemoryRow) -> str:
        return local_time(obj.payload.get("updated_at"))

    @admin.display(description=_("元数据"))
    def metadata_table(self, obj: MemoryRow) -> SafeString:
        hidden = {"data", "hash", "text_lemmatized", "user_id", "created_at", "updated_at"}
        return metadata_rows(obj.payload, frozenset(hidden))

    @admin.display(description=_("纠正"))
    def correct_link(self, obj: MemoryRow) -> SafeString:
        url = reverse("admin:memories_memoryrow_correct", args=[obj.pk])
        return format_html('<a class="button" href="{}">{}</a>', url, gettext("纠正这条记忆"))

    @admin.display(description=_("变更轨迹"))
    def history_table(self, obj: MemoryRow) -> SafeString:
        return render_to_string(
            "admin/memories/memoryrow/_history.html", {"changes": memory_changes(memory_id=obj.pk)}
        )

    @admin.display(description=_("实体"))
    def entities_table(self, obj: MemoryRow) -> SafeString:
        entities = (
            EntityRow.objects.filter(payload__linked_memory_ids__contains=[str(obj.pk)])
            .defer("vector")
            .order_by("id")
        )
        items = [
            (e.payload.get("data", ""), e.payload.get("entity_type", ""), len(e.linked_memory_ids))
            for e in entities
        ]
        if not items:
            return format_html("<p>{}</p>", gettext("没有关联实体。"))
        return format_html(
            "<ul>{}</ul>",
            format_html_join(
                "",
                "<li>{} <small>({}, {})</small></li>",
                [(text, kind, gettext("%(n)d 条记忆") % {"n": n}) for text, kind, n in items],
            ),
        )

    # --- staff reading leaves a trace ----------------------------------------------------------
    def record_reading(self, request: HttpRequest, obj: MemoryRow) -> None:
        record_view(request, obj.scope_key, AuditEvent.Page.MEMORY, memory_id=str(obj.pk))

    def changelist_view(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        """One view row for each user whose memories the page shows (the search words and
        filters are not kept: they can be content)."""
        response = super().changelist_view(request, extra_context)
        changelist = (getattr(response, "context_data", None) or {}).get("cl")
        if request.method == "GET" and response.status_code == 200 and changelist is not None:
            for scope_key in sorted({row.scope_key for row in changelist.result_list}):
                record_view(request, scope_key, AuditEvent.Page.MEMORY_LIST)
        return response

    # --- deletion through the service ---------------------------------------------------------
    def log_deletions(self, request: HttpRequest, queryset: Any) -> list[LogEntry]:
        """Django's admin log would keep the memory's text; the audit tombstone is the record."""
        return []

    def delete_model(self, request: HttpRequest, obj: MemoryRow) -> None:
        self.delete_queryset(request, [obj])

    def delete_queryset(self, request: HttpRequest, queryset: Any) -> None:
        outcomes = []
        for row in queryset:
            try:
                scope = scope_from_key(row.scope_key)
            except ScopeError:
                report_unreadable_scope(request, row.pk)
                continue
            outcomes.append(
                memory_delete(
                    scope=scope,
                    memory_id=str(row.pk),
                    actor=staff_actor(request),
                    source=Source.ADMIN,
                )
            )
        request._memory_delete_outcomes = outcomes  # type: ignore[attr-defined]

    def response_delete(self, request: HttpRequest, obj_display: str, obj_id: Any) -> HttpResponse:
        report_deletes(request, getattr(request, "_memory_delete_outcomes", []))
        return HttpResponseRedirect(reverse("admin:memories_memoryrow_changelist"))

    # --- correcting one memory and the support page (edges.admin.memories.pages) ----------------
    def get_urls(self) -> list[URLPattern]:
        extra = [
            path(
                "support/",
                self.admin_site.admin_view(self.support_view),
                name="memories_support",
            ),
            path(
                "<path:object_id>/correct/",
                self.admin_site.admin_view(self.correct_view),
                name="memories_memoryrow_correct",
            ),
        ]
        return extra + super().get_urls()

    def correct_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        return pages.correct_view(self, request, object_id)

    def support_view(self, request: HttpRequest) -> HttpResponse:
        return pages.support_view(self, request)
