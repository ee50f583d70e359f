from __future__ import annotations

from django.urls import path

from edges.console import export, importing
from edges.console.views import browse, delete, detail, edit, marks, validity

app_name = "console"

urlpatterns = [
    path("", browse.overview, name="overview"),
    path("memories/", browse.memories, name="memories"),
    path("memories/new/", edit.memory_add, name="memory_add"),
    path("memories/export.json", export.memory_export, {"kind": "json"}, name="export_json"),
    path("memories/export.csv", export.memory_export, {"kind": "csv"}, name="export_csv"),
    path("memories/delete-all/", delete.memory_delete_all, name="memory_delete_all"),
    path("memories/delete-selected/", delete.memory_delete_selected, name="memory_delete_selected"),
    path("memories/set-category/", marks.memory_set_category, name="memory_set_category"),
    path("memories/import/", importing.memory_import, name="memory_import"),
    path("memories/<uuid:memory_id>/", detail.memory_detail, name="memory_detail"),
    path("memories/<uuid:memory_id>/edit/", edit.memory_edit, name="memory_edit"),
    path("memories/<uuid:memory_id>/delete/", delete.memory_delete, name="memory_delete"),
    path("memories/<uuid:memory_id>/validity/", validity.memory_validity, name="memory_validity"),
    path("memories/<uuid:memory_id>/pin/", marks.memory_pin, name="memory_pin"),
    path("memories/<uuid:memory_id>/restore/", marks.memory_restore, name="memory_restore"),
    path("memories/<uuid:memory_id>/review/", marks.memory_review, name="memory_review"),
    path("settings/", marks.switches, name="switches"),
    path("favicon.ico", marks.favicon, name="favicon"),
]
