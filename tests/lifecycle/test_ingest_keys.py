"""A later statement of the same attribute supersedes the earlier one through ingest (the real
worker, the offline extractor): the key is proposed on the written fact, in either language."""

from __future__ import annotations

import pytest

from lifecycle.models import IngestJob
from memories.models import MemoryRow
from tests.lifecycle.conftest import run_queue
from tests.memories.conftest import body


def ingest(v1, scope, run_id: str, said: str, answer: str) -> IngestJob:
    messages = [{"role": "user", "content": said}, {"role": "assistant", "content": answer}]
    accepted = v1.post(
        "ingest", body(scope, run_id=run_id, source="task_completed", messages=messages)
    )
    assert accepted.status_code == 202, accepted.content
    run_queue()
    return IngestJob.objects.get(id=accepted.json()["job_id"])


def test_moving_to_hangzhou_supersedes_living_in_wuhan(v1_live, scope):
    first = ingest(v1_live, scope, "run-1", "我住在武汉。", "好的。")
    assert first.status == IngestJob.Status.SUCCEEDED, first.reason
    [wuhan] = first.memory_ids
    assert MemoryRow.objects.get(id=wuhan).content == "用户住在武汉。"

    second = ingest(v1_live, scope, "run-2", "I moved to Hangzhou.", "Noted.")
    assert second.status == IngestJob.Status.SUCCEEDED, second.reason
    [hangzhou] = second.memory_ids
    assert MemoryRow.objects.get(id=wuhan).payload["superseded_by"] == hangzhou
    active = MemoryRow.objects.filter(payload__user_id=scope.key, payload__status="active")
    assert [(r.content, r.payload["memory_key"]) for r in active] == [
        ("The user moved to Hangzhou.", "profile.home_city")
    ]


def test_the_gates_ingest_is_stored_as_the_users_two_facts_once(v1_live, scope):
    """The upgrade gate's conversation: two facts in one sentence, a one-off, and the
    assistant's confirmation of the user's own statement (stored a second time before)."""
    job = ingest(
        v1_live,
        scope,
        "run-gate",
        "以后所有技术方案都使用简体中文，项目叫“Poco”。这次先生成一份 HTML 报告。",
        "好的，已生成报告。已确认：Poco 的技术方案统一使用简体中文。",
    )
    assert job.status == IngestJob.Status.SUCCEEDED, job.reason
    stored = MemoryRow.objects.filter(payload__user_id=scope.key)
    assert sorted((r.content, r.payload["attributed_to"]) for r in stored) == [
        ("以后所有技术方案都使用简体中文。", "user"),
        ("项目叫“Poco”。", "user"),
    ]


def test_a_conversation_in_two_languages_keeps_each_fact_in_its_own(v1_live, scope):
    """A user who writes one message in English and the next in Chinese: each fact keeps the
    language it was said in, and neither is translation drift (the whole job failed as
    language_drift, judged against the conversation's dominant language alone)."""
    messages = [
        {"role": "user", "content": "I'm vegetarian, keep that in mind when you suggest food."},
        {"role": "assistant", "content": "Got it."},
        {"role": "user", "content": "以后给我写邮件草稿的时候，落款统一用“陈工”，一定要记住。"},
    ]
    accepted = v1_live.post(
        "ingest", body(scope, run_id="run-mixed", source="task_completed", messages=messages)
    )
    assert accepted.status_code == 202, accepted.content
    run_queue()
    job = IngestJob.objects.get(id=accepted.json()["job_id"])
    assert job.status == IngestJob.Status.SUCCEEDED, job.reason
    stored = sorted(r.content for r in MemoryRow.objects.filter(payload__user_id=scope.key))
    assert stored == ["The user is vegetarian.", "以后给用户写邮件草稿的时候，落款统一用“陈工”。"]


def _active(scope) -> list[tuple[str, str]]:
    rows = MemoryRow.objects.filter(payload__user_id=scope.key, payload__status="active")
    return sorted((r.content, r.payload.get("memory_key") or "") for r in rows)


def test_a_sisters_diet_leaves_the_users_own_in_place(v1_live, scope):
    """A relative's value carries no key: it superseded the user's own ("用户女儿不吃牛肉。"
    retired "用户是素食者。")."""
    first = ingest(v1_live, scope, "run-1", "我是素食者。", "好的。")
    assert first.status == IngestJob.Status.SUCCEEDED, first.reason
    second = ingest(v1_live, scope, "run-2", "我妹妹是素食者。", "好的。")
    assert second.status == IngestJob.Status.SUCCEEDED, second.reason
    # The writer may write the sister with or without 的: what matters is who holds the key.
    active = _active(scope)
    assert len(active) == 2, active
    assert [(text, key) for text, key in active if key] == [("用户是素食者。", "profile.diet")]


def test_a_city_of_work_leaves_the_employer_in_place(v1_live, scope):
    """In "在北京工作" the city is where the user works, not for whom: it superseded the
    employer."""
    first = ingest(v1_live, scope, "run-1", "我在字节跳动工作。", "好的。")
    assert first.status == IngestJob.Status.SUCCEEDED, first.reason
    second = ingest(v1_live, scope, "run-2", "我在北京工作。", "好的。")
    assert second.status == IngestJob.Status.SUCCEEDED, second.reason
    assert _active(scope) == [
        ("用户在北京工作。", ""),
        ("用户在字节跳动工作。", "profile.employer"),
    ]


