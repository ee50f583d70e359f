"""drf-spectacular hook: the published schema is the internal /v1 contract only."""

from __future__ import annotations

from typing import Any


def only_v1(endpoints: list[tuple[str, str, str, Any]], **kwargs: Any) -> list[Any]:
    return [e for e in endpoints if e[0].startswith("/v1/memories/")]
