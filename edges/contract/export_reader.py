"""The one reader of an export document, for every door that takes one: the console's upload
and its confirmation, the user API's and ``/v1``'s import bodies (already JSON, read by
``parsers.loads``) and ``manage.py memory_import``.

A file is read with the APIs' own JSON rules (``parsers.loads``: bounded nesting, no NaN, no
key twice, no number longer than Python reads), then checked field by field by
``ExportDocumentInput``. Whatever the file is — ``5``, ``null``, five thousand ``[`` or a
five-thousand-digit number — the answer is a ``DocumentProblem`` that says which, never an
exception out of the decoder.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from rest_framework.exceptions import ParseError

from edges.contract.parsers import loads
from edges.contract.serializers import ExportDocumentInput
from memories.export_document import EXPORT_FORMAT

# A file larger than this is not read at all (the console's upload form says the same).
MAX_DOCUMENT_BYTES = 5 * 1024 * 1024


class Problem(StrEnum):
    NOT_JSON = "not_json"  # not UTF-8 JSON, nested too deep, a number too long, too large
    NOT_EXPORT = "not_export"  # JSON, but not this service's export (format, version, shape)
    INVALID = "invalid"  # an export whose items break its rules (``errors`` names them)
    EMPTY = "empty"  # a valid export without memories


@dataclass(frozen=True)
class DocumentProblem:
    problem: Problem
    detail: str = ""
    errors: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ExportDocument:
    version: int
    memories: list[dict[str, Any]]


def read_export_data(data: Any) -> ExportDocument | DocumentProblem:
    """An already decoded document, checked; the items as ``ExportDocumentInput`` gives them."""
    form = ExportDocumentInput(data=data)
    if not form.is_valid():
        errors = dict(form.errors)
        shaped = isinstance(data, dict) and isinstance(data.get("memories"), list)
        if not shaped or "format" in errors or "version" in errors:
            return DocumentProblem(Problem.NOT_EXPORT, "format, version or shape", errors)
        return DocumentProblem(Problem.INVALID, "fields", errors)
    memories = list(form.validated_data["memories"])
    if not memories:
        return DocumentProblem(Problem.EMPTY, "no memories")
    return ExportDocument(version=int(form.validated_data["version"]), memories=memories)


def read_export_file(raw: bytes | str) -> ExportDocument | DocumentProblem:
    """A file's bytes (a UTF-8 BOM allowed, as spreadsheets and Windows editors write it)."""
    blob = raw.encode("utf-8") if isinstance(raw, str) else raw
    if len(blob) > MAX_DOCUMENT_BYTES:
        return DocumentProblem(Problem.NOT_JSON, f"larger than {MAX_DOCUMENT_BYTES} bytes")
    blob = blob.removeprefix(b"\xef\xbb\xbf")
    try:
        data = loads(blob)
    except ParseError as exc:
        return DocumentProblem(Problem.NOT_JSON, str(exc.detail))
    return read_export_data(data)


def read_export_items(raw: bytes | str, *, version: int) -> ExportDocument | DocumentProblem:
    """A bare list of export items (the console's confirmation posts back the items it
    previewed), read and checked as the memories of a document of ``version``."""
    blob = raw.encode("utf-8") if isinstance(raw, str) else raw
    try:
        data = loads(blob)
    except ParseError as exc:
        return DocumentProblem(Problem.NOT_JSON, str(exc.detail))
    if not isinstance(data, list):
        return DocumentProblem(Problem.NOT_EXPORT, "not a list of memories")
    return read_export_data({"format": EXPORT_FORMAT, "version": version, "memories": data})
