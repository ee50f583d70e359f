"""Rate limits, the per-user cap and the ingest bounds: refused in the one error shape, shared
through PostgreSQL, counted in /metrics; an import gives way to a delete-user of its scope."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from rest_framework.test import APIClient

from memories import services
from memories.export_document import EXPORT_FORMAT, EXPORT_VERSION
from memories.models import MemoryRow
from memories.ops import portability
from memories.ops.portability import importing
from memories.ratelimits import RateKind, RateLimited, rate_check
from memories.scope import scope_of
from memories.types import DeleteStatus, WriteStatus
from tests.memories.conftest import TOKEN, assert_error, body

OTHER_TOKEN = "another-service-token"
TASK = [
    {"role": "user", "content": "以后都用简体中文回答我。"},
    {"role": "assistant", "content": "好的，以后都用简体中文回答。"},
]


def limit(settings, by: str, kind: str, value: int) -> None:
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, (by, kind): value}
    # An hour's window: a test's requests never straddle a window's end (with the default
    # minute, one run in about sixty began its count anew between two requests).
    settings.RATE_WINDOW_SECONDS = 3600


def scraped(client: APIClient, name: str) -> str:
    text = client.get("/metrics").content.decode()
    return "\n".join(line for line in text.splitlines() if line.startswith(name))


# --- rate limits ----------------------------------------------------------------------------------
def test_searches_past_the_scope_limit_are_429_with_retry_after(v1, scope, other_scope, settings):
    limit(settings, "scope", "search", 2)
    for _ in range(2):
        assert v1.post("search", body(scope, query="回答风格")).status_code == 200
    refused = v1.post("search", body(scope, query="回答风格"))
    data = assert_error(refused, 429, "rate_limited")
    assert "scope" in data["error"]["message"]
    assert 1 <= int(refused["Retry-After"]) <= settings.RATE_WINDOW_SECONDS
    # Another scope has its own count, and writes their own kind.
    assert v1.post("search", body(other_scope, query="回答风格")).status_code == 200
    added = v1.post("manage", body(scope, action="add", text="用户偏好简体中文技术方案。"))
    assert added.json()["status"] == "added"
    assert "memory_rate_limited_total" in scraped(v1.client, "memory_rate_limited_total")
    # The shared counters themselves: the busiest scope has made 3 searches in this window.
    peaks = scraped(v1.client, "memory_rate_window_peak")
    assert 'memory_rate_window_peak{by="scope",kind="search"} 3.0' in peaks, peaks


def test_the_token_limit_counts_across_scopes_and_tokens_apart(v1, scope, other_scope, settings):
    settings.SERVICE_TOKENS = [f"main:{TOKEN}", f"other:{OTHER_TOKEN}"]
    limit(settings, "token", "write", 2)
    assert (
        v1.post("manage", body(scope, action="add", text="用户偏好简体中文。")).status_code == 200
    )
    assert (
        v1.post("manage", body(other_scope, action="add", text="用户喜欢绿茶。")).status_code == 200
    )
    refused = v1.post("manage", body(other_scope, action="add", text="用户住在杭州。"))
    data = assert_error(refused, 429, "rate_limited")
    assert "token" in data["error"]["message"]
    assert not MemoryRow.objects.filter(payload__data__contains="杭州").exists()

    other = APIClient()
    other.credentials(HTTP_AUTHORIZATION=f"Bearer {OTHER_TOKEN}")
    answer = other.post(
        "/v1/memories/manage",
        body(other_scope, action="add", text="用户住在杭州。"),
        format="json",
    )
    assert answer.status_code == 200 and answer.json()["status"] == "added"


def test_counts_live_in_postgresql_so_every_node_shares_them(db, scope, settings):
    limit(settings, "scope", "write", 3)
    for _ in range(3):
        rate_check(kind=RateKind.WRITE, scope=scope, token="main")
    with connection.cursor() as cursor:
        cursor.execute("SELECT key, hits FROM poco_rate_windows ORDER BY key")
        rows = cursor.fetchall()
    assert rows == [(f"scope:{scope.key}:write", 3), ("token:main:write", 3)]
    with pytest.raises(RateLimited) as refused:
        rate_check(kind=RateKind.WRITE, scope=scope, token="other-node-same-table")
    assert refused.value.by == "scope" and refused.value.retry_after >= 1


def test_a_zero_limit_is_off(v1, scope, settings):
    settings.RATE_LIMITS = dict.fromkeys(settings.RATE_LIMITS, 0)
    for _ in range(3):
        assert v1.post("search", body(scope, query="回答风格")).status_code == 200
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM poco_rate_windows")
        assert cursor.fetchone() == (0,)


# --- the per-user cap -----------------------------------------------------------------------------
def test_adds_past_the_cap_are_rejected_quota_exceeded(v1, scope, other_scope, settings):
    settings.MAX_MEMORIES_PER_USER = 2
    texts = ["用户偏好简体中文技术方案。", "用户喜欢喝绿茶。", "用户住在杭州西湖区。"]
    answers = [v1.post("manage", body(scope, action="add", text=t)).json() for t in texts]
    assert [a["status"] for a in answers] == ["added", "added", "rejected"]
    assert answers[2]["reason"] == "quota_exceeded" and answers[2]["success"] is False
    # Repeating a stored memory stores nothing, so it is still the decided duplicate.
    repeat = v1.post("manage", body(scope, action="add", text=texts[0])).json()
    assert (repeat["status"], repeat["reason"]) == ("no_effect", "duplicate")
    assert MemoryRow.objects.filter(payload__user_id=scope.key).count() == 2
    other = v1.post("manage", body(other_scope, action="add", text=texts[2])).json()
    assert other["status"] == "added"
    assert 'memory_quota_exceeded_total{path="manage"}' in scraped(
        v1.client, "memory_quota_exceeded_total"
    )


def test_an_import_stops_adding_at_the_cap(v1, scope, settings):
    settings.MAX_MEMORIES_PER_USER = 2
    document = {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "memories": [
            {"content": text}
            for text in (
                "用户偏好简体中文。",
                "用户喜欢绿茶。",
                "用户住在杭州。",
                "用户养了一只猫。",
            )
        ],
    }
    report = v1.post("import", body(scope, document=document)).json()
    assert (report["added"], report["rejected"]) == (2, 2)
    assert [i["reason"] for i in report["items"][2:]] == ["quota_exceeded"] * 2
    assert MemoryRow.objects.filter(payload__user_id=scope.key).count() == 2


def test_the_cap_of_zero_is_no_cap(db, scope, agent, settings):
    settings.MAX_MEMORIES_PER_USER = 0
    assert services.quota_room(scope=scope) is None
    added = services.memory_add(scope=scope, text="用户偏好简体中文。", actor=agent)
    assert added.status == WriteStatus.ADDED


# --- ingest bounds --------------------------------------------------------------------------------
def test_too_many_messages_are_413_and_nothing_is_queued(v1, scope):
    from lifecycle.models import IngestJob

    messages = [{"role": "user", "content": f"第{n}条。"} for n in range(51)]
    answer = v1.post("ingest", body(scope, messages=messages))
    assert_error(answer, 413, "payload_too_large", "messages")
    assert not IngestJob.objects.exists()


def test_too_many_characters_in_all_are_413(v1, scope, settings):
    from lifecycle.models import IngestJob

    settings.INGEST_MAX_CHARS = 1000
    messages = [{"role": "user", "content": "以后都用简体中文回答我。" * 50} for _ in range(2)]
    answer = v1.post("ingest", body(scope, messages=messages))
    data = assert_error(answer, 413, "payload_too_large", "messages")
    assert "1000" in data["error"]["fields"]["messages"][0]
    assert not IngestJob.objects.exists()
    # Within the bounds the same shape is accepted.
    fits = v1.post("ingest", body(scope, messages=TASK))
    assert fits.status_code == 202


# --- fair queue -----------------------------------------------------------------------------------
def test_a_tenants_later_jobs_queue_behind_other_tenants(v1, scope):
    from procrastinate.contrib.django.models import ProcrastinateJob

    tenant_b = scope_of(tenant_id="beta", user_id="carol")
    first = v1.post("ingest", body(scope, messages=TASK)).json()["job_id"]
    second = v1.post("ingest", body(scope, messages=TASK, run_id="r2")).json()["job_id"]
    other = v1.post("ingest", body(tenant_b, messages=TASK)).json()["job_id"]
    jobs = {
        job.args["job_id"]: (job.priority, job.lock)
        for job in ProcrastinateJob.objects.filter(queue_name="ingest")
    }
    assert jobs[first] == (0, f"ingest:{scope.key}")
    assert jobs[second] == (-1, f"ingest:{scope.key}")
    assert jobs[other] == (0, f"ingest:{tenant_b.key}")


# --- import gives way to delete-user --------------------------------------------------------------
@pytest.mark.django_db(transaction=True)
def test_a_delete_user_during_an_import_stops_it_at_the_next_chunk(scope, agent, monkeypatch):
    monkeypatch.setattr(importing, "IMPORT_CHUNK", 4)
    items = [{"content": f"用户的第{n}号项目使用简体中文文档。"} for n in range(12)]
    deleted: list[Any] = []

    def on_item(item: portability.ImportItemResult) -> None:
        if item.index == 0:  # the first chunk is written: the user deletes everything now
            deleted.append(services.memory_delete_user(scope=scope, actor=agent))

    report = portability.memory_import(scope=scope, items=items, actor=agent, on_item=on_item)

    assert [outcome.status for outcome in deleted] == [DeleteStatus.DELETED]
    assert (report.status, report.success) == ("scope_deleted", False)
    assert report.count("added") == 4 and report.count("not_attempted") == 8
    assert not MemoryRow.objects.filter(payload__user_id=scope.key).exists()
