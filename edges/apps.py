from __future__ import annotations

from django.apps import AppConfig


class EdgesConfig(AppConfig):
    """An app without models: installed so that Django finds the doors' admin pages
    (``edges.admin``), template tags and management commands."""

    name = "edges"
