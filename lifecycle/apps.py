from __future__ import annotations

from django.apps import AppConfig


class LifecycleConfig(AppConfig):
    name = "lifecycle"
    verbose_name = "写入策略 / Write pipeline"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from lifecycle.ingest import ingest_forget_scope
        from memories.signals import scope_deletion_marked

        scope_deletion_marked.connect(ingest_forget_scope, dispatch_uid="ingest_forget_scope")
