from __future__ import annotations

from django.contrib import admin
from django.urls import include, path

from poco_memory.health import health
from poco_memory.metrics_view import metrics

urlpatterns = [
    path("health", health, name="health"),
    path("metrics", metrics, name="metrics"),
    path("admin/", admin.site.urls),
    path("v1/", include("memories.api.urls")),
    path("accounts/", include("django.contrib.auth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/v1/user-customer-settings/", include("memories.user_api.urls")),
    path("", include("memories.console.urls")),
]
