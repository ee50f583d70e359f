"""Error responses in the console's own look and language (handler400/403/404/500, the CSRF
failure view and the database-outage page).

A browser gets a full page; an HTMX request gets a fragment that says what happened and offers
a reload (HTMX swaps 4xx/5xx into its target, see base.html). API paths get JSON, which the
API's own error handling normally answers before these run. A page is rendered with the
request (the console's header for a signed-in user) and, when that fails because the session or
the database is what broke, again without it.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils.functional import Promise
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext_lazy as _

from edges.contract.errors import API_PREFIXES, CODE_FOR_STATUS
from edges.contract.errors import error_response as api_error_response

StrOrPromise = str | Promise


@dataclass(frozen=True)
class ErrorPage:
    status: int
    title: StrOrPromise
    message: StrOrPromise
    reload: bool = True  # reloading cannot help a page that does not exist
    # The button to the page that picks up where the refused request left off (its address
    # is the response's: ``error_response(…, resume=…)``).
    resume_label: StrOrPromise = ""


BAD_REQUEST = ErrorPage(400, _("请求无效"), _("请求无法处理，请返回后重试。"))
FORBIDDEN = ErrorPage(403, _("没有权限"), _("你没有权限查看这个页面。"), reload=False)
NOT_FOUND = ErrorPage(
    404,
    _("页面不存在"),
    _("你要找的页面或记忆不存在，或已被删除。"),
    reload=False,
)
SERVER_ERROR = ErrorPage(500, _("服务暂时出错了"), _("请求没有完成，请稍后重试。"))
UNAVAILABLE = ErrorPage(
    503,
    _("记忆服务暂时不可用"),
    _("现在无法读取记忆，这不代表你的记忆是空的。已保存的内容没有变化，请稍后刷新重试。"),
)
# A stale form or tab (signed out or in again elsewhere): nothing was saved, reload.
CSRF_FAILED = ErrorPage(
    403,
    _("页面已过期"),
    _("页面已过期（可能在别处退出或重新登录过），这次修改没有保存。请刷新页面后重试。"),
)


def error_response(request: HttpRequest, page: ErrorPage, *, resume: str = "") -> HttpResponse:
    if request.path.startswith(API_PREFIXES):
        return api_error_response(page.status, CODE_FOR_STATUS.get(page.status, "error"))
    context: dict[str, object] = {"page": page, "resume": resume}
    template = "errors/page.html"
    if _wants_fragment(request):
        context["reload_url"] = _current_page(request)
        template = "errors/_fragment.html"
    return HttpResponse(_render(request, template, context), status=page.status)


def _render(request: HttpRequest, template: str, context: dict[str, object]) -> str:
    """With the request when it can be had (the signed-in header, navigation and language
    switch); without it when the session or the database is what failed."""
    try:
        return render_to_string(template, context, request=request)
    except Exception:  # noqa: BLE001 - an error page must render whatever broke
        return render_to_string(template, {**context, "bare": True})


def _wants_fragment(request: HttpRequest) -> bool:
    # A history restore asks for the whole page even though it comes from HTMX.
    return (
        request.headers.get("HX-Request") == "true"
        and request.headers.get("HX-History-Restore-Request") != "true"
    )


def _current_page(request: HttpRequest) -> str:
    """The page the user is on (HTMX sends it); reloading the fragment's URL would be wrong."""
    current = request.headers.get("HX-Current-URL", "")
    if current and url_has_allowed_host_and_scheme(current, allowed_hosts={request.get_host()}):
        return current
    return ""  # an empty href reloads the document


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return error_response(request, BAD_REQUEST)


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return error_response(request, FORBIDDEN)


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return error_response(request, NOT_FOUND)


def server_error(request: HttpRequest) -> HttpResponse:
    return error_response(request, SERVER_ERROR)


def service_unavailable(request: HttpRequest) -> HttpResponse:
    return error_response(request, UNAVAILABLE)


# The add form or the inline editor refused as expired (a sign-in elsewhere renewed the form's
# token): what was typed is kept and offered back on the form's page.
CSRF_FAILED_DRAFT_KEPT = ErrorPage(
    403,
    _("页面已过期"),
    _(
        "页面已过期（可能在别处退出或重新登录过），这次没有保存。"
        "你输入的内容已经保留，点“恢复输入的内容”即可检查后再保存。"
    ),
    reload=False,
    resume_label=_("恢复输入的内容"),
)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    if _from_our_own_page(request):
        from edges.console.views import keep_draft

        resume = keep_draft(request)
        if resume:
            return error_response(request, CSRF_FAILED_DRAFT_KEPT, resume=resume)
    return error_response(request, CSRF_FAILED)


def _from_our_own_page(request: HttpRequest) -> bool:
    """A post from our own page (its Origin or Referer is this site): a stale form, not another
    site's forged post, whose text must never reach a form."""
    source = request.headers.get("Origin") or request.headers.get("Referer") or ""
    return bool(source) and url_has_allowed_host_and_scheme(
        source, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
