"""The memory admin's own pages: correcting one memory, and one user's support page."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from edges.admin.memories.outcomes import report_correction
from edges.admin.memories.staff import record_view, staff_actor
from edges.support import support_page
from memories.labels import category_choices
from memories.models import AuditEvent
from memories.scope import scope_for_staff_entry, scope_from_key
from memories.services import MAX_FACT_LENGTH, memory_update, staff_view_record
from memories.types import ScopeError, Source

if TYPE_CHECKING:
    from edges.admin.memories.memory_rows import MemoryRowAdmin


class CorrectionForm(forms.Form):
    text = forms.CharField(
        label=_("记忆内容"), max_length=MAX_FACT_LENGTH, widget=forms.Textarea(attrs={"rows": 5})
    )
    category = forms.ChoiceField(label=_("类别"), choices=category_choices())


def correct_view(model_admin: MemoryRowAdmin, request: HttpRequest, object_id: str) -> HttpResponse:
    """Correct one memory through the service, as its owner would (same id, same trail)."""
    if not model_admin.can_correct(request):
        raise PermissionDenied
    # As the change page looks it up: an id that is not a UUID is no memory (not a 500).
    row = model_admin.get_object(request, unquote(object_id))
    if row is None:
        raise Http404
    change_url = reverse("admin:memories_memoryrow_change", args=[row.pk])
    if request.method == "POST":
        form = CorrectionForm(request.POST)
        if form.is_valid():
            try:
                scope = scope_from_key(row.scope_key)
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
            if report_correction(request, outcome):
                return HttpResponseRedirect(change_url)
    else:
        form = CorrectionForm(initial={"text": row.content, "category": row.category})
        record_view(request, row.scope_key, AuditEvent.Page.CORRECT, memory_id=str(row.pk))
    context = {
        **model_admin.admin_site.each_context(request),
        "title": gettext("纠正记忆"),
        "opts": model_admin.opts,
        "original": row,
        "form": form,
        "change_url": change_url,
    }
    return TemplateResponse(request, "admin/memories/memoryrow/correct.html", context)


def support_view(model_admin: MemoryRowAdmin, request: HttpRequest) -> HttpResponse:
    """A user's memories, ingest jobs, rejected ingests by reason (counts, no content),
    explicit-writer runs, switches and audit trail on one page (``edges.support``).
    Opening it for a user is recorded first, so the page lists this view too."""
    if not model_admin.has_view_permission(request):
        raise PermissionDenied
    raw = (request.GET.get("scope") or "").strip()
    context: dict[str, Any] = {
        **model_admin.admin_site.each_context(request),
        "title": gettext("用户支持视图"),
        "opts": model_admin.opts,
        "raw_scope": raw,
    }
    if raw:
        try:
            scope = scope_for_staff_entry(raw)
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
