"""The only JSON reading of both APIs (and the check /mcp makes before its SDK reads a body):
UTF-8, no NaN, no key twice in one object, and a bounded nesting depth. It is part of the edge
contract, so every edge reads JSON alike without importing another edge. The same rule for a
query string: ``query_params`` refuses a parameter sent twice.

Python's decoder recurses once per level: a body of a thousand ``[`` raised RecursionError
(a 500 with a traceback). Depth is counted before decoding, so no such body reaches it. A key
sent twice (``{"user_id": "u", "user_id": "other"}``) is refused: decoders keep the last one,
while a proxy, a log or a reviewer reading the body may see the first.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import IO, Any

from rest_framework.exceptions import ParseError, ValidationError
from rest_framework.parsers import JSONParser
from rest_framework.request import Request

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


class DuplicateKey(ValueError):
    pass


def loads(raw: bytes) -> Any:
    """The JSON document ``raw`` is; ParseError (400 ``malformed_json``) says what is wrong."""
    if json_depth_exceeds(raw):
        raise ParseError(f"JSON nested deeper than {MAX_JSON_DEPTH} levels")
    try:
        return json.loads(
            raw.decode("utf-8"), parse_constant=_no_constants, object_pairs_hook=_unique_keys
        )
    except DuplicateKey as exc:
        raise ParseError(str(exc)) from exc
    except (UnicodeDecodeError, ValueError) as exc:
        raise ParseError(f"JSON parse error - {exc}") from exc


def ambiguous_json(raw: bytes) -> str | None:
    """Why ``loads`` refuses a body that another decoder would take quietly — a key twice
    (there the last one wins) or nesting past the limit — or None. A body that is no JSON at
    all is None too: that decoder says so itself, in its own protocol."""
    try:
        loads(raw)
    except ParseError as exc:
        if exc.__cause__ is None or isinstance(exc.__cause__, DuplicateKey):
            return str(exc.detail)
    return None


def query_params(request: Request) -> dict[str, str]:
    """The query string, one value per name. A name sent twice (``?user_id=a&user_id=b``) is
    a 400 naming it: Django keeps the last value, while a proxy, a log or a reviewer may read
    the first (the rule ``loads`` applies to a key twice in one JSON object)."""
    repeated = {
        name: [f"{name} sent more than once: a parameter takes one value"]
        for name, values in request.query_params.lists()
        if len(values) > 1
    }
    if repeated:
        raise ValidationError(repeated)
    return request.query_params.dict()


class BoundedJSONParser(JSONParser):
    def parse(
        self,
        stream: IO[Any],
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        return loads(stream.read())


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    document: dict[str, Any] = {}
    for key, value in pairs:
        if key in document:
            raise DuplicateKey(f"the key {key!r} appears twice in one JSON object")
        document[key] = value
    return document


def _no_constants(name: str) -> None:
    raise ValueError(f"{name} is not valid JSON")
