"""Deleting: one memory, the ticked rows of the list, or everything (after a typed word).
Outcomes are shown as they are: ``partial_cleanup`` and ``backend_error`` are failures."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods
from django.views.decorators.vary import vary_on_headers

from edges.console import outcomes
from edges.console.forms import DeleteAllForm
from edges.console.presenters import memory_item
from edges.console.views.base import (
    HtmxHttpRequest,
    console_login_required,
    for_owned_memory,
    list_to_return_to,
    list_url,
    not_found,
    partial,
    request_actor,
    request_scope,
    success_redirect,
)
from edges.console.views.selection import selected_records
from edges.contract.outcomes import Edge, http_status
from memories import selectors, services
from memories.labels import delete_all_phrase
from memories.types import DeleteStatus, ListQuery, MemoryRecord, MemoryScope, Source


@console_login_required
@require_http_methods(["GET", "POST"])
@vary_on_headers("HX-Request")
@for_owned_memory
def memory_delete(
    request: HtmxHttpRequest, scope: MemoryScope, record: MemoryRecord
) -> HttpResponse:
    back_to_list = list_url(request.POST.get("next") or request.GET.get("next", ""))
    context: dict[str, Any] = {"memory": memory_item(record), "back_to_list": back_to_list}
    if request.method != "POST":
        return render(request, partial(request, "console/memory_delete.html", "confirm"), context)
    outcome = services.memory_delete(
        scope=scope, memory_id=record.id, actor=request_actor(request), source=Source.CONSOLE
    )
    if outcome.status in (DeleteStatus.NOT_FOUND, DeleteStatus.FORBIDDEN):
        return not_found(request)
    if outcome.success:
        messages.success(request, _("已删除这条记忆，相关实体关联和变更轨迹已一并清理。"))
        return success_redirect(request, back_to_list or reverse("console:memories"))
    context["failure"] = outcomes.delete_failure(outcome, everything=False)
    context["outcome"] = outcome
    return render(
        request,
        partial(request, "console/memory_delete.html", "confirm"),
        context,
        status=http_status(outcome.status, Edge.CONSOLE),
    )


@console_login_required
@require_http_methods(["GET", "POST"])
@vary_on_headers("HX-Request")
def memory_delete_all(request: HtmxHttpRequest) -> HttpResponse:
    scope = request_scope(request)
    form = DeleteAllForm(request.POST if request.method == "POST" else None)
    context: dict[str, Any] = {
        "form": form,
        "phrase": delete_all_phrase(),
        "total": selectors.memory_list(scope=scope, query=ListQuery(page_size=1)).total,
    }
    template = partial(request, "console/memory_delete_all.html", "delete-all-form")
    if request.method != "POST":
        return render(request, template, context)
    if not form.is_valid():
        return render(request, template, context, status=422)
    outcome = services.memory_delete_user(
        scope=scope, actor=request_actor(request), source=Source.CONSOLE
    )
    if outcome.success:
        messages.success(
            request,
            _("已删除全部 %(count)s 条记忆，相关实体关联和变更轨迹已一并清理。")
            % {"count": outcome.deleted_count},
        )
        return success_redirect(request, reverse("console:memories"))
    context |= {
        "failure": outcomes.delete_failure(outcome, everything=True),
        "outcome": outcome,
        "total": selectors.memory_list(scope=scope, query=ListQuery(page_size=1)).total,
    }
    return render(request, template, context, status=http_status(outcome.status, Edge.CONSOLE))


@console_login_required
@require_http_methods(["POST"])
def memory_delete_selected(request: HtmxHttpRequest) -> HttpResponse:
    """Delete the rows ticked in the list: a confirmation page naming them, then one
    ``memory_delete`` each (typed confirmation is only for delete-all)."""
    scope = request_scope(request)
    back = list_to_return_to(request)
    records = selected_records(request, scope, back)
    if not records:
        messages.info(request, _("没有选中记忆。先勾选要删除的记忆，再点“删除所选”。"))
        return HttpResponseRedirect(back)
    if request.POST.get("confirmed") != "1":
        context = {"items": [memory_item(r) for r in records], "back": back}
        return render(request, "console/memory_delete_selected.html", context)
    deleted, failed = 0, 0
    for record in records:
        outcome = services.memory_delete(
            scope=scope, memory_id=record.id, actor=request_actor(request), source=Source.CONSOLE
        )
        if outcome.success:
            deleted += 1
        elif outcome.status != DeleteStatus.NOT_FOUND:
            failed += 1
    if failed:
        messages.error(
            request,
            _("已删除 %(deleted)s 条；%(failed)s 条没有删除干净或删除失败，请稍后重试。")
            % {"deleted": deleted, "failed": failed},
        )
    else:
        messages.success(
            request,
            _("已删除所选的 %(count)s 条记忆，相关实体关联和变更轨迹已一并清理。")
            % {"count": deleted},
        )
    return HttpResponseRedirect(back)
