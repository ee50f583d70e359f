"""The order of an answer (``memories.recall.fusion``): evidence decides whether a question is
answered; once it is, every channel's evidence and each model's own ranking of the scope's
nearest memories — over and under its floor — order it, and ``top_k`` is filled from that order.
A question about now ranks the newer of the memories about its subject first; one not about the
past ranks a memory key's current value before its past values.  The meaning channel's floor
depends on the pair of languages (``MeaningQuery.floor_for``)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memories.recall.channels import MeaningQuery
from memories.recall.fusion import asks_about_now, asks_about_past, fuse
from memories.recall.languages import Written, written_in
from memories.recall.tuning import ORDER_DEPTH
from memories.types import Channel, ChannelHit


def hit(
    channel: Channel,
    memory_id: str,
    strength: float,
    *,
    under: bool = False,
    created: datetime | None = None,
) -> ChannelHit:
    return ChannelHit(
        channel=channel,
        id=memory_id,
        content=memory_id,
        category="fact",
        strength=strength,
        similarity=0.1,
        margin=0.0 if under else 0.5,
        names_only=False,
        under_floor=under,
        created_at=created,
    )


def meaning(*ranked: tuple[str, float, bool]) -> list[ChannelHit]:
    return [hit(Channel.MEANING, i, s, under=u) for i, s, u in ranked]


def channels(**found: list[ChannelHit]) -> dict[Channel, list[ChannelHit]]:
    return {c: [] for c in Channel} | {Channel(name): hits for name, hits in found.items()}


def test_the_second_models_first_memory_under_its_floor_comes_before_weaker_evidence():
    """ "a" is the keyword channel's evidence (its only hit); e5 ranks "x" first, under its floor:
    "x" is ordered before the weaker evidence "b" it ranks last, and marked related."""
    found = channels(
        keyword=[hit(Channel.KEYWORD, "a", 0.9), hit(Channel.KEYWORD, "b", 0.6)],
        meaning=meaning(("x", 0.82, True), ("a", 0.81, True), ("y", 0.80, True)),
    )
    hits = fuse(found, top_k=3)
    assert [h.id for h in hits] == ["a", "x", "b"]
    assert [h.related for h in hits] == [False, True, False]
    scores = [h.score for h in hits]
    assert scores == sorted(scores, reverse=True) and 0 < scores[-1] < scores[0] <= 1.0


def test_top_k_is_filled_from_the_order():
    found = channels(
        vector=[hit(Channel.VECTOR, "a", 0.5)],
        meaning=meaning(*((m, 0.8 - n / 100, True) for n, m in enumerate("pqrst"))),
    )
    assert [h.id for h in fuse(found, top_k=4)] == ["a", "p", "q", "r"]
    assert [h.id for h in fuse(found, top_k=6)] == ["a", "p", "q", "r", "s", "t"]


def test_the_order_reads_the_second_models_ranking_to_its_depth():
    deep = [(f"m{n:02}", 0.9 - n / 1000, True) for n in range(ORDER_DEPTH + 5)]
    found = channels(keyword=[hit(Channel.KEYWORD, "a", 0.9)], meaning=meaning(*deep))
    answered = [h.id for h in fuse(found, top_k=100)]
    assert answered == ["a", *(m for m, _, _ in deep[:ORDER_DEPTH])]


def test_no_evidence_answers_nothing_however_near_the_memories():
    near = meaning(("x", 0.86, True), ("y", 0.85, True))
    under = [hit(Channel.VECTOR, "x", 0.2, under=True)]
    assert fuse(channels(meaning=near, vector=under), top_k=5) == ()


def test_without_the_second_model_asked_the_answer_is_the_evidence():
    found = channels(
        keyword=[hit(Channel.KEYWORD, "a", 0.9)],
        meaning=meaning(("x", 0.86, True), ("a", 0.85, True)),
    )
    asked = (Channel.VECTOR, Channel.KEYWORD, Channel.ENTITY)
    hits = fuse(found, top_k=5, use=asked)
    assert [h.id for h in hits] == ["a"] and hits[0].score == round(
        1 / 3, 4
    )  # first in one of three


def plan_then_moved(
    plan: datetime, moved: datetime, *more_meaning: ChannelHit
) -> dict[Channel, list[ChannelHit]]:
    """Two memories of one subject, "plan" stored at ``plan`` and "moved" at ``moved``, found
    alike by keyword and a little nearer "plan" by meaning."""
    return channels(
        keyword=[
            hit(Channel.KEYWORD, "plan", 1.0, created=plan),
            hit(Channel.KEYWORD, "moved", 1.0, created=moved),
        ],
        meaning=[
            hit(Channel.MEANING, "plan", 0.93, created=plan),
            hit(Channel.MEANING, "moved", 0.92, created=moved),
            *more_meaning,
        ],
    )


def test_a_question_about_now_ranks_the_newer_of_one_subjects_memories_first():
    march, may, december = (datetime(2026, m, 1, tzinfo=UTC) for m in (3, 5, 12))
    found = plan_then_moved(
        march,
        may,
        # newest of all, about something else: far from the question, it keeps its place
        hit(Channel.MEANING, "cat", 0.83, under=True, created=december),
    )
    assert [h.id for h in fuse(found, top_k=3)] == ["plan", "moved", "cat"]
    assert [h.id for h in fuse(found, top_k=3, newer_first=True)] == ["moved", "plan", "cat"]


def test_memories_of_one_day_on_the_service_clock_share_a_rank():
    # 07:00 and 09:00 on 03-02 in Shanghai: one morning, though UTC's midnight falls between.
    before, after = datetime(2026, 3, 1, 23, tzinfo=UTC), datetime(2026, 3, 2, 1, tzinfo=UTC)
    found = plan_then_moved(before, after)
    assert [h.id for h in fuse(found, top_k=2, newer_first=True)] == ["plan", "moved"]


@pytest.mark.parametrize(
    ("question", "now"),
    [
        ("咖啡馆现在定在哪天开业？", True),
        ("游戏的美术风格最后定了什么？", True),
        ("When is the beta due now?", True),
        ("Which framework does the Android client use in the end?", True),
        ("咖啡馆开在哪里？", False),
        ("Who knows the answer?", False),  # "now" inside a word is not "now"
    ],
)
def test_what_asks_about_now(question, now):
    assert asks_about_now(question) is now


# Last year's employer, today's (keyed), something else; as ``keys.stated_key`` reads them.
LAST_YEAR, TODAY, CAT = "用户去年在阿里工作。", "用户在字节跳动工作。", "用户养了一只叫豆豆的猫。"
STATED = {
    LAST_YEAR: ("profile.employer", True),
    TODAY: ("profile.employer", False),
    CAT: ("", False),
}


def employers(*more: ChannelHit) -> dict[Channel, list[ChannelHit]]:
    """ "我在哪家公司上班": last year's employer is the only evidence; e5 ranks the cat, under
    its floor, before today's employer."""
    return channels(
        keyword=[hit(Channel.KEYWORD, LAST_YEAR, 1.0)],
        meaning=[
            hit(Channel.MEANING, LAST_YEAR, 0.88),
            hit(Channel.MEANING, CAT, 0.87, under=True),
            hit(Channel.MEANING, TODAY, 0.86, under=True),
            *more,
        ],
    )


