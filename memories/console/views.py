"""记忆管理: the user's memory console, server-rendered with HTMX partials.

Every view acts for the signed-in user only: the scope comes from ``scope_for_user`` and
nothing in the URL, query string or form can widen it.  Another user's memory id answers
exactly like a missing one (404), so the console never confirms that it exists.

Outcomes are shown as they are, so nobody mistakes a failure for success: ``partial_cleanup``
and ``backend_error`` are failures with a failure status, a search outage is "unavailable",
never "no results".
"""

from __future__ import annotations

import dataclasses
import functools
import uuid
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, QueryDict
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import Resolver404, resolve, reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import HttpResponseClientRedirect, reswap, retarget
from django_htmx.middleware import HtmxDetails

from accounts.views import EXPIRED, with_reason
from memories import selectors, services
from memories.admission.preview import AdmissionPreview, preview_text
from memories.console import charts
from memories.console.activity import with_last_changed, with_use
from memories.console.forms import (
    SEMANTIC_TOP_K,
    DeleteAllForm,
    ListFilters,
    MemoryAddForm,
    MemoryEditForm,
    MemoryFilterForm,
    SelectedForm,
    SwitchesForm,
)
from memories.console.governance import ValidityForm, governance_item
from memories.console.links import with_hosts
from memories.console.presenters import (
    history_items,
    memory_item,
    origin_item,
    related_item,
    search_item,
)
from memories.context import BUDGET_CHARS, MAX_FACTS
from memories.contract.labels import category_label, delete_all_phrase, source_label
from memories.contract.outcomes import Edge, http_status
from memories.scope import scope_for_user
from memories.support import staff_views
from memories.types import (
    Actor,
    ActorKind,
    Category,
    DeleteOutcome,
    DeleteStatus,
    ListQuery,
    MemoryForbidden,
    MemoryNotFound,
    MemoryRecord,
    MemoryScope,
    SearchFilters,
    SearchResult,
    Source,
    StatusFilter,
    WriteOutcome,
    WriteStatus,
)

TOPIC_LIMIT = 30
# "谁查看过我的记忆": the newest support reads shown on the settings page.
STAFF_VIEWS_SHOWN = 20
RELATED_LIMIT = 5
DRAFT_KEY = "console_draft"
# The forms whose typed text survives signing out elsewhere or an expired form: the add page
# and the inline editor (its page).
DRAFT_PAGES = ("memory_add", "memory_edit")


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


View = Callable[..., HttpResponse]


