from __future__ import annotations

from django.apps import AppConfig


class MemoriesConfig(AppConfig):
    name = "memories"
    verbose_name = "记忆 / Memories"
    default_auto_field = "django.db.models.BigAutoField"