def test_a_past_value_of_a_key_ranks_below_the_keys_current_value():
    found = employers()
    assert [h.id for h in fuse(found, top_k=3)] == [LAST_YEAR, CAT, TODAY]
    hits = fuse(found, top_k=3, present_first=True, stated=STATED.__getitem__)
    assert [h.id for h in hits] == [TODAY, LAST_YEAR, CAT]
    assert [h.related for h in hits] == [True, False, True]
    scores = [h.score for h in hits]
    assert scores == sorted(scores, reverse=True), scores  # no score rises down the answer


def test_a_question_about_the_past_keeps_the_channels_order():
    found = employers()
    hits = fuse(found, top_k=3, present_first=False, stated=STATED.__getitem__)
    assert [h.id for h in hits] == [LAST_YEAR, CAT, TODAY]


def test_a_past_value_with_no_current_value_keeps_its_place():
    found = channels(
        keyword=[hit(Channel.KEYWORD, LAST_YEAR, 1.0)],
        meaning=meaning((LAST_YEAR, 0.88, False), (CAT, 0.87, True)),
    )
    hits = fuse(found, top_k=2, present_first=True, stated=STATED.__getitem__)
    assert [h.id for h in hits] == [LAST_YEAR, CAT]


def test_keys_are_read_only_when_an_answer_names_a_past_time():
    def unread(text: str) -> tuple[str, bool]:
        raise AssertionError(f"read {text}")

    found = channels(keyword=[hit(Channel.KEYWORD, TODAY, 1.0)], meaning=meaning((CAT, 0.87, True)))
    hits = fuse(found, top_k=2, present_first=True, stated=unread)
    assert [h.id for h in hits] == [TODAY, CAT]


@pytest.mark.parametrize(
    ("question", "past"),
    [
        ("我去年在哪家公司", True),
        ("我以前在哪工作", True),
        ("我之前住在哪", True),
        ("我上个月在哪上班", True),
        ("Where did I work last year?", True),
        ("Where did I use to work?", True),
        ("What was my previous role?", True),
        ("我在哪家公司上班", False),
        ("我在哪工作", False),
        ("我现在在哪工作", False),
        ("我以前在阿里，现在在哪工作", False),  # asked about now
        ("Where do I work?", False),
        ("Which editor do I use?", False),
    ],
)
def test_what_asks_about_the_past(question, past):
    assert asks_about_past(question) is past


def test_the_meaning_floor_depends_on_the_pair_of_languages():
    asked = MeaningQuery(
        model="e5-small",
        vector=[],
        floor=0.87,
        across_floor=0.83,
        language=written_in("周报应该怎么写"),
    )
    assert asked.language is Written.ZH
    assert asked.floor_for("周报要结论先行") == 0.87
    assert asked.floor_for("PR 需要几个人 review") == 0.87  # mixed reads as Chinese
    assert asked.floor_for("Prefers concise English summaries for weekly reports.") == 0.83
    unpaired = MeaningQuery(model="e5-small", vector=[], floor=0.87)
    assert unpaired.floor_for("Prefers concise English summaries for weekly reports.") == 0.87


def test_the_across_floor_is_what_calibration_recommends_for_its_pairs():
    """``calibrate_min_score`` places each pair of languages' floor on its shipped set; the
    default across languages is its recommendation.  The English pair's recommendation (lower)
    is not taken: `make eval`'s English off-topic questions reach 0.834 over a scope of
    English projects (docs/retrieval.md, "Floors per pair of languages")."""
    from io import StringIO

    from django.conf import settings
    from django.core.management import call_command

    out = StringIO()
    call_command("calibrate_min_score", stdout=out)
    text = out.getvalue()
    assert settings.SECOND_MODEL_ACROSS_MIN_SCORE == 0.83
    assert "recommended across floor: 0.83" in text
    assert "recommended en floor: 0.82" in text
    assert settings.SECOND_MODEL_EN_MIN_SCORE == settings.SECOND_MODEL_MIN_SCORE == 0.87
