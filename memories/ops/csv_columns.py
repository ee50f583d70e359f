"""The CSV export's columns as a person reads them: headers in the active language, codes
(category, source, status) in the console's words, times in the current time zone with the
zone named in the header. The JSON export keeps the machine names and ISO times."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from memories.instants import read_instant
from memories.labels import STATUS_LABELS, category_label, source_label


@dataclass(frozen=True)
class Column:
    header: str
    value: Callable[[dict[str, Any]], Any]


def _local(value: Any) -> str:
    moment = read_instant(value)
    if moment is None:
        return str(value or "")
    return timezone.localtime(moment).strftime("%Y-%m-%d %H:%M")


def _timed(label: str) -> str:
    return _("%(label)s（%(zone)s）") % {
        "label": label,
        "zone": timezone.get_current_timezone_name(),
    }


def csv_columns() -> tuple[Column, ...]:
    """Built per call: the headers follow the language and time zone active now."""
    return (
        Column(_("内容"), lambda item: item.get("content")),
        Column(_("类别"), lambda item: category_label(item.get("category") or "")),
        Column(_("状态"), lambda item: str(STATUS_LABELS.get(item.get("status") or "", ""))),
        Column(_("来源"), lambda item: source_label(item.get("source") or "")),
        Column(_timed(_("创建时间")), lambda item: _local(item.get("created_at"))),
        Column(_timed(_("最近更新")), lambda item: _local(item.get("updated_at"))),
        Column(_timed(_("有效期至")), lambda item: _local(item.get("valid_until"))),
        Column(_("始终使用"), lambda item: _("是") if item.get("pinned") else _("否")),
        Column(_("记忆键"), lambda item: item.get("memory_key")),
        Column(_("记忆 ID"), lambda item: item.get("id")),
    )
