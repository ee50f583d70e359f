"""Django admin for staff: memories, audit events and the users' memory settings.

Memories are read straight from Mem0's table (read-only models).  Nothing here writes to the
Mem0 tables with the ORM: deleting and correcting go through ``memories.services`` with a
staff actor and ``Source.ADMIN``, so entity links, Mem0 history and audit text are cleaned up
exactly as when the user does it, and failures are reported as failures.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.admin.models import LogEntry
from django.contrib.admin.options import IncorrectLookupParameters
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied
from django.db.models import Count, DateTimeField, QuerySet
from django.db.models.fields.json import KT
from django.db.models.functions import Cast
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.loader import render_to_string
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.text import capfirst
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from memories.admin_display import (
    ScopeUserFilter,
    local_time,
    memory_link,
    metadata_rows,
    support_link,
)
from memories.contract.labels import (
    ACTOR_LABELS,
    SOURCE_LABELS,
    STATUS_LABELS,
    actor_label,
    category_choices,
    category_label,
    delete_all_phrase,
    event_label,
    source_choices,
    source_label,
)
from memories.governance import payload_status
from memories.models import AuditEvent, EntityRow, MemoryRow, MemorySettings
from memories.selectors import rows_with_status
from memories.services import (
    MAX_FACT_LENGTH,
    memory_delete,
    memory_switches_update,
    memory_update,
    staff_view_record,
)
from memories.support import audit_status_label, memory_changes, support_page
from memories.types import (
    Actor,
    ActorKind,
    DeleteOutcome,
    MemoryScope,
    ScopeError,
    Source,
    WriteStatus,
)

admin.site.site_header = _("Poco 记忆后台")
admin.site.site_title = _("Poco 记忆后台")
admin.site.index_title = _("记忆服务管理")


def staff_actor(request: HttpRequest) -> Actor:
    return Actor(kind=ActorKind.STAFF, id=request.user.get_username())


def row_scope(row: MemoryRow) -> MemoryScope:
    """The scope a row belongs to: staff act inside the memory's own scope."""
    return MemoryScope.from_key(row.scope_key)


def record_view(
    request: HttpRequest, scope_key: str, page: str, memory_id: str | None = None
) -> None:
    """Staff read this user's memories on ``page``: leave the content-free trace.
    A row whose scope cannot be read names no user to record against."""
    try:
        scope = MemoryScope.from_key(scope_key)
    except ScopeError:
        return
    staff_view_record(scope=scope, actor=staff_actor(request), page=page, memory_id=memory_id)


class ReadingLeavesATrace(admin.ModelAdmin):
    """A read-only page of one object that shows a user's memories: opening it is recorded
    (``record_reading``), never on a failed or posted request."""

    def record_reading(self, request: HttpRequest, obj: Any) -> None:
        raise NotImplementedError

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        # Titled by what it shows ("记忆"), not Django's "查看 记忆" / "View Memory".
        extra_context = {"title": capfirst(self.opts.verbose_name), **(extra_context or {})}
        response = super().change_view(request, object_id, form_url, extra_context)
        shown = (getattr(response, "context_data", None) or {}).get("original")
        if request.method == "GET" and response.status_code == 200 and shown is not None:
            self.record_reading(request, shown)
        return response


def text_filter_value(value: str | None) -> str | None:
    """A filter's value that PostgreSQL can compare with text: a NUL byte is refused as Django
    refuses a bad lookup (the list without filters, "e=1"), never sent to SQL (a DataError)."""
    if value and "\x00" in value:
        raise IncorrectLookupParameters("a filter value holds a NUL byte")
    return value


class PayloadKeyFilter(admin.SimpleListFilter):
    payload_key = ""

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        value = text_filter_value(self.value())
        if not value:
            return queryset
        return queryset.alias(_key=KT(f"payload__{self.payload_key}")).filter(_key=value)


class CategoryFilter(PayloadKeyFilter):
    title = _("类别")
    parameter_name = "category"
    payload_key = "category"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return list(category_choices())


class SourceFilter(PayloadKeyFilter):
    title = _("来源")
    parameter_name = "source"
    payload_key = "source"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return list(source_choices())


