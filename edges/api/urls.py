from __future__ import annotations

from django.urls import path
from drf_spectacular.views import SpectacularAPIView

from edges.api import views

app_name = "v1"

urlpatterns = [
    path("memories/search", views.SearchView.as_view(), name="search"),
    path("memories/context", views.ContextView.as_view(), name="context"),
    path("memories/ingest", views.IngestView.as_view(), name="ingest"),
    path("memories/ingest/<uuid:job_id>", views.IngestStatusView.as_view(), name="ingest-status"),
    path("memories/manage", views.ManageView.as_view(), name="manage"),
    path("memories/list-user", views.ListUserView.as_view(), name="list-user"),
    path("memories/overview", views.OverviewView.as_view(), name="overview"),
    path("memories/topics", views.TopicsView.as_view(), name="topics"),
    path("memories/related", views.RelatedView.as_view(), name="related"),
    path("memories/history", views.HistoryView.as_view(), name="history"),
    path("memories/update-item", views.UpdateItemView.as_view(), name="update-item"),
    path("memories/delete-item", views.DeleteItemView.as_view(), name="delete-item"),
    path("memories/delete-user", views.DeleteUserView.as_view(), name="delete-user"),
    path("memories/export", views.ExportView.as_view(), name="export"),
    path("memories/import", views.ImportView.as_view(), name="import"),
    path("schema", SpectacularAPIView.as_view(), name="schema"),
]
