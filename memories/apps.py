from __future__ import annotations

import os

from django.apps import AppConfig
from django.conf import settings
from django.utils.translation import gettext_lazy as _


class MemoriesConfig(AppConfig):
    name = "memories"
    verbose_name = _("记忆")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Mem0 reads these once, when it is first imported (only ``memories.engine`` imports it):
        # telemetry off, else a PostHog thread calls out; its folder inside our data directory,
        # else ``~/.mem0`` (Mem0 creates it).
        os.environ["MEM0_TELEMETRY"] = "False"
        os.environ["MEM0_DIR"] = str(settings.MEM0_DIR)
