"""What the console's page tests share: texts, how a page shows a stored text, HTMX headers."""

from __future__ import annotations

import re
from html import escape

HTMX = {"HTTP_HX_REQUEST": "true"}
WEEKLY = "周报使用“飞书”文档撰写，结论先行。"
LIN = "“林清”负责“Poco”项目的前端文档评审。"
ENGLISH = "Prefers TypeScript for new front-end modules."


def shown(text: str) -> str:
    """A stored text as a page shows it: admission stores “x” as "x", the template escapes it."""
    return escape(text)


def html(response) -> str:
    return response.content.decode()


def checked_switches(page: str) -> int:
    return len(re.findall(r'<input[^>]*role="switch"[^>]*\schecked', page))


def htmx(target: str | None = None) -> dict[str, str]:
    headers = dict(HTMX)
    if target:
        headers["HTTP_HX_TARGET"] = target
    return headers
