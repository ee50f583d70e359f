"""Template filters of the console: matched words highlighted in list results, and spans of
time in the words a person uses ("刚刚", "约 1 年 11 个月")."""

from __future__ import annotations

import re
from datetime import datetime

from django import template
from django.utils import timezone
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

register = template.Library()


@register.filter
def highlight(text: str, query: str) -> SafeString:
    """``text`` escaped, with every word of ``query`` (split on whitespace, as the keyword
    search splits it) wrapped in ``<mark>``, case-insensitively."""
    escaped = str(escape(text))
    words = sorted({escape(w) for w in str(query or "").split() if w}, key=len, reverse=True)
    if not words:
        return mark_safe(escaped)  # noqa: S308 — escaped above
    pattern = re.compile("|".join(re.escape(w) for w in words), re.IGNORECASE)
    return mark_safe(pattern.sub(lambda m: f"<mark>{m.group(0)}</mark>", escaped))  # noqa: S308


def about(start: datetime, end: datetime) -> str:
    """The span from ``start`` to ``end`` as a person says it: the two largest units, years and
    months as "约 1 年 11 个月", then days, hours, minutes; under a minute is "不到 1 分钟"."""
    seconds = max(0, int((end - start).total_seconds()))
    days = seconds // 86400
    if days >= 30:
        months = round(days / 30.44)
        years, months = divmod(months, 12)
        parts = []
        if years:
            parts.append(ngettext("%(n)d 年", "%(n)d 年", years) % {"n": years})
        if months:
            parts.append(ngettext("%(n)d 个月", "%(n)d 个月", months) % {"n": months})
        return _("约 %(span)s") % {"span": " ".join(parts)}
    if days:
        return ngettext("%(n)d 天", "%(n)d 天", days) % {"n": days}
    hours = seconds // 3600
    if hours:
        return ngettext("%(n)d 小时", "%(n)d 小时", hours) % {"n": hours}
    minutes = seconds // 60
    if minutes:
        return ngettext("%(n)d 分钟", "%(n)d 分钟", minutes) % {"n": minutes}
    return _("不到 1 分钟")


@register.filter
def about_until(value: datetime | None) -> str:
    """How long until ``value`` ("约 1 年 11 个月")."""
    return about(timezone.now(), value) if value else ""


@register.filter
def about_since(value: datetime | None) -> str:
    """How long since ``value`` ("3 天")."""
    return about(value, timezone.now()) if value else ""


@register.filter
def ago(value: datetime | None) -> str:
    """When ``value`` was, from now: "刚刚" under a minute, else "3 分钟前", "约 2 个月前"."""
    if not value:
        return ""
    if (timezone.now() - value).total_seconds() < 60:
        return _("刚刚")
    return _("%(span)s前") % {"span": about(value, timezone.now())}
