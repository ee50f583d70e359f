from __future__ import annotations

from django.contrib import admin
from django.urls import include, path

from accounts import views as accounts_views
from edges.health import health, ready
from edges.metrics_view import metrics

urlpatterns = [
    path("health", health, name="health"),
    path("ready", ready, name="ready"),
    path("metrics", metrics, name="metrics"),
    path("admin/", admin.site.urls),
    path("v1/", include("edges.api.urls")),
    # Mem0's platform API for existing mem0ai clients: docs/mem0-compat.md.
    path("mem0/", include("edges.mem0_api.urls")),
    # Sign-in (accounts/): before django.contrib.auth.urls, whose login/logout these replace.
    path("accounts/login/", accounts_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", accounts_views.logout, name="logout"),
    path("accounts/oidc/", include("accounts.urls")),
    path("accounts/", include("django.contrib.auth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/v1/user-customer-settings/", include("edges.user_api.urls")),
    path("", include("edges.console.urls")),
]

# Error pages in the console's style and language (HTMX gets a fragment): edges/console/errors.py.
handler400 = "edges.console.errors.bad_request"
handler403 = "edges.console.errors.permission_denied"
handler404 = "edges.console.errors.page_not_found"
handler500 = "edges.console.errors.server_error"
