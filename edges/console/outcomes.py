"""A write's outcome as the console shows it: the one table of what each refusal means and
of what each action's outage left unchanged, so nobody mistakes a failure for success.

Admission's reasons (what is never stored) are worded once, in ``memories.labels``;
the reasons the services give for refusing a change are worded here.
"""

from __future__ import annotations

from enum import StrEnum

from django.contrib import messages
from django.http import HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from memories import services
from memories.labels import REJECTION_LABELS, rejection_label
from memories.types import DeleteOutcome, DeleteStatus

Notice = dict[str, str]


class Action(StrEnum):
    ADD = "add"
    CORRECT = "correct"
    PIN = "pin"
    RESTORE = "restore"
    REVIEW = "review"
    VALIDITY = "validity"


# Why a service refused a change, by the outcome's reason.
REFUSALS = {
    services.PIN_LIMIT: gettext_lazy(
        "最多只能把 %(max)s 条记忆设为始终使用。先取消其中一条，再设置这一条。"
    ),
    "not_active": gettext_lazy("只有当前有效的记忆才能设为始终使用。"),
    "key_in_use": gettext_lazy("另一条有效记忆已经占用了同一个记忆键，这条过期记忆不能恢复。"),
    "superseded": gettext_lazy("这条记忆已被新记忆替代，不能再修改有效期。"),
}
REFUSED_DEFAULT = gettext_lazy("这段内容不能保存为记忆，请检查后重试。")

# What an outage (``backend_error``) means for each action: nothing was changed.
OUTAGES = {
    Action.ADD: gettext_lazy("添加失败：记忆服务暂时不可用，没有保存任何内容。请稍后重试。"),
    Action.CORRECT: gettext_lazy("纠正失败：记忆服务暂时不可用，原内容没有改变。请稍后重试。"),
    Action.PIN: gettext_lazy("设置失败：记忆服务暂时不可用，没有改变。请稍后重试。"),
    Action.RESTORE: gettext_lazy("恢复失败：记忆服务暂时不可用，内容没有改变。请稍后重试。"),
    Action.REVIEW: gettext_lazy("确认失败：记忆服务暂时不可用，请稍后重试。"),
    Action.VALIDITY: gettext_lazy("修改失败：记忆服务暂时不可用，有效期没有改变。请稍后重试。"),
}


def notice(level: str, text: str) -> Notice:
    """A notice the page shows beside what it is about (``level``: success, info, error)."""
    return {"level": level, "text": text}


def refusal_text(reason: str | None) -> str:
    """Why the write was refused, in the console's words."""
    reason = reason or ""
    if reason in REFUSALS:
        return str(REFUSALS[reason]) % {"max": services.MAX_PINS}
    if reason in REJECTION_LABELS:
        return _("%(reason)s，不能保存为记忆。") % {"reason": rejection_label(reason)}
    return str(REFUSED_DEFAULT)


def outage_text(action: Action) -> str:
    return str(OUTAGES[action])


def delete_failure(outcome: DeleteOutcome, *, everything: bool) -> str:
    """A delete that did not finish: what is gone and what is not."""
    if outcome.status == DeleteStatus.PARTIAL_CLEANUP:
        if everything:
            return _(
                "删除没有完全完成：已删除 %(count)s 条记忆，但部分实体关联或变更轨迹未能清理。"
                "请稍后重试或联系管理员。"
            ) % {"count": outcome.deleted_count}
        return _(
            "删除没有完全完成：这条记忆的正文已删除，但实体关联或变更轨迹未能清理。"
            "请联系管理员处理。"
        )
    if everything:
        return _("删除失败：记忆服务暂时不可用，记忆没有被删除。请稍后重试。")
    return _("删除失败：记忆服务暂时不可用，这条记忆没有被删除。请稍后重试。")


NOTICE_LEVELS = {"success": messages.SUCCESS, "error": messages.ERROR}


def keep_notice(request: HttpRequest, shown: Notice | None) -> None:
    """The notice as a message: shown at the top of the next page, or of the fragment's page
    (``oob_messages``), where it replaces the last action's."""
    if shown:
        messages.add_message(
            request, NOTICE_LEVELS.get(shown["level"], messages.INFO), shown["text"]
        )
