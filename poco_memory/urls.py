from __future__ import annotations

from django.contrib import admin
from django.urls import include, path

from poco_memory.health import health

urlpatterns = [
    path("health", health, name="health"),
    path("admin/", admin.site.urls),
    path("v1/", include("memories.api.urls")),
]
