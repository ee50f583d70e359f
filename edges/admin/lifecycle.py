"""Staff views of the write pipeline: ingest jobs and explicit-writer runs, read-only."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _
from procrastinate.contrib.django.admin import ProcrastinateJobAdmin
from procrastinate.contrib.django.models import ProcrastinateJob

from edges.admin.display import (
    ScopeUserFilter,
    local_time,
    memory_link,
    metadata_rows,
    support_link,
)
from infra.app_labels import relabel_actions
from lifecycle.models import IngestJob, IngestRejection, RunLedger


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(IngestJob)
class IngestJobAdmin(ReadOnlyAdmin):
    list_display = (
        "short_id",
        "scope",
        "run",
        "source_name",
        "status",
        "attempts_count",
        "memories",
        "failure",
        "when",
    )
    list_filter = ("status", "source", ScopeUserFilter)
    search_fields = ("tenant_id", "user_id", "run_id", "id")
    date_hierarchy = "created_at"
    # The candidate text is only kept while a job waits; staff see how much, not what.
    fields = (
        "id",
        "scope",
        "run",
        "source_name",
        "run_kind",
        "status",
        "attempts",
        "inserted_count",
        "memories",
        "failure",
        "metadata_table",
        "when",
        "updated",
    )
    readonly_fields = fields

    @admin.display(description=_("编号"), ordering="id")
    def short_id(self, job: IngestJob) -> SafeString:
        return format_html('<span class="mono" title="{}">{}…</span>', job.id, str(job.id)[:8])

    @admin.display(description=_("用户"))
    def scope(self, job: IngestJob) -> SafeString:
        return support_link(job.tenant_id, job.user_id)

    @admin.display(description=_("任务"), ordering="run_id")
    def run(self, job: IngestJob) -> str:
        return job.run_id

    @admin.display(description=_("来源"), ordering="source")
    def source_name(self, job: IngestJob) -> str:
        return job.source

    @admin.display(description=_("尝试次数"), ordering="attempts")
    def attempts_count(self, job: IngestJob) -> int:
        return job.attempts

    @admin.display(description=_("写入的记忆"))
    def memories(self, job: IngestJob) -> SafeString:
        return format_html_join(" ", "{}", ((memory_link(i),) for i in job.memory_ids))

    @admin.display(description=_("原因"), ordering="reason")
    def failure(self, job: IngestJob) -> str:
        return job.reason

    @admin.display(description=_("时间"), ordering="created_at")
    def when(self, job: IngestJob) -> str:
        return local_time(job.created_at)

    @admin.display(description=_("更新时间"))
    def updated(self, job: IngestJob) -> str:
        return local_time(job.updated_at)

    @admin.display(description=_("元数据"))
    def metadata_table(self, job: IngestJob) -> SafeString:
        return metadata_rows(job.metadata)


@admin.register(IngestRejection)
class IngestRejectionAdmin(ReadOnlyAdmin):
    """What admission turned away, by reason: a count staff can see, never the content."""

    list_display = ("when", "scope", "run_id", "source", "reason")
    list_filter = ("reason", "source", ScopeUserFilter)
    search_fields = ("tenant_id", "user_id", "run_id")
    date_hierarchy = "created_at"

    @admin.display(description=_("时间"), ordering="created_at")
    def when(self, row: IngestRejection) -> str:
        return local_time(row.created_at)

    @admin.display(description=_("用户"))
    def scope(self, row: IngestRejection) -> SafeString:
        return support_link(row.tenant_id, row.user_id)


@admin.register(RunLedger)
class RunLedgerAdmin(ReadOnlyAdmin):
    list_display = ("run_id", "scope", "explicit_action", "when")
    list_filter = ("explicit_action", ScopeUserFilter)
    search_fields = ("tenant_id", "user_id", "run_id")
    date_hierarchy = "created_at"

    @admin.display(description=_("用户"))
    def scope(self, run: RunLedger) -> SafeString:
        return support_link(run.tenant_id, run.user_id)

    @admin.display(description=_("时间"), ordering="created_at")
    def when(self, run: RunLedger) -> str:
        return local_time(run.created_at)


# Procrastinate names its actions in English only.
JOB_ACTION_LABELS = {
    "retry": _("重试任务"),
    "cancel": _("取消任务（仅限排队中的）"),
    "abort": _("中止任务（排队中和执行中的）"),
}


# Procrastinate shows its job states as their codes ("todo", "doing").
JOB_STATUS_LABELS = {
    "todo": _("排队中"),
    "doing": _("执行中"),
    "succeeded": _("已成功"),
    "failed": _("失败"),
    "cancelled": _("已取消"),
    "aborting": _("正在中止"),
    "aborted": _("已中止"),
}


class JobStatusFilter(admin.SimpleListFilter):
    title = _("状态")
    parameter_name = "status__exact"  # the parameter of procrastinate's own filter

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return list(JOB_STATUS_LABELS.items())

    def queryset(self, request: HttpRequest, queryset: Any) -> Any:
        return queryset.filter(status=self.value()) if self.value() else queryset


class GuardedJobAdmin(ProcrastinateJobAdmin):
    """Procrastinate's job list, whose Retry/Cancel/Abort change what a user's agent does:
    offered only to staff holding the named permission, not to every staff member. Its
    columns and actions are named in the page's language."""

    list_display = ["job_id", "short_task_name", "pretty_args", "pretty_status", "summary"]

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        if not request.user.has_perm("procrastinate.change_procrastinatejob"):
            return {}
        return relabel_actions(super().get_actions(request), JOB_ACTION_LABELS)

    @admin.display(description=_("编号"), ordering="id")
    def job_id(self, instance: ProcrastinateJob) -> int:
        return int(instance.pk)

    list_filter = [JobStatusFilter, *ProcrastinateJobAdmin.list_filter[1:]]

    @admin.display(description=_("状态"))
    def pretty_status(self, instance: ProcrastinateJob) -> str:
        emoji = super().pretty_status(instance).split(" ", 1)[0]
        return f"{emoji} {JOB_STATUS_LABELS.get(instance.status, instance.status)}"

    @admin.display(description=_("任务名"))
    def short_task_name(self, instance: ProcrastinateJob) -> str:
        return super().short_task_name(instance)

    @admin.display(description=_("参数"))
    def pretty_args(self, instance: ProcrastinateJob) -> str:
        return super().pretty_args(instance)

    @admin.display(description=_("概况"))
    def summary(self, instance: ProcrastinateJob) -> str:
        return super().summary(instance)


admin.site.unregister(ProcrastinateJob)
admin.site.register(ProcrastinateJob, GuardedJobAdmin)
