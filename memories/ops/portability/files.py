"""The export as a file for a person (the console and the user API): CSV for a spreadsheet,
with the columns ``memories.ops.csv_columns`` names, or the JSON document."""

from __future__ import annotations

import csv
import io
import json
import unicodedata
from dataclasses import dataclass
from typing import Any

from django.http import HttpResponse

from memories.instants import service_day
from memories.ops.csv_columns import csv_columns
from memories.ops.portability.document import memory_export
from memories.types import MemoryScope

# Spreadsheets run a cell that starts with one of these as a formula (CSV injection), also
# after leading blanks or list separators (Excel set to ";" reads ";=..." as a formula).
FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")
FORMULA_LEAD = " \t\r\n,;|"
# Characters that render as nothing yet are not format characters (Cf) by Unicode's data.
INVISIBLE_LEAD = frozenset("\u00ad\u180e\u2800\u115f\u1160\u3164\uffa0")


@dataclass(frozen=True)
class ExportFile:
    content: bytes
    content_type: str
    filename: str


def _csv_lead(char: str) -> bool:
    """A character a spreadsheet may skip before a formula: a blank or separator, anything that
    draws nothing (soft hyphen U+00AD, Mongolian vowel separator U+180E, blank Braille U+2800,
    zero-width and format characters) and any other space."""
    return (
        char in FORMULA_LEAD
        or char in INVISIBLE_LEAD
        or char.isspace()
        or unicodedata.category(char) in ("Cf", "Zs", "Zl", "Zp", "Cc", "Mn")
    )


def _csv_cell(value: Any) -> str:
    if value is None:
        return ""
    text = str(value)
    start = 0
    while start < len(text) and _csv_lead(text[start]):
        start += 1
    # A leading quote makes Excel/LibreOffice show the text instead of evaluating it.
    runs = text.startswith(FORMULA_PREFIXES) or text[start:].startswith(FORMULA_PREFIXES[:4])
    return "'" + text if runs else text


def export_csv(document: dict[str, Any]) -> str:
    """The export for a person with a spreadsheet: the columns ``memories.ops.csv_columns``
    names in the active language, codes in words, times in the current time zone."""
    columns = csv_columns()
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([column.header for column in columns])
    for item in document["memories"]:
        writer.writerow([_csv_cell(column.value(item)) for column in columns])
    return out.getvalue()


def export_file(*, scope: MemoryScope, kind: str) -> ExportFile:
    """The user's own export as a download: ``json`` or ``csv`` (UTF-8 with a BOM, so Excel
    reads Chinese)."""
    document = memory_export(scope=scope)
    stamp = service_day().strftime("%Y%m%d")  # the day the person downloads it, on their clock
    name = f"poco-memories-{scope.user_id}-{stamp}.{kind}"
    if kind == "csv":
        body = "\ufeff" + export_csv(document)
        return ExportFile(body.encode("utf-8"), "text/csv; charset=utf-8", name)
    if kind == "json":
        body = json.dumps(document, ensure_ascii=False, indent=2)
        return ExportFile(body.encode("utf-8"), "application/json; charset=utf-8", name)
    raise ValueError(f"unknown export kind {kind!r}")


def export_download(*, scope: MemoryScope, kind: str) -> HttpResponse:
    """``export_file`` as an attachment (the console and the user API answer the same)."""
    file = export_file(scope=scope, kind=kind)
    response = HttpResponse(file.content, content_type=file.content_type)
    response["Content-Disposition"] = f'attachment; filename="{file.filename}"'
    response["Cache-Control"] = "no-store"  # personal data: no shared cache may keep it
    return response
