"""Human names for the codes stored with a memory (category, source, status, actor, audit
event), in one module: the console, its exports and the admin all show the same words."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from memories.models import AuditEvent
from memories.types import ActorKind, Category, MemoryStatus, Source

CATEGORY_LABELS: dict[str, Promise] = {
    Category.PREFERENCE: _("偏好"),
    Category.FACT: _("事实"),
    Category.GOAL: _("目标"),
    Category.PROJECT: _("项目"),
    Category.CONSTRAINT: _("约束"),
}

SOURCE_LABELS: dict[str, Promise] = {
    Source.MANAGE: _("Agent 管理"),
    Source.INGEST: _("任务沉淀"),
    Source.CONSOLE: _("管理页"),
    Source.IMPORT: _("导入"),
    Source.ADMIN: _("后台"),
}

STATUS_LABELS: dict[str, Promise] = {
    MemoryStatus.ACTIVE: _("有效"),
    MemoryStatus.SUPERSEDED: _("已被新记忆替代"),
    MemoryStatus.EXPIRED: _("已过期"),
}

ACTOR_LABELS: dict[str, Promise] = {
    ActorKind.USER: _("用户"),
    ActorKind.AGENT: _("Agent"),
    ActorKind.STAFF: _("管理员"),
    ActorKind.SYSTEM: _("系统"),
}


def category_label(code: str) -> str:
    return str(CATEGORY_LABELS.get(code, code))


def source_label(code: str) -> str:
    return str(SOURCE_LABELS.get(code, code))


def status_label(code: str) -> str:
    return str(STATUS_LABELS.get(code, code))


def actor_label(kind: str, actor_id: str) -> str:
    name = str(ACTOR_LABELS.get(kind, kind))
    return f"{name} {actor_id}".strip()


def event_label(code: str) -> str:
    try:
        return str(AuditEvent.Event(code).label)
    except ValueError:
        return code


# What happened, said the way the person would say it: who wrote is told by
# the write path (source), never by an actor id or an event code; those stay in the admin.
HISTORY_LABELS: dict[tuple[str, str], Promise] = {
    ("ADD", Source.INGEST): _("你的助手在任务中记下"),
    ("ADD", Source.MANAGE): _("你的助手按你的要求记下"),
    ("ADD", Source.CONSOLE): _("你在管理页添加"),
    ("ADD", Source.IMPORT): _("从导入的数据中添加"),
    ("ADD", Source.ADMIN): _("管理员添加"),
    ("UPDATE", Source.INGEST): _("你的助手在任务中更新"),
    ("UPDATE", Source.MANAGE): _("你的助手按你的要求修改"),
    ("UPDATE", Source.CONSOLE): _("你在管理页纠正"),
    ("UPDATE", Source.IMPORT): _("导入时更新"),
    ("UPDATE", Source.ADMIN): _("管理员修改"),
}
HISTORY_FALLBACK: dict[str, Promise] = {"ADD": _("记下"), "UPDATE": _("修改")}


def history_label(event: str, source: str) -> str:
    label = HISTORY_LABELS.get((event, source)) or HISTORY_FALLBACK.get(event)
    return str(label) if label is not None else event_label(event)


def category_choices() -> list[tuple[str, Promise]]:
    return [(c.value, CATEGORY_LABELS[c]) for c in Category]


def source_choices() -> list[tuple[str, Promise]]:
    return [(s.value, SOURCE_LABELS[s]) for s in Source]


# Why admission refused a text, in words for staff (the code stays in the page's markup).
REJECTION_LABELS: dict[str, Promise] = {
    "credential": _("含有凭据（密钥、密码、令牌）"),
    "sensitive_identifier": _("含有身份证号、手机号、银行卡号等敏感标识"),
    "empty_after_cleaning": _("去掉日志、代码和链接后没有内容"),
    "technical_noise": _("只有日志、代码等技术内容"),
}


def rejection_label(code: str) -> str:
    return str(REJECTION_LABELS.get(code, code))


def delete_all_phrase() -> str:
    """What a person types to confirm deleting every memory (the console's delete-all, the
    admin's delete of a user's memories), in the language of the page they read."""
    return gettext("删除全部")
