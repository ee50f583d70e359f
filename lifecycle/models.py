"""The write pipeline's own tables: the one-writer-per-run ledger and ingest jobs."""

from __future__ import annotations

import uuid

from django.db import models
from django.db.models.functions import Now
from django.utils.translation import gettext_lazy as _


class RunLedger(models.Model):
    """A run whose agent called /manage: from then on it is the run's only writer."""

    tenant_id = models.CharField(_("租户"), max_length=64)
    user_id = models.CharField(_("用户"), max_length=64)
    run_id = models.CharField(_("任务"), max_length=128)
    explicit_action = models.CharField(_("显式操作"), max_length=16)
    created_at = models.DateTimeField(_("时间"), auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["tenant_id", "user_id", "run_id"], name="ledger_one_row_per_run"
            )
        ]
        verbose_name = _("显式写入记录")
        verbose_name_plural = _("显式写入记录")

    def __str__(self) -> str:
        return f"{self.tenant_id}:{self.user_id} run {self.run_id}"


class IngestJob(models.Model):
    """One admitted auto-ingest candidate and what became of it."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("排队中")
        RUNNING = "running", _("处理中")
        RETRYING = "retrying", _("等待重试")
        SUCCEEDED = "succeeded", _("已写入")
        NO_EFFECT = "no_effect", _("无新事实")
        SKIPPED = "skipped", _("已跳过")
        FAILED = "failed", _("失败")

    FINAL = (Status.SUCCEEDED, Status.NO_EFFECT, Status.SKIPPED, Status.FAILED)
    WAITING = (Status.QUEUED, Status.RETRYING)

    id = models.UUIDField(_("编号"), primary_key=True, default=uuid.uuid4, editable=False)
    tenant_id = models.CharField(_("租户"), max_length=64)
    user_id = models.CharField(_("用户"), max_length=64)
    run_id = models.CharField(_("任务"), max_length=128, blank=True, default="")
    source = models.CharField(_("来源"), max_length=32)
    run_kind = models.CharField(_("任务类型"), max_length=32, blank=True, default="")
    # The admitted (cleaned) messages; emptied once the job is final so no raw text lingers.
    messages = models.JSONField(_("消息"), default=list, blank=True)
    metadata = models.JSONField(_("元数据"), default=dict, blank=True)
    status = models.CharField(
        _("状态"), max_length=16, choices=Status.choices, default=Status.QUEUED
    )
    attempts = models.PositiveSmallIntegerField(_("尝试次数"), default=0)
    inserted_count = models.PositiveIntegerField(_("写入条数"), default=0)
    memory_ids = models.JSONField(_("写入的记忆"), default=list, blank=True)
    reason = models.CharField(_("原因"), max_length=200, blank=True, default="")
    # When the candidate was accepted, on the database's clock: compared with deletion marks
    # (memories.DeletionMark) written by other nodes whose clocks may differ.
    created_at = models.DateTimeField(_("时间"), db_default=Now(), db_index=True)
    updated_at = models.DateTimeField(_("更新时间"), auto_now=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("自动沉淀任务")
        verbose_name_plural = _("自动沉淀任务")

    def __str__(self) -> str:
        return f"ingest {self.id} ({self.status})"


class IngestRejection(models.Model):
    """A candidate admission refused: who, which run, why and when — never its content, so
    staff can count what was turned away without seeing secrets."""

    tenant_id = models.CharField(_("租户"), max_length=64)
    user_id = models.CharField(_("用户"), max_length=64)
    run_id = models.CharField(_("任务"), max_length=128, blank=True, default="")
    source = models.CharField(_("来源"), max_length=32)
    reason = models.CharField(_("原因"), max_length=64)
    created_at = models.DateTimeField(_("时间"), db_default=Now(), db_index=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["tenant_id", "user_id"], name="rejection_scope")]
        verbose_name = _("被拒绝的沉淀")
        verbose_name_plural = _("被拒绝的沉淀")

    def __str__(self) -> str:
        return f"{self.tenant_id}:{self.user_id} {self.reason}"
