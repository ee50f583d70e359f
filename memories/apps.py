from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class MemoriesConfig(AppConfig):
    name = "memories"
    verbose_name = _("记忆")
    default_auto_field = "django.db.models.BigAutoField"