def console_login_required(view: View) -> View:
    """``login_required`` that also works for HTMX: a partial must not swap the login page
    into a fragment, so the browser is sent to the login page instead."""

    @functools.wraps(view)
    def wrapper(request: HtmxHttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.user.is_authenticated:
            return view(request, *args, **kwargs)
        back = request.get_full_path()
        if request.htmx:
            back = request.htmx.current_url_abs_path or back
        return _to_login(request, back)

    return wrapper


def _to_login(request: HtmxHttpRequest, back: str) -> HttpResponse:
    """To the login page, and from there to ``back`` (the whole page, for HTMX too); the page
    says the session expired when the browser still named one that is gone."""
    url = redirect_to_login(back).url
    if _session_gone(request):
        url = with_reason(url, EXPIRED)
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return HttpResponseRedirect(url)


def _session_gone(request: HttpRequest) -> bool:
    """The browser sent a session cookie whose session no longer exists (it expired, or the
    user signed out in another tab)."""
    key = request.COOKIES.get(settings.SESSION_COOKIE_NAME) or ""
    return bool(key) and not request.session.exists(key)


# --- what was typed survives signing out ---------------------------------------------------
def keeps_draft(view: View) -> View:
    """A form sent after signing out in another tab: keep what was typed in the (anonymous)
    session, which survives signing in again, so the form's page can offer it back. Only to
    the same account: the form names who typed it."""

    @functools.wraps(view)
    def wrapper(request: HtmxHttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            page = keep_draft(request)
            if page:
                return _to_login(request, page)
        return view(request, *args, **kwargs)

    return wrapper


def keep_draft(request: HttpRequest) -> str:
    """Keep the typed text of the add form or the inline editor in the session, for that form's
    page to offer back (after signing in again, or after the form was refused as expired); the
    page's address, or "" when nothing was kept."""
    text = request.POST.get("text", "") if request.method == "POST" else ""
    if not text or _url_name(request) not in DRAFT_PAGES:
        return ""
    request.session[DRAFT_KEY] = {
        "text": text[: services.MAX_FACT_LENGTH],
        "category": request.POST.get("category", ""),
        "author": request.POST.get("author", ""),
        "page": request.path,
    }
    return request.path


def _url_name(request: HttpRequest) -> str:
    """The console's name for the requested page ("" for any other)."""
    try:
        match = resolve(request.path_info, urlconf=getattr(request, "urlconf", None))
    except Resolver404:
        return ""
    return str(match.url_name) if match.namespace == "console" else ""


def _restored_draft(request: HttpRequest) -> dict[str, str] | None:
    """The draft kept for this page, once, and only for the account that typed it."""
    draft = request.session.get(DRAFT_KEY)
    if not isinstance(draft, dict) or draft.get("page") != request.path:
        return None
    del request.session[DRAFT_KEY]
    return draft if draft.get("author") == request.user.get_username() else None


def _scope(request: HttpRequest) -> MemoryScope:
    return scope_for_user(request.user)


def _actor(request: HttpRequest) -> Actor:
    return Actor(kind=ActorKind.USER, id=request.user.get_username())


def _swaps_fragment(request: HtmxHttpRequest) -> bool:
    """An HTMX swap of part of the page (a history restore asks for the whole page)."""
    return bool(request.htmx) and not request.htmx.history_restore_request


def _partial(request: HtmxHttpRequest, template: str, fragment: str) -> str:
    """The fragment for an HTMX swap; the whole page otherwise (and on history restore)."""
    return f"{template}#{fragment}" if _swaps_fragment(request) else template


def _owned_record(scope: MemoryScope, memory_id: uuid.UUID) -> MemoryRecord | None:
    try:
        return selectors.memory_get(scope=scope, memory_id=str(memory_id))
    except (MemoryNotFound, MemoryForbidden):
        return None


def _not_found(request: HtmxHttpRequest) -> HttpResponse:
    if request.htmx:
        return render(request, "console/_not_found.html", status=404)
    raise Http404(_("记忆不存在或已被删除。"))


def for_owned_memory(view: View) -> View:
    """A by-id page of the signed-in user's own memory: the view gets the scope and the record;
    an id that is unknown or another user's answers "not found"."""

    @functools.wraps(view)
    def wrapper(request: HtmxHttpRequest, memory_id: uuid.UUID) -> HttpResponse:
        scope = _scope(request)
        record = _owned_record(scope, memory_id)
        if record is None:
            return _not_found(request)
        return view(request, scope, record)

    return wrapper


def _notice(level: str, text: str) -> dict[str, str]:
    return {"level": level, "text": text}


NOTICE_LEVELS = {"success": messages.SUCCESS, "error": messages.ERROR}


def _keep_notice(request: HttpRequest, notice: dict[str, str] | None) -> None:
    """The notice as a message: shown at the top of the next page, or of the fragment's page
    (``oob_messages``), where it replaces the last action's."""
    if notice:
        messages.add_message(
            request, NOTICE_LEVELS.get(notice["level"], messages.INFO), notice["text"]
        )


def _detail_redirect(
    request: HtmxHttpRequest, record: MemoryRecord, notice: dict[str, str] | None
) -> HttpResponse:
    """Back to the memory's page (no HTMX), the notice shown there as a message."""
    _keep_notice(request, notice)
    return redirect("console:memory_detail", memory_id=record.id)


def _heat(scope: MemoryScope) -> tuple[tuple[charts.HeatCell, ...], int]:
    """The most linked topics without noise phrases, and how many topics are not shown."""
    topics = [
        t
        for t in selectors.topic_heatmap(scope=scope, limit=TOPIC_LIMIT)
        if not charts.is_noise_topic(t)
    ]
    return charts.heat_cells(topics), max(0, selectors.topic_count(scope=scope) - len(topics))


def _learned(scope: MemoryScope) -> dict[str, Any]:
    """ "最近记住的": the memories agents wrote lately that wait for the user's look."""
    learned = selectors.memories_recently_learned(scope=scope)
    return {"items": [memory_item(r) for r in learned.items], "unreviewed": learned.unreviewed}


# --- overview ---------------------------------------------------------------------------------
@console_login_required
@require_GET
def overview(request: HtmxHttpRequest) -> HttpResponse:
    scope = _scope(request)
    data = selectors.memory_overview(scope=scope)
    heat, more_topics = _heat(scope)
    context = {
        "overview": data,
        "learned": _learned(scope),
        "learned_days": selectors.LEARNED_DAYS,
        "heat": heat,
        "more_topics": more_topics,
        "trend": charts.trend_chart(data.daily),
        "trend_wide": charts.trend_chart(data.daily, **charts.TREND_WIDE),
        "sources": charts.donut(data.sources, source_label),
        "categories": charts.bar_chart(
            data.categories, [c.value for c in Category], category_label
        ),
        "switches": selectors.memory_switches(scope=scope),
    }
    return render(request, "console/overview.html", context)


# --- list and search --------------------------------------------------------------------------
@console_login_required
@require_GET
@vary_on_headers("HX-Request", "HX-Target")
def memories(request: HtmxHttpRequest) -> HttpResponse:
    scope = _scope(request)
    form = MemoryFilterForm(request.GET)
    filters = form.filters()
    heat, more_topics = _heat(scope)
    context: dict[str, Any] = {
        "form": form,
        "filters": filters,
        "heat": heat,
        "more_topics": more_topics,
        "topic_label": next((c.text for c in heat if c.id == filters.topic), filters.topic),
        "oob_filter_count": _swaps_fragment(request),
    }
    status = 200
    if filters.semantic:
        result = _meaning_search(scope, filters)
        context |= {"search": result, "items": [search_item(h) for h in result.items]}
        if not result.available:
            status = 503
    else:
        page = _list_page(scope, filters)
        if page.page != filters.page and not request.htmx:
            # past the end (a stale link, a typed number): the address says the page shown
            return redirect(f"{request.path}{_query_with(request, page=page.page)}")
        items = with_use(scope, with_last_changed(scope, [memory_item(r) for r in page.items]))
        context |= {"page": page, "items": items, "reversed_dates": filters.reversed_dates}
    if not request.htmx or request.htmx.history_restore_request:  # the whole page, its header
        context["has_memories"] = bool(
            selectors.memory_list(
                scope=scope, query=ListQuery(page_size=1, status=StatusFilter.ALL)
            ).total
        )
    # Typing swaps only the results (the search box keeps its focus and what was typed since);
    # filters, topics and the topic chip swap the whole list body.
    fragment = "results" if request.htmx.target == "results" else "list-body"
    template = _partial(request, "console/memory_list.html", fragment)
    return render(request, template, context, status=status)


def _query_with(request: HttpRequest, **changes: Any) -> str:
    query = request.GET.copy()
    for key, value in changes.items():
        query[key] = str(value)
    return f"?{query.urlencode()}"


def _list_page(scope: MemoryScope, filters: ListFilters) -> selectors.MemoryPage:
    query = filters.list_query()
    page = selectors.memory_list(scope=scope, query=query)
    if page.total and page.page > page.pages:  # a stale link after deletes: show the last page
        last = dataclasses.replace(query, page=page.pages)
        page = selectors.memory_list(scope=scope, query=last)
    return page


# --- detail and correction --------------------------------------------------------------------
def _history_context(
    record: MemoryRecord, entries: tuple[selectors.HistoryEntry, ...]
) -> dict[str, Any]:
    """The memory, its history and "最近更新": what every change on the detail page updates."""
    history = history_items(entries, current_text=record.content)
    return {
        "memory": memory_item(record),
        "history": history,
        # "最近更新" is the newest entry of the history shown beside it, so the two agree;
        # the payload's clock only when there is no history.
        "last_changed_at": history[0].created_at if history else record.updated_at,
    }


def _detail_context(scope: MemoryScope, record: MemoryRecord) -> dict[str, Any]:
    entries = selectors.memory_history(scope=scope, memory_id=record.id)
    origin = origin_item(record, entries, run_url_template=settings.RUN_URL_TEMPLATE)
    if origin.run_id:
        origin = dataclasses.replace(
            origin,
            run_memory_count=selectors.memory_list(
                scope=scope,
                query=ListQuery(run_id=origin.run_id, status=StatusFilter.ALL, page_size=1),
            ).total,
        )
    return {
        **_history_context(record, entries),
        "governance": governance_item(record),
        "origin": origin,
        "use": selectors.memory_use(scope=scope, memory_id=record.id),
        "max_pins": services.MAX_PINS,
        # what the automatic context takes each run (the pin help names these limits)
        "context_facts": MAX_FACTS,
        "context_chars": BUDGET_CHARS,
        # Only what clears search's own relevance floor: the nearest of unrelated facts is
        # still unrelated ("没有密切相关的记忆" instead).
        "related": [
            related_item(r)
            for r in selectors.memory_related(scope=scope, memory_id=record.id, limit=RELATED_LIMIT)
            if r.score >= settings.SEARCH_MIN_SCORE
        ],
    }


@console_login_required
@require_GET
@vary_on_headers("HX-Request", "HX-Target")
@for_owned_memory
def memory_detail(
    request: HtmxHttpRequest, scope: MemoryScope, record: MemoryRecord
) -> HttpResponse:
    context = _detail_context(scope, record)
    if request.htmx and request.htmx.target == "fact-card":  # "cancel" of the inline editor
        context["oob_messages"] = True
        return render(request, "console/memory_detail.html#fact-card", context)
    return render(request, "console/memory_detail.html", context)


@keeps_draft
@console_login_required
@require_http_methods(["GET", "POST"])
@vary_on_headers("HX-Request")
@for_owned_memory
def memory_edit(request: HtmxHttpRequest, scope: MemoryScope, record: MemoryRecord) -> HttpResponse:
    if request.method != "POST":
        draft = _restored_draft(request)
        if draft is not None:
            initial = {"text": draft["text"], "category": draft["category"] or record.category}
            restored = _("你之前输入的纠正已恢复，还没有保存。检查后点“保存纠正”。")
            notice = _notice("info", restored)
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
        actor=_actor(request),
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
        **_detail_context(scope, record),
        "form": form,
        "notice": notice,
        "cleaning": cleaning,
        "cleaning_hosts": hosts,
        # opening or sending the editor clears the last action's notice
        "oob_messages": _swaps_fragment(request),
    }
    template = _partial(request, "console/memory_detail.html", "fact-card")
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


REJECTED_DEFAULT = gettext_lazy("这段内容不能保存为记忆，请检查后重试。")
REJECTION_MESSAGES = {
    "credential": gettext_lazy("内容包含密钥、密码或令牌等凭据，不能保存为记忆。"),
    "sensitive_identifier": gettext_lazy(
        "内容包含身份证号、手机号、银行卡号、护照号或邮箱地址，不能保存为记忆。"
    ),
    "empty_after_cleaning": gettext_lazy("去掉日志、代码、路径和链接后没有剩下可保存的内容。"),
}


def _after_update(
    request: HtmxHttpRequest,
    scope: MemoryScope,
    record: MemoryRecord,
    form: MemoryEditForm,
    outcome: WriteOutcome,
) -> HttpResponse:
    if outcome.status in (WriteStatus.NOT_FOUND, WriteStatus.FORBIDDEN):
        return _not_found(request)
    if outcome.status == WriteStatus.REJECTED:
        form.add_error("text", REJECTION_MESSAGES.get(outcome.reason or "", REJECTED_DEFAULT))
        return _edit_response(
            request, scope, record, form, status=http_status(outcome.status, Edge.CONSOLE)
        )
    if outcome.status == WriteStatus.BACKEND_ERROR:
        failure = _("纠正失败：记忆服务暂时不可用，原内容没有改变。请稍后重试。")
        return _edit_response(
            request,
            scope,
            record,
            form,
            status=http_status(outcome.status, Edge.CONSOLE),
            notice=_notice("error", failure),
        )
    if outcome.status == WriteStatus.UPDATED:
        saved = _("已纠正。记忆 ID 保持不变，这次修改已记入变更轨迹。")
        notice = _notice("success", f"{saved}{_removed_note(form)}")
    else:
        notice = _notice("info", _("内容没有变化，无需保存。"))
    if not request.htmx:
        return _detail_redirect(request, record, notice)
    updated = _owned_record(scope, uuid.UUID(record.id))
    if updated is None:
        return _not_found(request)
    _keep_notice(request, notice)
    context = {**_detail_context(scope, updated), "oob_messages": True}
    response = render(request, "console/memory_detail.html#detail-body", context)
    return reswap(retarget(response, "#detail-body"), "innerHTML")


# --- adding by hand ---------------------------------------------------------------------------
ADD_FAILED = gettext_lazy("添加失败：记忆服务暂时不可用，没有保存任何内容。请稍后重试。")


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
    scope = _scope(request)
    if request.method != "POST":
        draft = _restored_draft(request)
        if draft is not None:
            initial = {"text": draft["text"], "category": draft["category"] or Category.FACT}
            restored = _("你退出登录前输入的内容已恢复，还没有保存。检查后点“保存”。")
            return _add_page(
                request, MemoryAddForm(initial=initial), notice=_notice("info", restored)
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
        actor=_actor(request),
        category=form.cleaned_data["category"],
        source=Source.CONSOLE,
        valid_until=form.valid_until(),
    )
    if outcome.status == WriteStatus.REJECTED:
        form.add_error("text", REJECTION_MESSAGES.get(outcome.reason or "", REJECTED_DEFAULT))
        return _add_page(request, form, status=422)
    if not outcome.success or not outcome.memory_id:
        notice = _notice("error", str(ADD_FAILED))
        return _add_page(
            request, form, status=http_status(outcome.status, Edge.CONSOLE), notice=notice
        )
    if outcome.status == WriteStatus.NO_EFFECT:
        messages.info(request, _("这条记忆已经存在，没有重复保存。"))
    else:
        added = _("已添加这条记忆。")
        messages.success(request, f"{added}{_removed_note(form)}")
    return redirect("console:memory_detail", memory_id=outcome.memory_id)


VALIDITY_MESSAGES = {
    "key_in_use": gettext_lazy("另一条有效记忆已经占用了同一个记忆键，这条过期记忆不能恢复。"),
    "superseded": gettext_lazy("这条记忆已被新记忆替代，不能再修改有效期。"),
}


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
            actor=_actor(request),
            source=Source.CONSOLE,
        )
        if outcome.status in (WriteStatus.NOT_FOUND, WriteStatus.FORBIDDEN):
            return _not_found(request)
        status = http_status(outcome.status, Edge.CONSOLE)
        if outcome.status == WriteStatus.UPDATED:
            notice = _notice("success", _("有效期已更新，这次修改已记入变更轨迹。"))
        elif outcome.status == WriteStatus.NO_EFFECT:
            notice = _notice("info", _("有效期没有变化。"))
        elif outcome.status == WriteStatus.REJECTED:
            notice = _notice("error", str(VALIDITY_MESSAGES.get(outcome.reason or "", "")))
        else:
            failure = _("修改失败：记忆服务暂时不可用，有效期没有改变。请稍后重试。")
            notice = _notice("error", failure)
    if not request.htmx:
        return _detail_redirect(request, record, notice)
    current = _owned_record(scope, uuid.UUID(record.id)) or record
    entries = selectors.memory_history(scope=scope, memory_id=record.id)
    context = {
        **_history_context(current, entries),
        "governance": governance_item(current),
        "governance_notice": notice,
        "validity_form": form,
    }
    return render(request, "console/_validity_result.html", context, status=status)


