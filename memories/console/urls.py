from __future__ import annotations

from django.urls import path

from memories.console import export, importing, views

app_name = "console"

urlpatterns = [
    path("", views.overview, name="overview"),
    path("memories/", views.memories, name="memories"),
    path("memories/new/", views.memory_add, name="memory_add"),
    path("memories/export.json", export.memory_export, {"kind": "json"}, name="export_json"),
    path("memories/export.csv", export.memory_export, {"kind": "csv"}, name="export_csv"),
    path("memories/delete-all/", views.memory_delete_all, name="memory_delete_all"),
    path("memories/delete-selected/", views.memory_delete_selected, name="memory_delete_selected"),
    path("memories/set-category/", views.memory_set_category, name="memory_set_category"),
    path("memories/import/", importing.memory_import, name="memory_import"),
    path("memories/<uuid:memory_id>/", views.memory_detail, name="memory_detail"),
    path("memories/<uuid:memory_id>/edit/", views.memory_edit, name="memory_edit"),
    path("memories/<uuid:memory_id>/delete/", views.memory_delete, name="memory_delete"),
    path("memories/<uuid:memory_id>/validity/", views.memory_validity, name="memory_validity"),
    path("memories/<uuid:memory_id>/pin/", views.memory_pin, name="memory_pin"),
    path("memories/<uuid:memory_id>/restore/", views.memory_restore, name="memory_restore"),
    path("memories/<uuid:memory_id>/review/", views.memory_review, name="memory_review"),
    path("settings/", views.switches, name="switches"),
    path("favicon.ico", views.favicon, name="favicon"),
]
