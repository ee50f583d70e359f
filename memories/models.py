"""Tables.

``MemoryRow`` and ``EntityRow`` are read-only views of Mem0's own tables: lists, counts and
trends read them directly, so the console keeps working when the SDK cannot start.
Every write to them goes through ``memories.engine``.
"""

from __future__ import annotations

from typing import Any

from django.db import models
from django.db.models.functions import Now
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from pgvector.django import VectorField

from memories.digests import keyed_digest
from memories.text import normalize_quotes
from memories.types import ActorKind


class ReadOnlyModel(models.Model):
    class Meta:
        abstract = True

    def save(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError(f"{type(self).__name__} is read-only: write through memories.services")

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise TypeError(f"{type(self).__name__} is read-only: write through memories.services")


class MemoryRow(ReadOnlyModel):
    """One memory in ``poco_memories`` (Mem0's main table)."""

    id = models.UUIDField(primary_key=True)
    vector = VectorField()
    payload = models.JSONField(default=dict)

    class Meta:
        managed = False
        db_table = "poco_memories"
        verbose_name = _("记忆")
        verbose_name_plural = _("记忆")

    def __str__(self) -> str:
        return str(self.payload.get("data", ""))[:60]

    @property
    def content(self) -> str:
        return str(self.payload.get("data", ""))

    @property
    def scope_key(self) -> str:
        return str(self.payload.get("user_id", ""))

    @property
    def category(self) -> str:
        return str(self.payload.get("category") or "fact")

    @property
    def source(self) -> str:
        return str(self.payload.get("source") or "manage")


class EntityRow(ReadOnlyModel):
    """One entity in ``poco_memories_entities`` (Mem0's derived entity index)."""

    id = models.UUIDField(primary_key=True)
    vector = VectorField()
    payload = models.JSONField(default=dict)

    class Meta:
        managed = False
        db_table = "poco_memories_entities"
        verbose_name = _("实体")
        verbose_name_plural = _("实体")

    def __str__(self) -> str:
        return str(self.payload.get("data", ""))

    @property
    def linked_memory_ids(self) -> list[str]:
        return [str(i) for i in self.payload.get("linked_memory_ids") or []]


class AuditEvent(models.Model):
    """Who changed which memory, when, and how. A delete leaves only a content-free tombstone.

    ``VIEW`` rows are staff reading a user's memories in the admin: who, when and
    which page (``page``), for one memory (``memory_id``) or a page of them (none) — never a
    memory's text or what staff searched for. They are not changes: histories and "last
    changed" leave them out (``CHANGE_EVENTS``).
    """

    class Event(models.TextChoices):
        ADD = "ADD", _("新增")
        UPDATE = "UPDATE", _("更新")
        DELETE = "DELETE", _("删除")
        NOOP = "NOOP", _("无变化")
        VIEW = "VIEW", _("员工查看")

    class Page(models.TextChoices):
        MEMORY = "memory", _("记忆详情")
        MEMORY_LIST = "memory_list", _("记忆列表")
        CORRECT = "correct", _("纠正记忆")
        SUPPORT = "support", _("用户支持视图")
        ENTITY = "entity", _("实体详情")  # lists the entity's memories

    memory_id = models.UUIDField(_("记忆"), null=True, blank=True, db_index=True)
    tenant_id = models.CharField(_("租户"), max_length=64)
    user_id = models.CharField(_("用户"), max_length=64)
    event = models.CharField(_("事件"), max_length=8, choices=Event.choices)
    actor_kind = models.CharField(
        _("操作者类型"), max_length=16, choices=[(a.value, a.value) for a in ActorKind]
    )
    actor_id = models.CharField(_("操作者"), max_length=128, blank=True, default="")
    source = models.CharField(_("来源"), max_length=16, blank=True, default="")
    run_id = models.CharField(_("任务"), max_length=128, blank=True, default="")
    old_text = models.TextField(_("原内容"), blank=True, default="")
    new_text = models.TextField(_("新内容"), blank=True, default="")
    status = models.CharField(_("状态"), max_length=32, blank=True, default="")
    # What else an UPDATE changed, as {"field": [old, new]} (e.g. the category), so the history
    # can say what changed when the text did not. Never holds memory text.
    changes = models.JSONField(_("其他变更"), default=dict, blank=True)
    # Why staff opened the user's memories, when they said (a VIEW row; the user's settings
    # page shows it). Staff's words, never memory text.
    reason = models.CharField(_("原因"), max_length=200, blank=True, default="")
    # Which admin page a VIEW row records (empty for changes).
    page = models.CharField(_("页面"), max_length=16, blank=True, default="", choices=Page.choices)
    created_at = models.DateTimeField(_("时间"), default=timezone.now, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["tenant_id", "user_id", "created_at"], name="audit_scope_time")
        ]
        verbose_name = _("变更记录")
        verbose_name_plural = _("变更记录")

    def __str__(self) -> str:
        return f"{self.event} {self.memory_id or self.page}"