# --- deletion ---------------------------------------------------------------------------------
def _delete_failure(outcome: DeleteOutcome, *, everything: bool) -> str:
    if outcome.status == DeleteStatus.PARTIAL_CLEANUP:
        if everything:
            return _(
                "删除没有完全完成：已删除 %(count)s 条记忆，但部分实体关联或变更轨迹未能清理。"
                "请稍后重试或联系管理员。"
            ) % {"count": outcome.deleted_count}
        return _(
            "删除没有完全完成：这条记忆的正文已删除，但实体关联或变更轨迹未能清理。"
            "请联系管理员处理。"
        )
    if everything:
        return _("删除失败：记忆服务暂时不可用，记忆没有被删除。请稍后重试。")
    return _("删除失败：记忆服务暂时不可用，这条记忆没有被删除。请稍后重试。")


def _list_url(candidate: str) -> str:
    """``candidate`` if it is this console's list (with its filters), else ""."""
    if candidate.startswith(reverse("console:memories")) and url_has_allowed_host_and_scheme(
        candidate, allowed_hosts=None
    ):
        return candidate
    return ""


def _list_to_return_to(request: HttpRequest) -> str:
    """Where a bulk action on the list's rows goes back to: the list as it was filtered."""
    return _list_url(request.POST.get("next", "")) or reverse("console:memories")


