"""Mem0's platform paths, as ``mem0ai``'s clients call them under ``host=".../mem0"``."""

from __future__ import annotations

from django.urls import path, re_path
from drf_spectacular.views import SpectacularAPIView

from edges.mem0_api import add, memory, reads, users, views
from edges.mem0_api.schema import SETTINGS

app_name = "mem0"

urlpatterns = [
    path("v1/ping/", views.PingView.as_view(), name="ping"),
    path("v3/memories/add/", add.AddView.as_view(), name="add"),
    path("v3/memories/", reads.ListView.as_view(), name="list"),
    path("v3/memories/search/", reads.SearchView.as_view(), name="search"),
    path("v1/memories/", users.DeleteAllView.as_view(), name="delete-all"),
    path("v1/memories/<str:memory_id>/", memory.MemoryView.as_view(), name="memory"),
    path("v1/memories/<str:memory_id>/history/", memory.HistoryView.as_view(), name="history"),
    path("v1/batch/", memory.BatchView.as_view(), name="batch"),
    path("v1/feedback/", memory.FeedbackView.as_view(), name="feedback"),
    path("v1/event/<str:event_id>/", add.EventView.as_view(), name="event"),
    path("v1/entities/", users.EntitiesView.as_view(), name="entities"),
    path("v2/entities/<str:entity_type>/<str:name>/", users.EntityView.as_view(), name="entity"),
    path("schema", SpectacularAPIView.as_view(custom_settings=SETTINGS), name="schema"),
    re_path(r"^.*$", views.NotSupportedView.as_view(), name="not-supported"),
]