# The events that change a memory: what histories and "last changed" read (not VIEW).
CHANGE_EVENTS = (
    AuditEvent.Event.ADD,
    AuditEvent.Event.UPDATE,
    AuditEvent.Event.DELETE,
    AuditEvent.Event.NOOP,
)


class MemorySettings(models.Model):
    """The user's two switches; both on unless the user turns them off."""

    tenant_id = models.CharField(_("租户"), max_length=64)
    user_id = models.CharField(_("用户"), max_length=64)
    memory_save_enabled = models.BooleanField(_("保存记忆"), default=True)
    memory_reference_enabled = models.BooleanField(_("参考记忆"), default=True)
    updated_at = models.DateTimeField(_("更新时间"), auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tenant_id", "user_id"], name="settings_one_per_scope")
        ]
        verbose_name = _("记忆设置")
        verbose_name_plural = _("记忆设置")

    def __str__(self) -> str:
        return f"{self.tenant_id}:{self.user_id}"


class DeletionMark(models.Model):
    """A delete-user (``memory_id`` empty) or delete-item of a scope, and when it happened.

    In-flight writers that were accepted earlier obey it: an ingest job accepted before a
    scope mark never writes; one accepted before an item mark does not re-add that fact. An item
    mark keeps only a keyed digest of the deleted text (never the text) and is pruned once no
    job that could re-add it is pending (``lifecycle`` upkeep).
    """

    tenant_id = models.CharField(max_length=64)
    user_id = models.CharField(max_length=64)
    memory_id = models.UUIDField(null=True, blank=True)
    fact_digest = models.CharField(max_length=64, blank=True, default="")
    # The database's clock, like IngestJob.created_at: web and worker nodes may disagree.
    created_at = models.DateTimeField(db_default=Now())

    class Meta:
        indexes = [
            models.Index(fields=["tenant_id", "user_id", "created_at"], name="deletion_scope_time")
        ]
        verbose_name = _("删除标记")
        verbose_name_plural = _("删除标记")

    def __str__(self) -> str:
        what = self.memory_id or "all"
        return f"{self.tenant_id}:{self.user_id} deleted {what}"

    @staticmethod
    def digest_of(text: str) -> str:
        """A keyed digest of a fact's normalised text: it matches a re-extraction of the same
        fact, and without the server's secret it reveals nothing about the text."""
        return keyed_digest(" ".join(normalize_quotes(text).split()))


class MemoryUse(models.Model):
    """How often, and when last, agents were given one memory: recalled by a search or injected
    as context. Counts and times only — never the query, the input or who asked.

    Written by ``memories.usage.count_use`` alone; a row goes with its memory (the services'
    deletes, and a trigger on ``poco_memories`` for any other delete).
    """

    memory_id = models.UUIDField(_("记忆"), primary_key=True)
    tenant_id = models.CharField(_("租户"), max_length=64)
    user_id = models.CharField(_("用户"), max_length=64)
    recalled_count = models.PositiveIntegerField(_("被检索次数"), default=0)
    last_recalled_at = models.DateTimeField(_("最近被检索"), null=True, blank=True)
    injected_count = models.PositiveIntegerField(_("被注入次数"), default=0)
    last_injected_at = models.DateTimeField(_("最近被注入"), null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["tenant_id", "user_id"], name="memory_use_scope")]
        verbose_name = _("使用统计")
        verbose_name_plural = _("使用统计")

    def __str__(self) -> str:
        return f"{self.memory_id}: {self.recalled_count} + {self.injected_count}"