def _success_redirect(request: HtmxHttpRequest, url: str) -> HttpResponse:
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return HttpResponseRedirect(url)


@console_login_required
@require_http_methods(["GET", "POST"])
@vary_on_headers("HX-Request")
@for_owned_memory
def memory_delete(
    request: HtmxHttpRequest, scope: MemoryScope, record: MemoryRecord
) -> HttpResponse:
    back_to_list = _list_url(request.POST.get("next") or request.GET.get("next", ""))
    context: dict[str, Any] = {"memory": memory_item(record), "back_to_list": back_to_list}
    if request.method != "POST":
        return render(request, _partial(request, "console/memory_delete.html", "confirm"), context)
    outcome = services.memory_delete(
        scope=scope, memory_id=record.id, actor=_actor(request), source=Source.CONSOLE
    )
    if outcome.status in (DeleteStatus.NOT_FOUND, DeleteStatus.FORBIDDEN):
        return _not_found(request)
    if outcome.success:
        messages.success(request, _("已删除这条记忆，相关实体关联和变更轨迹已一并清理。"))
        return _success_redirect(request, back_to_list or reverse("console:memories"))
    context["failure"] = _delete_failure(outcome, everything=False)
    context["outcome"] = outcome
    return render(
        request,
        _partial(request, "console/memory_delete.html", "confirm"),
        context,
        status=http_status(outcome.status, Edge.CONSOLE),
    )


