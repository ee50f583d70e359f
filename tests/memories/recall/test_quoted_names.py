"""A name the query puts in quotes is looked up through an index that can answer it.

The defect reproduced: most Chinese names are two characters (“灯塔”, “豆包”), and a trigram
index cannot answer ``LIKE '%灯塔%'`` (a two-character pattern holds no whole trigram), so the
quoted-name part of the entity channel read every row of the table through the index and then
every memory of the scope: 60 ms for a 2,000-memory user and 190–240 ms for a 20,000-memory one
on the bench (``benchmarks/search_profile``), on one question in eight of the bench's new ones.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest
from django.db import connection

from memories import selectors
from memories.models import EntityRow, MemoryRow
from memories.recall.channels import ChannelQuery, channel_statement
from memories.types import Channel, SearchFilters

pytestmark = pytest.mark.django_db


def unheard_name() -> str:
    """Two Han characters no other test writes (CJK Extension A), new each run: an index scan
    counts the entries of deleted rows too, and other tests store and delete “豆包” in this
    scope, so a shared name would be counted more than once."""
    first, second = divmod(uuid.uuid4().int % (0x19B0 * 0x19B0), 0x19B0)
    return chr(0x3400 + first) + chr(0x3400 + second)


OTHERS = (
    "用户周末喜欢爬山。",
    "团队沟通统一用飞书，不用邮件。",
    "包子铺在公司楼下。",  # 包 alone: not the name
    "豆浆要无糖的。",  # 豆 alone: not the name
    "Kestrel is the code name of the billing rewrite.",
    "用户养了一只叫豆豆的猫。",
    "上线前先跑一遍回归测试。",
)


def quoted_query(scope_key: str, names: list[str]) -> ChannelQuery:
    return ChannelQuery(
        scope_key=scope_key,
        vector=[1.0] * 512,
        terms=[],
        slips=[],
        grams=[],
        quoted=names,
        misspellings=[],
        pinyin=[],
        filters=SearchFilters(),
        vector_floor=2.0,  # the vector channel answers nothing: only the names are asked
        keyword_min_coverage=1.0,
        keyword_max_share=1.0,
        pool=50,
    )


def index_scans(plan: dict[str, Any]) -> list[dict[str, Any]]:
    found = [plan] if plan.get("Node Type") == "Bitmap Index Scan" else []
    for child in plan.get("Plans", []):
        found += index_scans(child)
    return found


def insert(scope_key: str, text: str) -> str:
    """A memory written straight into Mem0's table on the test's connection: a scope of a few
    hundred, as a real user's, costs seconds through the services."""
    memory_id = str(uuid.uuid4())
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {MemoryRow._meta.db_table} (id, vector, payload) "
            "VALUES (%s, %s::vector, %s::jsonb)",
            [memory_id, str([1.0] * 512), json.dumps({"data": text, "user_id": scope_key})],
        )
    return memory_id


def test_a_two_character_quoted_name_reads_only_the_memories_that_hold_it(scope):
    name = unheard_name()
    wanted = insert(scope.key, f"周报发给“{name}”审阅。")
    words = ("周报", "发布", "数据库", "前端", "测试", "预算", "会议", "文档", "部署", "需求")
    for n in range(400):
        insert(scope.key, f"第{n}条：{words[n % 10]}和{words[n * 7 % 10]}的安排。{OTHERS[n % 7]}")
    statement, params = channel_statement(
        quoted_query(scope.key, [name]),
        memories=MemoryRow._meta.db_table,
        entities=EntityRow._meta.db_table,
    )
    with connection.cursor() as cursor:
        cursor.execute(f"ANALYZE {MemoryRow._meta.db_table}")
        # A table of one scope is read whole; a real one holds every user's memories.
        cursor.execute("SET LOCAL enable_seqscan = off")
        text = statement.as_string(cursor.connection)
        cursor.execute(text, params)
        assert [str(row[1]) for row in cursor.fetchall()] == [wanted]
        cursor.execute("EXPLAIN (ANALYZE, FORMAT JSON) " + text, params)
        [[explained]] = cursor.fetchall()
    plan = (json.loads(explained) if isinstance(explained, str) else explained)[0]["Plan"]
    # The scans whose condition is the memory's normalised text: the quoted name's.
    name_scans = [s for s in index_scans(plan) if "normalize" in s.get("Index Cond", "").lower()]
    assert name_scans, "the quoted name is not looked up through an index"
    # The index hands on the one memory holding both characters side by side, not every row.
    assert [scan["Actual Rows"] for scan in name_scans] == [1]


def test_a_quoted_name_is_found_inside_a_longer_word_and_in_any_width_or_case(scope, remember):
    chinese = remember("项目代号是灯塔计划，三月上线。")
    latin = remember("The dashboard moved to Grafana Cloud.")
    for query, wanted in (("“灯塔”", chinese), ("“ＧＲＡＦＡＮＡ”", latin), ('"grafana"', latin)):
        channels = selectors.recall_channels(scope=scope, query=query, pool=10, min_score=1.0)
        assert wanted in [h.id for h in channels[Channel.ENTITY]], query
