"""Marks on memories: pinned (始终使用), restored to a past text, reviewed or forgotten from
the overview, a category for the ticked rows; and the two switches."""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods
from django.views.decorators.vary import vary_on_headers

from edges.console import outcomes
from edges.console.forms import SelectedForm, SwitchesForm
from edges.console.outcomes import Action
from edges.console.presenters import memory_item
from edges.console.views.base import (
    HtmxHttpRequest,
    console_login_required,
    detail_redirect,
    for_owned_memory,
    list_to_return_to,
    not_found,
    owned_record,
    partial,
    request_actor,
    request_scope,
)
from edges.console.views.detail import detail_context
from edges.console.views.selection import selected_records
from edges.contract.outcomes import Edge, http_status
from edges.support import staff_views
from memories import selectors, services
from memories.labels import category_label
from memories.types import MemoryRecord, MemoryScope, Source, WriteStatus

# "谁查看过我的记忆": the newest support reads shown on the settings page.
STAFF_VIEWS_SHOWN = 20


@console_login_required
@require_http_methods(["POST"])
@for_owned_memory
def memory_pin(request: HtmxHttpRequest, scope: MemoryScope, record: MemoryRecord) -> HttpResponse:
    """始终使用: the context endpoint gives pinned memories its first places."""
    pinned = request.POST.get("pinned") == "1"
    outcome = services.memory_pin(
        scope=scope, memory_id=record.id, pinned=pinned, actor=request_actor(request)
    )
    if outcome.status in (WriteStatus.NOT_FOUND, WriteStatus.FORBIDDEN):
        return not_found(request)
    if outcome.status in (WriteStatus.REJECTED, WriteStatus.BACKEND_ERROR):
        failure = (
            outcomes.refusal_text(outcome.reason)
            if outcome.status == WriteStatus.REJECTED
            else outcomes.outage_text(Action.PIN)
        )
        messages.error(request, failure)
        status = http_status(outcome.status, Edge.CONSOLE)
        return render(
            request, "console/memory_detail.html", detail_context(scope, record), status=status
        )
    if outcome.status == WriteStatus.UPDATED:
        messages.success(
            request,
            _("已设为始终使用：Agent 每次自动参考记忆时都会先考虑它。")
            if pinned
            else _("已取消始终使用：它会像其他记忆一样，只在相关时被参考。"),
        )
    return redirect("console:memory_detail", memory_id=record.id)


@console_login_required
@require_http_methods(["POST"])
@for_owned_memory
def memory_restore(
    request: HtmxHttpRequest, scope: MemoryScope, record: MemoryRecord
) -> HttpResponse:
    """ "恢复为…": a past text from the change trail becomes the current one, as a correction
    (admitted again, recorded in the trail as a restore)."""
    try:
        event_id = int(request.POST.get("event", ""))
    except ValueError:
        return not_found(request)
    outcome = services.memory_restore_version(
        scope=scope, memory_id=record.id, event_id=event_id, actor=request_actor(request)
    )
    if outcome.status in (WriteStatus.NOT_FOUND, WriteStatus.FORBIDDEN):
        return not_found(request)
    if outcome.status == WriteStatus.UPDATED:
        notice = outcomes.notice("success", _("已恢复为这一版，这次恢复已记入变更轨迹。"))
    elif outcome.status == WriteStatus.NO_EFFECT:
        notice = outcomes.notice("info", _("这一版和当前内容相同，没有改变。"))
    elif outcome.status == WriteStatus.REJECTED:
        reason = outcomes.refusal_text(outcome.reason)
        notice = outcomes.notice("error", _("不能恢复这一版：%(reason)s") % {"reason": reason})
    else:
        notice = outcomes.notice("error", outcomes.outage_text(Action.RESTORE))
    return detail_redirect(request, record, notice)


