"""The CSV export is for a person opening it in a spreadsheet: headers in their language,
values in words, times in their time zone with the zone named, and no cell a spreadsheet would
run as a formula. The JSON export stays the lossless document for import."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.utils import timezone, translation

from memories.ops.portability import export_csv

ITEM = {
    "id": "0b8f5f7e-3c7a-4f43-9d55-0b8a4b8e2a11",
    "content": "周报使用飞书文档撰写。",
    "category": "preference",
    "memory_key": None,
    "status": "active",
    "source": "ingest",
    "valid_until": "2028-11-30T13:36:04.733798+00:00",
    "created_at": "2026-11-30T13:36:04.733798+00:00",
    "updated_at": "2026-11-30T13:40:00+00:00",
}


def rows(document: dict) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(export_csv(document))))


@pytest.mark.parametrize(
    "content",
    [
        ';=HYPERLINK("http://x")',  # Excel with ";" as its list separator
        ",=1+1",
        " =SUM(A1:A9)",
        "\n@SUM(A1)",
        "; ;+cmd",
        "\t-2+3",
    ],
)
def test_a_formula_after_a_leading_separator_or_space_is_not_run(content):
    with translation.override("zh-hans"):
        (row,) = rows({"memories": [{**ITEM, "content": content}]})
    assert row["内容"] == "'" + content


def test_plain_text_is_left_as_it_is():
    with translation.override("zh-hans"):
        (row,) = rows({"memories": [{**ITEM, "content": "普通的一句话; 1+1=2"}]})
    assert row["内容"] == "普通的一句话; 1+1=2"


def test_chinese_headers_values_in_words_and_local_times():
    with translation.override("zh-hans"), timezone.override("Asia/Shanghai"):
        (row,) = rows({"memories": [ITEM]})
    assert row["类别"] == "偏好"
    assert row["来源"] == "任务沉淀"
    assert row["状态"] == "有效"
    assert row["创建时间（Asia/Shanghai）"] == "2026-11-30 21:36"
    assert row["有效期至（Asia/Shanghai）"] == "2028-11-30 21:36"
    assert "created_at" not in row and "category" not in row


def test_english_headers_and_another_time_zone():
    with translation.override("en"), timezone.override("Europe/Berlin"):
        (row,) = rows({"memories": [ITEM]})
    assert row["Category"] == "Preference"
    assert row["Text"] == ITEM["content"]
    assert row["Created (Europe/Berlin)"] == "2026-11-30 14:36"


@pytest.mark.django_db
def test_the_json_export_keeps_the_machine_names(alice_client, alice_scope):
    from tests.edges.console.conftest import add_memory

    add_memory(alice_scope, "周报使用飞书文档撰写。", category="preference")
    document = json.loads(alice_client.get("/memories/export.json").content)
    (item,) = document["memories"]
    assert item["category"] == "preference" and "created_at" in item


@pytest.mark.parametrize("lead", ["\u00ad", "\u180e", "\u2800", "\u200b", "\ufeff", "\u3000"])
def test_a_formula_behind_an_invisible_or_blank_character_is_not_run(lead):
    with translation.override("zh-hans"):
        (row,) = rows({"memories": [{**ITEM, "content": lead + '=HYPERLINK("http://x")'}]})
    assert row["内容"].startswith("'")


def test_the_csv_says_which_memories_are_always_used():
    with translation.override("zh-hans"):
        pinned, plain = rows({"memories": [{**ITEM, "pinned": True}, ITEM]})
    assert (pinned["始终使用"], plain["始终使用"]) == ("是", "否")
    with translation.override("en"):
        (row,) = rows({"memories": [{**ITEM, "pinned": True}]})
    assert row["Always use"] == "Yes"
