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

from lifecycle.models import IngestJob, IngestRejection, RunLedger
from memories.admin import ScopeUserFilter, local_time, memory_link, support_link


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
    exclude = ("messages",)

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


class GuardedJobAdmin(ProcrastinateJobAdmin):
    """Procrastinate's job list, whose Retry/Cancel/Abort change what a user's agent does:
    offered only to staff holding the named permission, not to every staff member."""

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        if not request.user.has_perm("procrastinate.change_procrastinatejob"):
            return {}
        return super().get_actions(request)


admin.site.unregister(ProcrastinateJob)
admin.site.register(ProcrastinateJob, GuardedJobAdmin)
