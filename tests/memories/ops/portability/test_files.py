"""The export as a file for a person."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime

import pytest
from django.utils import timezone as dj_timezone
from django.utils import translation

from memories.ops.portability import export_csv, export_file

pytestmark = pytest.mark.django_db


def test_csv_cells_that_a_spreadsheet_would_run_are_quoted():
    document = {
        "memories": [
            {"content": '=HYPERLINK("http://x")', "category": "fact"},
            {"content": "+1 的意思是同意", "category": "fact"},
            {"content": "-号开头", "category": "fact"},
            {"content": "@提及", "category": "fact"},
            {"content": "普通的一句话", "category": "fact"},
        ]
    }
    with translation.override("zh-hans"):
        rows = list(csv.DictReader(io.StringIO(export_csv(document))))
    assert [row["内容"] for row in rows] == [
        '\'=HYPERLINK("http://x")',
        "'+1 的意思是同意",
        "'-号开头",
        "'@提及",
        "普通的一句话",
    ]


def test_the_export_file_is_named_for_the_day_on_the_service_clock(scope, monkeypatch):
    # 02:53 on 12-04 in Shanghai is 18:53 on 12-03 in UTC: the person downloads it on the 4th.
    monkeypatch.setattr(dj_timezone, "now", lambda: datetime(2026, 12, 3, 18, 53, tzinfo=UTC))
    assert export_file(scope=scope, kind="json").filename == "poco-memories-alice-20261204.json"
