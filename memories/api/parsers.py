"""The only request parser of both APIs: JSON, UTF-8, no NaN, and a bounded nesting depth.

Python's decoder recurses once per level: a body of a thousand ``[`` raised RecursionError
(a 500 with a traceback). Depth is counted before decoding, so no such body reaches it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import IO, Any

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

MAX_JSON_DEPTH = 32
_STRINGS = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS = re.compile(rb"[\[\]{}]")


def json_depth_exceeds(raw: bytes, limit: int = MAX_JSON_DEPTH) -> bool:
    depth = 0
    for match in _BRACKETS.finditer(_STRINGS.sub(b'""', raw)):
        depth += 1 if match.group() in (b"[", b"{") else -1
        if depth > limit:
            return True
    return False


class BoundedJSONParser(JSONParser):
    def parse(
        self,
        stream: IO[Any],
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        raw = stream.read()
        if json_depth_exceeds(raw):
            raise ParseError(f"JSON nested deeper than {MAX_JSON_DEPTH} levels")
        try:
            return json.loads(raw.decode("utf-8"), parse_constant=_no_constants)
        except (UnicodeDecodeError, ValueError) as exc:
            raise ParseError(f"JSON parse error - {exc}") from exc


def _no_constants(name: str) -> None:
    raise ValueError(f"{name} is not valid JSON")
