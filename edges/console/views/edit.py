"""Correcting a memory and adding one by hand: the same admission, the same preview of what
it removes, and what is typed kept across signing out (``drafts``)."""

from __future__ import annotations

import uuid
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import reswap, retarget

from edges.console import outcomes
from edges.console.forms import MemoryAddForm, MemoryEditForm
from edges.console.links import with_hosts
from edges.console.outcomes import Action
from edges.console.views.base import (
    HtmxHttpRequest,
    console_login_required,
    detail_redirect,
    for_owned_memory,
    not_found,
    owned_record,
    partial,
    request_actor,
    request_scope,
    swaps_fragment,
)
from edges.console.views.detail import detail_context
from edges.console.views.drafts import keeps_draft, restored_draft
from edges.contract.outcomes import Edge, http_status
from memories import services
from memories.admission.preview import AdmissionPreview, preview_text
from memories.types import Category, MemoryRecord, MemoryScope, Source, WriteOutcome, WriteStatus


@keeps_draft
@console_login_required
@require_http_methods(["GET", "POST"])
@vary_on_headers("HX-Request")
@for_owned_memory
def memory_edit(request: HtmxHttpRequest, scope: MemoryScope, record: MemoryRecord) -> HttpResponse:
    if request.method != "POST":
        draft = restored_draft(request)
        if draft is not None:
            initial = {"text": draft["text"], "category": draft["category"] or record.category}
            restored = _("你之前输入的纠正已恢复，还没有保存。检查后点“保存纠正”。")
            notice = outcomes.notice("info", restored)
            return _edit_response(
                request, scope, record, MemoryEditForm(initial=initial), notice=notice
            )
        form = MemoryEditForm(initial={"text": record.content, "category": record.category})
        return _edit_response(request, scope, record, form)
    form = MemoryEditForm(request.POST)
    if not form.is_valid():
        return _edit_response(request, scope, record, form, status=422)
    cleaning = _unaccepted_cleaning(form)
    if cleaning is not None:
        return _edit_response(
            request, scope, record, form, cleaning=cleaning, hosts=host_version(cleaning_text(form))
        )
    outcome = services.memory_update(
        scope=scope,
        memory_id=record.id,
        text=form.cleaned_data["text"],
        category=form.cleaned_data["category"],
        actor=request_actor(request),
        source=Source.CONSOLE,
    )
    return _after_update(request, scope, record, form, outcome)


def _edit_response(
    request: HtmxHttpRequest,
    scope: MemoryScope,
    record: MemoryRecord,
    form: MemoryEditForm,
    *,
    status: int = 200,
    notice: dict[str, str] | None = None,
    cleaning: AdmissionPreview | None = None,
    hosts: str = "",
) -> HttpResponse:
    context = {
        **detail_context(scope, record),
        "form": form,
        "notice": notice,
        "cleaning": cleaning,
        "cleaning_hosts": hosts,
        # opening or sending the editor clears the last action's notice
        "oob_messages": swaps_fragment(request),
    }
    template = partial(request, "console/memory_detail.html", "fact-card")
    return render(request, template, context, status=status)


def _unaccepted_cleaning(form: MemoryEditForm) -> AdmissionPreview | None:
    """What admission would cut out of the typed text, unless the person already saw and
    accepted exactly that result. ``None``: save as typed (a refusal is the service's to say).

    Choosing "保留整句" saves the text with its links as host names instead, when that is
    exactly what was shown and admission keeps it whole."""
    text = form.cleaned_data["text"]
    hosts = host_version(text)
    if hosts and form.data.get("keep_hosts") == hosts:
        form.cleaned_data["text"] = hosts
        return None
    preview = preview_text(source=Source.CONSOLE, text=text)
    if not preview.changes_text or form.cleaned_data.get("accept_cleaned") == preview.text:
        return None
    return preview


def cleaning_text(form: MemoryEditForm) -> str:
    return str(form.cleaned_data["text"])


def host_version(text: str) -> str:
    """The text with its links as host names, if that differs and admission keeps it whole."""
    hosts = with_hosts(text)
    if hosts == text:
        return ""
    preview = preview_text(source=Source.CONSOLE, text=hosts)
    return "" if not preview.admitted or preview.changes_text else preview.text


