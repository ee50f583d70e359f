from __future__ import annotations

from django.apps import AppConfig


class LifecycleConfig(AppConfig):
    name = "lifecycle"
    verbose_name = "写入策略 / Write pipeline"
    default_auto_field = "django.db.models.BigAutoField"