class MemoryUserFilter(admin.SimpleListFilter):
    """The memories of one user (scope ``tenant:user``), the users with most memories first."""

    title = _("用户")
    parameter_name = "scope"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        users = (
            MemoryRow.objects.annotate(owner=KT("payload__user_id"))
            .values_list("owner")
            .annotate(n=Count("id"))
            .order_by("-n")[:30]
        )
        return [(owner, owner) for owner, _n in users if owner]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        value = text_filter_value(self.value())
        if not value:
            return queryset
        return queryset.alias(_owner=KT("payload__user_id")).filter(_owner=value)


class CreatedWithinFilter(admin.SimpleListFilter):
    title = _("创建时间")
    parameter_name = "created_within"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [("1", _("今天起 24 小时内")), ("7", _("最近 7 天")), ("30", _("最近 30 天"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        value = self.value()
        if value not in {"1", "7", "30"}:
            return queryset
        since = timezone.now() - timedelta(days=int(value))
        return queryset.alias(_created=Cast(KT("payload__created_at"), DateTimeField())).filter(
            _created__gte=since
        )


class WordsFilter(admin.SimpleListFilter):
    """A filter on a code column whose values are shown as words."""

    labels: dict[str, Any] = {}

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [(code, label) for code, label in self.labels.items()]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        value = text_filter_value(self.value())
        return queryset.filter(**{str(self.parameter_name): value}) if value else queryset


class AuditSourceFilter(WordsFilter):
    title = _("来源")
    parameter_name = "source"
    labels = SOURCE_LABELS


class AuditActorFilter(WordsFilter):
    title = _("操作者类型")
    parameter_name = "actor_kind"
    labels = ACTOR_LABELS


class GovernanceStatusFilter(admin.SimpleListFilter):
    """Status as readers see it: past its valid_until a memory is expired before the sweep."""

    title = _("状态")
    parameter_name = "status"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return list(STATUS_LABELS.items())

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        value = self.value()
        if value not in STATUS_LABELS:
            return queryset
        return rows_with_status(queryset, str(value), now=timezone.now())


class CorrectionForm(forms.Form):
    text = forms.CharField(
        label=_("记忆内容"), max_length=MAX_FACT_LENGTH, widget=forms.Textarea(attrs={"rows": 5})
    )
    category = forms.ChoiceField(label=_("类别"), choices=category_choices())


def _report_delete(request: HttpRequest, outcomes: list[DeleteOutcome]) -> None:
    """One message per kind of outcome; failures are errors, never folded into success."""
    deleted = sum(1 for o in outcomes if o.success)
    if deleted:
        messages.success(
            request, gettext("已删除 %(count)d 条记忆（通过记忆服务清理）。") % {"count": deleted}
        )
    failed: dict[str, int] = {}
    for outcome in outcomes:
        if not outcome.success:
            failed[outcome.status.value] = failed.get(outcome.status.value, 0) + 1
    for status, count in sorted(failed.items()):
        messages.error(
            request,
            gettext("%(count)d 条记忆删除失败：%(status)s。") % {"count": count, "status": status},
        )


@admin.action(description=_("删除所选记忆（通过记忆服务）"), permissions=["delete"])
def delete_selected(
    modeladmin: MemoryRowAdmin, request: HttpRequest, queryset: QuerySet[MemoryRow]
) -> HttpResponse | None:
    """Replaces Django's bulk delete: a confirmation that names each user and how many of
    their memories go, a typed word as for a user's own delete-all, deletion through the
    service with the staff member as the audited actor."""
    phrase = delete_all_phrase()
    typed = request.POST.get("confirm", "").strip()
    if request.POST.get("post") and typed == phrase:
        modeladmin.delete_queryset(request, queryset)
        _report_delete(request, getattr(request, "_memory_delete_outcomes", []))
        return None
    groups: dict[str, list[MemoryRow]] = {}
    for row in queryset.order_by("id"):
        groups.setdefault(row.scope_key, []).append(row)
    context = {
        **modeladmin.admin_site.each_context(request),
        "title": gettext("确认删除所选记忆"),
        "opts": modeladmin.model._meta,
        "groups": [
            {
                "scope": MemoryScope.from_key(key),
                "count": len(group),
                "samples": [row.content for row in group[:3]],
            }
            for key, group in sorted(groups.items())
        ],
        "total": sum(len(group) for group in groups.values()),
        "ids": [str(row.pk) for group in groups.values() for row in group],
        "phrase": phrase,
        "wrong_phrase": bool(request.POST.get("post")),
        "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
    }
    return TemplateResponse(
        request, "admin/memories/memoryrow/delete_selected_confirmation.html", context
    )


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
                scope = row_scope(row)
            except ScopeError:
                messages.error(request, gettext("无法识别记忆 %(id)s 的作用域。") % {"id": row.pk})
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
        _report_delete(request, getattr(request, "_memory_delete_outcomes", []))
        return HttpResponseRedirect(reverse("admin:memories_memoryrow_changelist"))

    # --- correction through the service -------------------------------------------------------
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
        if not self.can_correct(request):
            raise PermissionDenied
        # As the change page looks it up: an id that is not a UUID is no memory (not a 500).
        row = self.get_object(request, unquote(object_id))
        if row is None:
            raise Http404
        change_url = reverse("admin:memories_memoryrow_change", args=[row.pk])
        if request.method == "POST":
            form = CorrectionForm(request.POST)
            if form.is_valid():
                try:
                    scope = row_scope(row)
                except ScopeError as exc:
                    raise PermissionDenied(str(exc)) from exc
                outcome = memory_update(
                    scope=scope,
                    memory_id=str(row.pk),
                    text=form.cleaned_data["text"],
                    category=form.cleaned_data["category"],
                    actor=staff_actor(request),
                    source=Source.ADMIN,
                )
                if outcome.status == WriteStatus.UPDATED:
                    messages.success(request, gettext("已纠正，记忆 ID 保持不变。"))
                    return HttpResponseRedirect(change_url)
                if outcome.status == WriteStatus.NO_EFFECT:
                    messages.info(request, gettext("内容没有变化。"))
                    return HttpResponseRedirect(change_url)
                messages.error(
                    request, gettext("纠正失败：%(status)s。") % {"status": outcome.status.value}
                )
        else:
            form = CorrectionForm(initial={"text": row.content, "category": row.category})
            record_view(request, row.scope_key, AuditEvent.Page.CORRECT, memory_id=str(row.pk))
        context = {
            **self.admin_site.each_context(request),
            "title": gettext("纠正记忆"),
            "opts": self.opts,
            "original": row,
            "form": form,
            "change_url": change_url,
        }
        return TemplateResponse(request, "admin/memories/memoryrow/correct.html", context)

    # --- one user, everything support needs ----------------------------------------------------
    def support_view(self, request: HttpRequest) -> HttpResponse:
        """A user's memories, ingest jobs, rejected ingests by reason (counts, no content),
        explicit-writer runs, switches and audit trail on one page (``memories.support``).
        Opening it for a user is recorded first, so the page lists this view too."""
        if not self.has_view_permission(request):
            raise PermissionDenied
        raw = (request.GET.get("scope") or "").strip()
        context: dict[str, Any] = {
            **self.admin_site.each_context(request),
            "title": gettext("用户支持视图"),
            "opts": self.opts,
            "raw_scope": raw,
        }
        if raw:
            try:
                scope = MemoryScope.from_key(raw if ":" in raw else f"default:{raw}")
            except ScopeError:
                context["error"] = gettext("无法识别这个用户（格式：tenant:user）。")
            else:
                staff_view_record(
                    scope=scope,
                    actor=staff_actor(request),
                    page=AuditEvent.Page.SUPPORT,
                    reason=request.GET.get("reason", ""),
                )
                context["support"] = support_page(scope=scope)
        return TemplateResponse(request, "admin/memories/support.html", context)


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
            scope=MemoryScope(tenant_id=obj.tenant_id, user_id=obj.user_id),
            memory_save_enabled=obj.memory_save_enabled,
            memory_reference_enabled=obj.memory_reference_enabled,
        )