@console_login_required
@require_http_methods(["GET", "POST"])
@vary_on_headers("HX-Request")
def memory_delete_all(request: HtmxHttpRequest) -> HttpResponse:
    scope = _scope(request)
    form = DeleteAllForm(request.POST if request.method == "POST" else None)
    context: dict[str, Any] = {
        "form": form,
        "phrase": delete_all_phrase(),
        "total": selectors.memory_list(scope=scope, query=ListQuery(page_size=1)).total,
    }
    template = _partial(request, "console/memory_delete_all.html", "delete-all-form")
    if request.method != "POST":
        return render(request, template, context)
    if not form.is_valid():
        return render(request, template, context, status=422)
    outcome = services.memory_delete_user(scope=scope, actor=_actor(request), source=Source.CONSOLE)
    if outcome.success:
        messages.success(
            request,
            _("已删除全部 %(count)s 条记忆，相关实体关联和变更轨迹已一并清理。")
            % {"count": outcome.deleted_count},
        )
        return _success_redirect(request, reverse("console:memories"))
    context |= {
        "failure": _delete_failure(outcome, everything=True),
        "outcome": outcome,
        "total": selectors.memory_list(scope=scope, query=ListQuery(page_size=1)).total,
    }
    return render(request, template, context, status=http_status(outcome.status, Edge.CONSOLE))


