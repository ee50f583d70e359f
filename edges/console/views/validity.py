"""A memory's expiry: extended by a year, set to a day, or cleared."""

from __future__ import annotations

import uuid

from django.http import HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods
from django.views.decorators.vary import vary_on_headers

from edges.console import outcomes
from edges.console.governance import ValidityForm, governance_item
from edges.console.outcomes import Action
from edges.console.views.base import (
    HtmxHttpRequest,
    console_login_required,
    detail_redirect,
    for_owned_memory,
    not_found,
    owned_record,
    request_actor,
)
from edges.console.views.detail import history_context
from edges.contract.outcomes import Edge, http_status
from memories import selectors, services
from memories.types import MemoryRecord, MemoryScope, Source, WriteStatus


@console_login_required
@require_http_methods(["POST"])
@vary_on_headers("HX-Request")
@for_owned_memory
def memory_validity(
    request: HtmxHttpRequest, scope: MemoryScope, record: MemoryRecord
) -> HttpResponse:
    """Extend (one year or to a chosen day) or clear a memory's expiry."""
    form = ValidityForm(request.POST)
    status = 200
    if not form.is_valid():
        notice, status = None, 422
    else:
        outcome = services.memory_set_validity(
            scope=scope,
            memory_id=record.id,
            valid_until=form.valid_until(record.valid_until),
            actor=request_actor(request),
            source=Source.CONSOLE,
        )
        if outcome.status in (WriteStatus.NOT_FOUND, WriteStatus.FORBIDDEN):
            return not_found(request)
        status = http_status(outcome.status, Edge.CONSOLE)
        if outcome.status == WriteStatus.UPDATED:
            notice = outcomes.notice("success", _("有效期已更新，这次修改已记入变更轨迹。"))
        elif outcome.status == WriteStatus.NO_EFFECT:
            notice = outcomes.notice("info", _("有效期没有变化。"))
        elif outcome.status == WriteStatus.REJECTED:
            notice = outcomes.notice("error", outcomes.refusal_text(outcome.reason))
        else:
            notice = outcomes.notice("error", outcomes.outage_text(Action.VALIDITY))
    if not request.htmx:
        return detail_redirect(request, record, notice)
    current = owned_record(scope, uuid.UUID(record.id)) or record
    entries = selectors.memory_history(scope=scope, memory_id=record.id)
    context = {
        **history_context(current, entries),
        "governance": governance_item(current),
        "governance_notice": notice,
        "validity_form": form,
    }
    return render(request, "console/_validity_result.html", context, status=status)
