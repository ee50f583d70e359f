"""The sign-in pages: local login (with the platform button), logout, a refused OIDC login."""

from __future__ import annotations

import logging
from typing import Any
from urllib.parse import urlencode

import requests
from django.conf import settings
from django.contrib import auth
from django.contrib.auth import views as auth_views
from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render, resolve_url
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts import oidc

logger = logging.getLogger(__name__)


class LoginView(auth_views.LoginView):
    """Django's login form, plus "通过平台账号登录" when an identity provider is configured;
    without the local form (``POCO_LOCAL_LOGIN=0``) only the platform sign-in is offered."""

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        context["oidc_enabled"] = settings.OIDC_ENABLED
        context["local_login"] = settings.LOCAL_LOGIN_ENABLED
        reason = LOGIN_REASONS.get(self.request.GET.get("reason", ""))
        context["login_reason"] = reason() if reason else ""
        return context

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not settings.LOCAL_LOGIN_ENABLED:
            # No password is checked at all: the form is off, not merely hidden.
            context = self.get_context_data(
                local_login_refused=_("本地账号登录已关闭，请通过平台账号登录。")
            )
            return self.render_to_response(context, status=403)
        return super().post(request, *args, **kwargs)


# Why the login page is shown, named by the page that sent the browser there: the user signed
# out (the logout's redirect), or a console page found the session gone (expired or ended).
SIGNED_OUT = "signed_out"
EXPIRED = "expired"
LOGIN_REASONS = {
    SIGNED_OUT: lambda: _("你已退出登录。记忆没有任何变化，需要时再登录即可。"),
    EXPIRED: lambda: _("登录已过期，请重新登录。登录后会回到你刚才打开的页面。"),
}


def with_reason(url: str, reason: str) -> str:
    """``url`` (the login page's) saying why the browser is sent there."""
    return f"{url}{'&' if '?' in url else '?'}{urlencode({'reason': reason})}"


@require_POST
def logout(request: HttpRequest) -> HttpResponse:
    """Ends the Django session and, for a platform sign-in, the provider's session too
    (RP-initiated logout) when the provider publishes an ``end_session_endpoint``."""
    id_token = request.session.get("oidc_id_token")
    auth.logout(request)
    target = with_reason(resolve_url(settings.LOGOUT_REDIRECT_URL), SIGNED_OUT)
    if not (id_token and settings.OIDC_ENABLED):
        return HttpResponseRedirect(target)
    try:
        end_session = oidc.setting("OIDC_OP_END_SESSION_ENDPOINT")
    except (requests.RequestException, ValueError, ImproperlyConfigured):
        # Signed out here all the same; the provider's own session ends when it expires.
        logger.warning("no end_session_endpoint: the provider's session stays", exc_info=True)
        end_session = None
    if not end_session:
        return HttpResponseRedirect(target)
    params = {
        "id_token_hint": id_token,
        "client_id": settings.OIDC_RP_CLIENT_ID,
        "post_logout_redirect_uri": request.build_absolute_uri(target),
    }
    return HttpResponseRedirect(f"{end_session}?{urlencode(params)}")


REASONS = {
    oidc.CLAIMS_MISSING: lambda: _(
        "平台账号缺少确定记忆空间所需的信息（租户或用户标识），无法登录。"
    ),
    oidc.SCOPE_TAKEN: lambda: _("这个记忆空间已属于另一个账号，无法用当前平台账号登录。"),
    oidc.PROVIDER_UNREACHABLE: lambda: _("暂时无法连接平台的身份服务，请稍后再试。"),
    oidc.NOT_CONFIRMED: lambda: _("平台没有确认你的身份，登录未完成。"),
}


def oidc_refused(request: HttpRequest) -> HttpResponse:
    code = request.session.pop(oidc.REFUSED_SESSION_KEY, oidc.NOT_CONFIRMED)
    reason = REASONS.get(code, REASONS[oidc.NOT_CONFIRMED])()
    return render(request, "accounts/oidc_refused.html", {"reason": reason}, status=403)