def _meaning_search(scope: MemoryScope, filters: ListFilters) -> SearchResult:
    """The list's search by meaning: the page and "all matching" ask it the same way."""
    return selectors.memory_search(
        scope=scope,
        query=filters.q,
        top_k=SEMANTIC_TOP_K,
        filters=SearchFilters(category=filters.category, source=filters.source),
    )


MAX_SELECTED = 100
# "选择全部 N 条匹配的记忆": the rows the list's filter matches, read again here (never ids the
# page sent), at most this many in one confirmation.
MAX_MATCHING = 500


def _selected_records(
    request: HtmxHttpRequest, scope: MemoryScope, back: str
) -> list[MemoryRecord]:
    """The signed-in user's memories a bulk action is for: every one the list at ``back``
    matches when "all matching" was chosen, else the ticked ids (unknown ones dropped)."""
    if request.POST.get("all_matching") == "1":
        query = QueryDict(urlsplit(back).query)
        filters = MemoryFilterForm(query).filters()
        if filters.semantic:
            result = _meaning_search(scope, filters)
            ids = [h.id for h in result.items]
        else:
            ids = []
            page_number = 1
            while len(ids) < MAX_MATCHING:
                base = dataclasses.replace(filters, page=page_number)
                page = selectors.memory_list(scope=scope, query=base.list_query(page_size=100))
                ids += [r.id for r in page.items]
                if page_number >= page.pages:
                    break
                page_number += 1
        raw_ids = ids[:MAX_MATCHING]
    else:
        raw_ids = request.POST.getlist("ids")[:MAX_SELECTED]
    records = []
    for raw in raw_ids:
        try:
            memory_id = uuid.UUID(str(raw))
        except ValueError:
            continue
        record = _owned_record(scope, memory_id)
        if record is not None:
            records.append(record)
    return records