def test_leaving_an_employer_retires_it(v1_live, scope):
    first = ingest(v1_live, scope, "run-1", "我在美团工作。", "好的。")
    assert first.status == IngestJob.Status.SUCCEEDED, first.reason
    [meituan] = first.memory_ids
    second = ingest(v1_live, scope, "run-2", "我已经不在美团了，现在自己创业。", "好的。")
    assert second.status == IngestJob.Status.SUCCEEDED, second.reason
    [left] = second.memory_ids
    assert MemoryRow.objects.get(id=meituan).payload["superseded_by"] == left
    assert _active(scope) == [("用户已经不在美团了，现在自己创业。", "profile.employer")]


def test_leaving_an_employer_last_month_retires_it(v1_live, scope):
    """A past change dated relative to today is a change, not a one-off event (the probe's "I
    left Google last month." stored nothing)."""
    first = ingest(v1_live, scope, "run-1", "I work at Google.", "Noted.")
    assert first.status == IngestJob.Status.SUCCEEDED, first.reason
    second = ingest(v1_live, scope, "run-2", "I left Google last month.", "Got it.")
    assert second.status == IngestJob.Status.SUCCEEDED, second.reason
    assert _active(scope) == [("The user left Google.", "profile.employer")]


def test_a_short_answer_to_the_assistants_question_is_the_users_editor(v1_live, scope):
    """The probe's "Vim，一直都是。" to "你平时用什么编辑器？" (source "chat"): the question
    answered, in the user's language, keyed."""
    messages = [
        {"role": "assistant", "content": "你平时用什么编辑器？"},
        {"role": "user", "content": "Vim，一直都是。"},
    ]
    accepted = v1_live.post("ingest", body(scope, run_id="run-1", source="chat", messages=messages))
    assert accepted.status_code == 202, accepted.content
    run_queue()
    job = IngestJob.objects.get(id=accepted.json()["job_id"])
    assert job.status == IngestJob.Status.SUCCEEDED, job.reason
    assert _active(scope) == [("用户平时用 Vim 编辑器。", "preference.editor")]


@pytest.mark.parametrize(
    ("works", "left", "fact"),
    [
        # Stored nothing: 昨天/yesterday vetoed the sentence as a one-off.
        ("I work at Google.", "I left Google yesterday.", "The user left Google."),
        ("我在阿里工作。", "我昨天从阿里离职了", "用户从阿里离职了。"),
    ],
)
def test_leaving_an_employer_yesterday_retires_it(v1_live, scope, works, left, fact):
    first = ingest(v1_live, scope, "run-1", works, "Noted.")
    assert first.status == IngestJob.Status.SUCCEEDED, first.reason
    second = ingest(v1_live, scope, "run-2", left, "Got it.")
    assert second.status == IngestJob.Status.SUCCEEDED, second.reason
    assert _active(scope) == [(fact, "profile.employer")]


@pytest.mark.parametrize(
    ("works", "left", "fact"),
    [
        # The probe: "I left Google" retired the ByteDance memory.
        ("我在字节跳动工作。", "I left Google.", "The user left Google."),
        ("我在字节跳动工作。", "我从阿里离职了。", "用户从阿里离职了。"),
        ("I work at Shopify.", "I left Google.", "The user left Google."),
        ("I work at Shopify.", "I'm no longer at Stripe.", "The user is no longer at Stripe."),
    ],
)
def test_leaving_another_employer_leaves_the_current_one_in_place(
    v1_live, scope, works, left, fact
):
    """Leaving a company the current employer memory does not name says nothing of that
    employer: it stays the key's holder, and the leaving is stored beside it, without the key."""
    first = ingest(v1_live, scope, "run-1", works, "好的。")
    assert first.status == IngestJob.Status.SUCCEEDED, first.reason
    [current] = first.memory_ids
    held = MemoryRow.objects.get(id=current).content
    second = ingest(v1_live, scope, "run-2", left, "Got it.")
    assert second.status == IngestJob.Status.SUCCEEDED, second.reason
    assert MemoryRow.objects.get(id=current).payload["status"] == "active"
    assert _active(scope) == sorted([(held, "profile.employer"), (fact, "")])


@pytest.mark.parametrize(
    ("works", "left", "fact"),
    [
        # The same company in the other language (CC-CEDICT: "Google, Internet company…").
        ("我在谷歌工作。", "I left Google.", "The user left Google."),
        ("I work at ByteDance.", "我从字节跳动离职了。", "用户从字节跳动离职了。"),
        # Its short name.
        ("我在字节工作。", "我从字节跳动离职了。", "用户从字节跳动离职了。"),
        ("I work at Google Cloud.", "I quit Google.", "The user quit Google."),
    ],
)
def test_leaving_the_employer_by_another_of_its_names_retires_it(v1_live, scope, works, left, fact):
    first = ingest(v1_live, scope, "run-1", works, "好的。")
    assert first.status == IngestJob.Status.SUCCEEDED, first.reason
    [current] = first.memory_ids
    second = ingest(v1_live, scope, "run-2", left, "Got it.")
    assert second.status == IngestJob.Status.SUCCEEDED, second.reason
    [leaving] = second.memory_ids
    assert MemoryRow.objects.get(id=current).payload["superseded_by"] == leaving
    assert _active(scope) == [(fact, "profile.employer")]