def _removed_note(form: MemoryEditForm) -> str:
    """ " Removed: …" for the success message when the saved text was cleaned, else ""."""
    preview = preview_text(source=Source.CONSOLE, text=form.cleaned_data["text"])
    if not preview.changes_text:
        return ""
    return _("已按你的确认去掉：%(parts)s。") % {
        "parts": "、".join(f"“{p}”" for p in preview.removed)
    }


def _after_update(
    request: HtmxHttpRequest,
    scope: MemoryScope,
    record: MemoryRecord,
    form: MemoryEditForm,
    outcome: WriteOutcome,
) -> HttpResponse:
    if outcome.status in (WriteStatus.NOT_FOUND, WriteStatus.FORBIDDEN):
        return not_found(request)
    if outcome.status == WriteStatus.REJECTED:
        form.add_error("text", outcomes.refusal_text(outcome.reason))
        return _edit_response(
            request, scope, record, form, status=http_status(outcome.status, Edge.CONSOLE)
        )
    if outcome.status == WriteStatus.BACKEND_ERROR:
        return _edit_response(
            request,
            scope,
            record,
            form,
            status=http_status(outcome.status, Edge.CONSOLE),
            notice=outcomes.notice("error", outcomes.outage_text(Action.CORRECT)),
        )
    if outcome.status == WriteStatus.UPDATED:
        saved = _("已纠正。记忆 ID 保持不变，这次修改已记入变更轨迹。")
        notice = outcomes.notice("success", f"{saved}{_removed_note(form)}")
    else:
        notice = outcomes.notice("info", _("内容没有变化，无需保存。"))
    if not request.htmx:
        return detail_redirect(request, record, notice)
    updated = owned_record(scope, uuid.UUID(record.id))
    if updated is None:
        return not_found(request)
    outcomes.keep_notice(request, notice)
    context = {**detail_context(scope, updated), "oob_messages": True}
    response = render(request, "console/memory_detail.html#detail-body", context)
    return reswap(retarget(response, "#detail-body"), "innerHTML")


# --- adding by hand ---------------------------------------------------------------------------
def _add_page(
    request: HtmxHttpRequest, form: MemoryAddForm, *, status: int = 200, **extra: Any
) -> HttpResponse:
    context = {"form": form, "default_lifetime_days": settings.MEMORY_LIFETIME_DAYS, **extra}
    return render(request, "console/memory_add.html", context, status=status)


@keeps_draft
@console_login_required
@require_http_methods(["GET", "POST"])
def memory_add(request: HtmxHttpRequest) -> HttpResponse:
    """Add a fact by hand: the same admission as every write, the same preview of what it
    removes, and an optional expiry."""
    scope = request_scope(request)
    if request.method != "POST":
        draft = restored_draft(request)
        if draft is not None:
            initial = {"text": draft["text"], "category": draft["category"] or Category.FACT}
            restored = _("你退出登录前输入的内容已恢复，还没有保存。检查后点“保存”。")
            return _add_page(
                request, MemoryAddForm(initial=initial), notice=outcomes.notice("info", restored)
            )
        return _add_page(request, MemoryAddForm(initial={"category": Category.FACT}))
    form = MemoryAddForm(request.POST)
    if not form.is_valid():
        return _add_page(request, form, status=422)
    cleaning = _unaccepted_cleaning(form)
    if cleaning is not None:
        return _add_page(
            request, form, cleaning=cleaning, cleaning_hosts=host_version(cleaning_text(form))
        )
    outcome = services.memory_add(
        scope=scope,
        text=form.cleaned_data["text"],
        actor=request_actor(request),
        category=form.cleaned_data["category"],
        source=Source.CONSOLE,
        valid_until=form.valid_until(),
    )
    if outcome.status == WriteStatus.REJECTED:
        form.add_error("text", outcomes.refusal_text(outcome.reason))
        return _add_page(request, form, status=422)
    if not outcome.success or not outcome.memory_id:
        notice = outcomes.notice("error", outcomes.outage_text(Action.ADD))
        return _add_page(
            request, form, status=http_status(outcome.status, Edge.CONSOLE), notice=notice
        )
    if outcome.status == WriteStatus.NO_EFFECT:
        messages.info(request, _("这条记忆已经存在，没有重复保存。"))
    else:
        added = _("已添加这条记忆。")
        messages.success(request, f"{added}{_removed_note(form)}")
    return redirect("console:memory_detail", memory_id=outcome.memory_id)