@console_login_required
@require_http_methods(["POST"])
def memory_delete_selected(request: HtmxHttpRequest) -> HttpResponse:
    """Delete the rows ticked in the list: a confirmation page naming them, then one
    ``memory_delete`` each (typed confirmation is only for delete-all)."""
    scope = _scope(request)
    back = _list_to_return_to(request)
    records = _selected_records(request, scope, back)
    if not records:
        messages.info(request, _("没有选中记忆。先勾选要删除的记忆，再点“删除所选”。"))
        return HttpResponseRedirect(back)
    if request.POST.get("confirmed") != "1":
        context = {"items": [memory_item(r) for r in records], "back": back}
        return render(request, "console/memory_delete_selected.html", context)
    deleted, failed = 0, 0
    for record in records:
        outcome = services.memory_delete(
            scope=scope, memory_id=record.id, actor=_actor(request), source=Source.CONSOLE
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


PIN_MESSAGES = {
    services.PIN_LIMIT: gettext_lazy(
        "最多只能把 %(max)s 条记忆设为始终使用。先取消其中一条，再设置这一条。"
    ),
    "not_active": gettext_lazy("只有当前有效的记忆才能设为始终使用。"),
}


@console_login_required
@require_http_methods(["POST"])
@for_owned_memory
def memory_pin(request: HtmxHttpRequest, scope: MemoryScope, record: MemoryRecord) -> HttpResponse:
    """始终使用: the context endpoint gives pinned memories its first places."""
    pinned = request.POST.get("pinned") == "1"
    outcome = services.memory_pin(
        scope=scope, memory_id=record.id, pinned=pinned, actor=_actor(request)
    )
    if outcome.status in (WriteStatus.NOT_FOUND, WriteStatus.FORBIDDEN):
        return _not_found(request)
    if outcome.status in (WriteStatus.REJECTED, WriteStatus.BACKEND_ERROR):
        text = PIN_MESSAGES.get(outcome.reason or "")
        failure = (
            str(text) % {"max": services.MAX_PINS}
            if text
            else _("设置失败：记忆服务暂时不可用，没有改变。请稍后重试。")
        )
        messages.error(request, failure)
        status = http_status(outcome.status, Edge.CONSOLE)
        return render(
            request, "console/memory_detail.html", _detail_context(scope, record), status=status
        )
    if outcome.status == WriteStatus.UPDATED:
        messages.success(
            request,
            _("已设为始终使用：Agent 每次自动参考记忆时都会先考虑它。")
            if pinned
            else _("已取消始终使用：它会像其他记忆一样，只在相关时被参考。"),
        )
    return redirect("console:memory_detail", memory_id=record.id)


RESTORE_FAILED = gettext_lazy("恢复失败：记忆服务暂时不可用，内容没有改变。请稍后重试。")


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
        return _not_found(request)
    outcome = services.memory_restore_version(
        scope=scope, memory_id=record.id, event_id=event_id, actor=_actor(request)
    )
    if outcome.status in (WriteStatus.NOT_FOUND, WriteStatus.FORBIDDEN):
        return _not_found(request)
    if outcome.status == WriteStatus.UPDATED:
        notice = _notice("success", _("已恢复为这一版，这次恢复已记入变更轨迹。"))
    elif outcome.status == WriteStatus.NO_EFFECT:
        notice = _notice("info", _("这一版和当前内容相同，没有改变。"))
    elif outcome.status == WriteStatus.REJECTED:
        reason = REJECTION_MESSAGES.get(outcome.reason or "", REJECTED_DEFAULT)
        notice = _notice("error", _("不能恢复这一版：%(reason)s") % {"reason": reason})
    else:
        notice = _notice("error", str(RESTORE_FAILED))
    return _detail_redirect(request, record, notice)


@console_login_required
@require_http_methods(["POST"])
def memory_review(request: HtmxHttpRequest, memory_id: uuid.UUID) -> HttpResponse:
    """ "最近记住的" on the overview: 确认 (keep it as it is, marked reviewed; pins nothing) or
    忘记 (delete it), then back to the overview."""
    scope = _scope(request)
    record = _owned_record(scope, memory_id)
    if record is None:
        return _not_found(request)
    if request.POST.get("action") == "forget":
        deleted = services.memory_delete(
            scope=scope, memory_id=record.id, actor=_actor(request), source=Source.CONSOLE
        )
        if deleted.success:
            messages.success(request, _("已忘记这条记忆。"))
        else:
            messages.error(request, _delete_failure(deleted, everything=False))
    else:
        outcome = services.memory_mark_reviewed(
            scope=scope, memory_id=record.id, actor=_actor(request)
        )
        if outcome.status == WriteStatus.BACKEND_ERROR:
            messages.error(request, _("确认失败：记忆服务暂时不可用，请稍后重试。"))
        else:
            messages.success(request, _("已确认这条记忆，它会保留原样。"))
    return redirect("console:overview")


@console_login_required
@require_http_methods(["POST"])
def memory_set_category(request: HtmxHttpRequest) -> HttpResponse:
    """One category for the rows ticked in the list; back to the list with its filters."""
    scope = _scope(request)
    form = SelectedForm(request.POST)
    back = _list_to_return_to(request)
    records = _selected_records(request, scope, back)
    if not records:
        messages.info(request, _("没有选中记忆。先勾选要修改的记忆，再选类别。"))
        return HttpResponseRedirect(back)
    if not form.is_valid():
        context = {"form": form, "items": [memory_item(r) for r in records], "back": back}
        return render(request, "console/memory_set_category.html", context, status=422)
    category = form.cleaned_data["category"]
    outcomes = services.memories_set_category(
        scope=scope, memory_ids=[r.id for r in records], category=category, actor=_actor(request)
    )
    changed = sum(1 for o in outcomes if o.status == WriteStatus.UPDATED)
    if any(o.status == WriteStatus.BACKEND_ERROR for o in outcomes):
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
    scope = _scope(request)
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
        notice = _notice("success", saved)
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
    return render(request, _partial(request, "console/switches.html", "switches-form"), context)
