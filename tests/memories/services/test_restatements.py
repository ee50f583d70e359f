"""A restatement is no new memory: a leading confirmation ("对，" "没错，" "Yes, "), the
restating words 还是/仍然 and another segmentation of the same words are not part of the fact.
Genuinely different facts stay apart. Real PostgreSQL, Mem0 and the bundled embedder."""

from __future__ import annotations

import pytest

from memories import governance, services
from memories.models import AuditEvent, MemoryRow
from memories.ops.dedup_calibration import DEDUP_PAIRS
from memories.types import WriteStatus
from tests.memories.conftest import body

pytestmark = pytest.mark.django_db

EN = "以后默认用英文回答"
TECH = "以后技术问题默认用中文回答，并先给结论"


@pytest.mark.parametrize(
    ("stored", "again"),
    [
        (EN, "没错，以后默认用英文回答"),  # 没 of 没错 is no negation
        (EN, "对，还是默认用英文回答"),
        (EN, "是的，以后仍然默认用英文回答"),
        (EN, "不错，以后默认用英文回答"),
        (TECH, "对，技术问题还是默认用中文回答，先给结论"),  # 先给 cut apart in 并先给结论
        # the same words in traditional script: recall's terms are compared in simplified
        # (``memories.language.script``, CC-CEDICT)
        (EN, "以後默認用英文回答"),
        ("User prefers concise answers", "Yes, the user prefers concise answers"),
        ("User prefers concise answers", "Right, user still prefers concise answers"),
    ],
)
def test_a_confirmed_restatement_is_a_noop(scope, agent, stored, again):
    first = services.memory_add(scope=scope, text=stored, actor=agent).memory_id
    outcome = services.memory_add(scope=scope, text=again, actor=agent)
    assert (outcome.status, outcome.reason) == (WriteStatus.NO_EFFECT, "duplicate"), outcome
    assert outcome.memory_id == first
    assert MemoryRow.objects.count() == 1


@pytest.mark.parametrize(
    ("stored", "new"),
    [
        (EN, "没错，以后默认用中文回答"),  # confirmed, but another value
        ("用户喜欢喝绿茶", "没错，用户不喜欢喝绿茶"),  # a real negation behind the confirmation
        ("用户喜欢喝绿茶", "对，但是用户不喜欢喝绿茶"),
        ("用户住在杭州", "对，用户住在杭州西湖区"),  # a new detail
        ("User likes spicy food", "Yes, but the user does not like spicy food"),
        ("对接人是王磊", "对接人是李娜"),  # 对 opening a word is no confirmation
    ],
)
def test_a_confirmation_does_not_hide_a_different_fact(scope, agent, stored, new):
    services.memory_add(scope=scope, text=stored, actor=agent)
    outcome = services.memory_add(scope=scope, text=new, actor=agent)
    assert outcome.status == WriteStatus.ADDED, outcome
    assert MemoryRow.objects.count() == 2


def test_the_probes_restatements_through_v1(v1, scope):
    first = v1.post("manage", body(scope, action="add", text=EN)).json()
    tech = v1.post("manage", body(scope, action="add", text=TECH)).json()
    for text, kept in (
        ("没错，以后默认用英文回答", first),
        ("对，技术问题还是默认用中文回答，先给结论", tech),
    ):
        again = v1.post("manage", body(scope, action="add", text=text)).json()
        assert (again["status"], again["reason"]) == ("no_effect", "duplicate"), again
        assert again["memory_id"] == kept["memory_id"]
    assert MemoryRow.objects.count() == 2
    assert AuditEvent.objects.filter(event="NOOP").count() == 2


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("没错，以后默认用英文回答", "以后默认用英文回答"),
        ("对对，嗯，还是默认用英文回答", "还是默认用英文回答"),
        ("Yes, the user prefers tea", "the user prefers tea"),
        ("对接人是王磊", "对接人是王磊"),  # 对 opening a word stays
        ("不对，用户住在上海", "不对，用户住在上海"),  # a denial is no confirmation
    ],
)
def test_the_confirmation_is_cut_off_before_comparing(text, fact):
    assert governance.without_confirmation(text) == fact


def test_the_shipped_calibration_set_holds_the_probes_restatements():
    assert (EN, "没错，以后默认用英文回答", True) in DEDUP_PAIRS
    assert (TECH, "对，技术问题还是默认用中文回答，先给结论", True) in DEDUP_PAIRS
    assert ("用户喜欢喝绿茶", "没错，用户不喜欢喝绿茶", False) in DEDUP_PAIRS
