"""A link in a fact, kept as its site's name: "设计文档在 https://docs.example.com/a 里" becomes
"设计文档在 docs.example.com 里" instead of losing the words around the cut-out link. Offered
beside admission's own cleaning; the person picks which text is saved."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

# Where admission's own URL pattern ends a link: whitespace, quotes, CJK text and punctuation.
_URL_RE = re.compile(
    r"(?:(?:https?|ftp|wss?)://|www\.)[^\s<>\"'`\u3000-\u303f\u3400-\u9fff\uff00-\uffef]+",
    re.IGNORECASE,
)
_TRAILING = ".,;:!?)]}'"


def _host(match: re.Match[str]) -> str:
    url = match.group()
    trimmed = url.rstrip(_TRAILING)
    parsed = urlsplit(trimmed if "://" in trimmed else f"//{trimmed}")
    host = (parsed.hostname or "").removeprefix("www.")
    return host + url[len(trimmed) :] if host else url


def with_hosts(text: str) -> str:
    """``text`` with every link replaced by its host name (unchanged when it has none)."""
    return _URL_RE.sub(_host, text)