@console_login_required
@require_http_methods(["POST"])
def memory_review(request: HtmxHttpRequest, memory_id: uuid.UUID) -> HttpResponse:
    """ "最近记住的" on the overview: 确认 (keep it as it is, marked reviewed; pins nothing) or
    忘记 (delete it), then back to the overview."""
    scope = request_scope(request)
    record = owned_record(scope, memory_id)
    if record is None:
        return not_found(request)
    if request.POST.get("action") == "forget":
        deleted = services.memory_delete(
            scope=scope, memory_id=record.id, actor=request_actor(request), source=Source.CONSOLE
        )
        if deleted.success:
            messages.success(request, _("已忘记这条记忆。"))
        else:
            messages.error(request, outcomes.delete_failure(deleted, everything=False))
    else:
        outcome = services.memory_mark_reviewed(
            scope=scope, memory_id=record.id, actor=request_actor(request)
        )
        if outcome.status == WriteStatus.BACKEND_ERROR:
            messages.error(request, outcomes.outage_text(Action.REVIEW))
        else:
            messages.success(request, _("已确认这条记忆，它会保留原样。"))
    return redirect("console:overview")


@console_login_required
@require_http_methods(["POST"])
def memory_set_category(request: HtmxHttpRequest) -> HttpResponse:
    """One category for the rows ticked in the list; back to the list with its filters."""
    scope = request_scope(request)
    form = SelectedForm(request.POST)
    back = list_to_return_to(request)
    records = selected_records(request, scope, back)
    if not records:
        messages.info(request, _("没有选中记忆。先勾选要修改的记忆，再选类别。"))
        return HttpResponseRedirect(back)
    if not form.is_valid():
        context = {"form": form, "items": [memory_item(r) for r in records], "back": back}
        return render(request, "console/memory_set_category.html", context, status=422)
    category = form.cleaned_data["category"]
    results = services.memories_set_category(
        scope=scope,
        memory_ids=[r.id for r in records],
        category=category,
        actor=request_actor(request),
    )
    changed = sum(1 for o in results if o.status == WriteStatus.UPDATED)
    if any(o.status == WriteStatus.BACKEND_ERROR for o in results):
        messages.error(
            request,
            _("已修改 %(changed)s 条；其余没有修改：记忆服务暂时不可用，请稍后重试。")
            % {"changed": changed},
        )
    else:
        messages.success(
            request,
            _("已把 %(count)s 条记忆的类别改为“%(category)s”，修改已记入变更轨迹。")
            % {"count": changed, "category": category_label(category)},
        )
    return HttpResponseRedirect(back)


@require_GET
def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers ask for /favicon.ico whatever the page links: send them to the icon."""
    return HttpResponseRedirect(static("console/favicon.svg"))


# --- the two switches -------------------------------------------------------------------------
@console_login_required
@require_http_methods(["GET", "POST"])
@vary_on_headers("HX-Request")
def switches(request: HtmxHttpRequest) -> HttpResponse:
    scope = request_scope(request)
    notice = None
    if request.method == "POST":
        form = SwitchesForm(request.POST)
        form.is_valid()  # two optional checkboxes: always valid, absent means off
        services.memory_switches_update(
            scope=scope,
            memory_save_enabled=form.cleaned_data["memory_save_enabled"],
            memory_reference_enabled=form.cleaned_data["memory_reference_enabled"],
        )
        saved = _("设置已保存。")
        if not request.htmx:
            messages.success(request, saved)
            return redirect("console:switches")
        notice = outcomes.notice("success", saved)
    current = selectors.memory_switches(scope=scope)
    form = SwitchesForm(
        initial={
            "memory_save_enabled": current.memory_save_enabled,
            "memory_reference_enabled": current.memory_reference_enabled,
        }
    )
    context = {
        "form": form,
        "switches": current,
        "notice": notice,
        "staff_views": staff_views(scope=scope, limit=STAFF_VIEWS_SHOWN),
    }
    return render(request, partial(request, "console/switches.html", "switches-form"), context)
