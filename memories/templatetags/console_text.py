"""Template filters of the console: matched words highlighted in list results."""

from __future__ import annotations

import re

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

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
