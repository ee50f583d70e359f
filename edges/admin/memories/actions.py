"""The admin's bulk action on memories: delete through the service, after a typed word."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib import admin
from django.contrib.admin import helpers
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from edges.admin.memories.outcomes import report_deletes
from memories.labels import delete_all_phrase
from memories.models import MemoryRow
from memories.scope import scope_from_key

if TYPE_CHECKING:
    from edges.admin.memories.memory_rows import MemoryRowAdmin


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
        report_deletes(request, getattr(request, "_memory_delete_outcomes", []))
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
                "scope": scope_from_key(key),
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
