"""A write's outcome as an admin message: the one place the admin words what a delete or a
correction did, failures as errors, never folded into success."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest
from django.utils.translation import gettext

from memories.labels import rejection_label
from memories.types import DeleteOutcome, WriteOutcome, WriteStatus


def report_deletes(request: HttpRequest, outcomes: list[DeleteOutcome]) -> None:
    """One message per kind of outcome."""
    deleted = sum(1 for o in outcomes if o.success)
    if deleted:
        messages.success(
            request, gettext("已删除 %(count)d 条记忆（通过记忆服务清理）。") % {"count": deleted}
        )
    failed: dict[str, int] = {}
    for outcome in outcomes:
        if not outcome.success:
            failed[outcome.status.value] = failed.get(outcome.status.value, 0) + 1
    for status, count in sorted(failed.items()):
        messages.error(
            request,
            gettext("%(count)d 条记忆删除失败：%(status)s。") % {"count": count, "status": status},
        )


def report_unreadable_scope(request: HttpRequest, memory_id: object) -> None:
    messages.error(request, gettext("无法识别记忆 %(id)s 的作用域。") % {"id": memory_id})


def report_correction(request: HttpRequest, outcome: WriteOutcome) -> bool:
    """The correction's outcome as a message; True when it is settled (changed, or nothing
    to change), False when the form should be shown again."""
    if outcome.status == WriteStatus.UPDATED:
        messages.success(request, gettext("已纠正，记忆 ID 保持不变。"))
        return True
    if outcome.status == WriteStatus.NO_EFFECT:
        messages.info(request, gettext("内容没有变化。"))
        return True
    # A refusal names its reason in the words staff read everywhere (contract.labels).
    detail = (
        rejection_label(outcome.reason)
        if outcome.status == WriteStatus.REJECTED and outcome.reason
        else outcome.status.value
    )
    messages.error(request, gettext("纠正失败：%(status)s。") % {"status": detail})
    return False
