"""Staff views of the write pipeline: ingest jobs and explicit-writer runs, read-only."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from lifecycle.models import IngestJob, RunLedger


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
        "id",
        "scope",
        "run_id",
        "source",
        "status",
        "attempts",
        "inserted_count",
        "reason",
        "created_at",
    )
    list_filter = ("status", "source")
    search_fields = ("tenant_id", "user_id", "run_id", "id")
    date_hierarchy = "created_at"
    # The candidate text is only kept while a job waits; staff see how much, not what.
    exclude = ("messages",)

    @admin.display(description=_("作用域"))
    def scope(self, job: IngestJob) -> str:
        return f"{job.tenant_id}:{job.user_id}"


@admin.register(RunLedger)
class RunLedgerAdmin(ReadOnlyAdmin):
    list_display = ("run_id", "tenant_id", "user_id", "explicit_action", "created_at")
    search_fields = ("tenant_id", "user_id", "run_id")
