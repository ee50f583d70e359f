"""Mounted at ``/api/v1/user-customer-settings/``; the list is GET …/memories/vector."""

from __future__ import annotations

from django.urls import path

from edges.user_api import views

app_name = "user_api"

urlpatterns = [
    path("memories/vector", views.MemoryListApi.as_view(), name="memory-list"),
    path("memories/search", views.MemorySearchApi.as_view(), name="memory-search"),
    path("memories/overview", views.OverviewApi.as_view(), name="overview"),
    path("memories/topics", views.TopicsApi.as_view(), name="topics"),
    path(
        "memories/export.json",
        views.MemoryExportApi.as_view(),
        {"kind": "json"},
        name="export-json",
    ),
    path(
        "memories/export.csv", views.MemoryExportApi.as_view(), {"kind": "csv"}, name="export-csv"
    ),
    path("memories/delete-all", views.MemoryDeleteAllApi.as_view(), name="memory-delete-all"),
    path("memories/set-category", views.MemorySetCategoryApi.as_view(), name="memory-set-category"),
    path("memories/import", views.MemoryImportApi.as_view(), name="memory-import"),
    path(
        "memories/import/preview",
        views.MemoryImportPreviewApi.as_view(),
        name="memory-import-preview",
    ),
    path("memories/switches", views.SwitchesApi.as_view(), name="switches"),
    path("memories/switches/update", views.SwitchesUpdateApi.as_view(), name="switches-update"),
    path("memories/<uuid:memory_id>", views.MemoryDetailApi.as_view(), name="memory-detail"),
    path("memories/<uuid:memory_id>/related", views.RelatedApi.as_view(), name="related"),
    path("memories/<uuid:memory_id>/history", views.HistoryApi.as_view(), name="history"),
    path("memories/<uuid:memory_id>/update", views.MemoryUpdateApi.as_view(), name="memory-update"),
    path("memories/<uuid:memory_id>/delete", views.MemoryDeleteApi.as_view(), name="memory-delete"),
    path("memories/<uuid:memory_id>/pin", views.MemoryPinApi.as_view(), name="memory-pin"),
]
