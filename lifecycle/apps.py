from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _
from procrastinate.contrib.django.apps import ProcrastinateConfig as QueueAppConfig

from infra.app_labels import Labels, RelabelledApp


class LifecycleConfig(AppConfig):
    default = True  # this module also holds the queue's config
    name = "lifecycle"
    verbose_name = _("写入策略")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from lifecycle.ingest import ingest_forget_scope
        from memories.signals import scope_deletion_marked

        scope_deletion_marked.connect(ingest_forget_scope, dispatch_uid="ingest_forget_scope")


class ProcrastinateConfig(RelabelledApp, QueueAppConfig):
    """Procrastinate (the task queue ingest runs on), its tables named in the page's language."""

    default = False
    verbose_name = _("任务队列")
    labels: Labels = {
        "procrastinatejob": (
            _("队列任务"),
            _("队列任务"),
            {
                "id": _("编号"),
                "queue_name": _("队列"),
                "task_name": _("任务名"),
                "priority": _("优先级"),
                "lock": _("锁"),
                "args": _("参数"),
                "status": _("状态"),
                "scheduled_at": _("计划时间"),
                "attempts": _("尝试次数"),
                "queueing_lock": _("排队锁"),
                "abort_requested": _("已请求中止"),
                "worker": _("工作进程"),
            },
        ),
        "procrastinateevent": (
            _("队列事件"),
            _("队列事件"),
            {"job": _("队列任务"), "type": _("类型"), "at": _("时间")},
        ),
        "procrastinateworker": (
            _("队列工作进程"),
            _("队列工作进程"),
            {"last_heartbeat": _("最近心跳")},
        ),
        "procrastinateperiodicdefer": (
            _("定时任务记录"),
            _("定时任务记录"),
            {"task_name": _("任务名"), "periodic_id": _("定时编号")},
        ),
    }
