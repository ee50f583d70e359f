"""The overview's chart geometry (``edges.console.charts``), computed from real inputs:
where bars, ticks, slices and heat levels land, and what an empty chart looks like.

Expected positions are derived from the module's layout constants, so a test says why a
number is right rather than repeating what the code printed."""

from __future__ import annotations

import math
from datetime import date, timedelta

import pytest

from edges.console import charts
from edges.console.charts import (
    BAR_CHART_WIDTH,
    BAR_LABEL_WIDTH,
    BAR_ROW,
    BAR_VALUE_SPACE,
    DONUT_START,
    TREND_BOTTOM,
    TREND_HEIGHT,
    TREND_LEFT,
    TREND_RIGHT,
    TREND_TOP,
    TREND_WIDE,
    TREND_WIDTH,
    bar_chart,
    donut,
    heat_cells,
    is_noise_topic,
    nice_step,
    trend_chart,
    weekly,
)
from memories.selectors import DailyActivity, Topic

PLOT_BOTTOM = TREND_HEIGHT - TREND_BOTTOM
PLOT_HEIGHT = PLOT_BOTTOM - TREND_TOP
BAR_SPAN = BAR_CHART_WIDTH - BAR_LABEL_WIDTH - BAR_VALUE_SPACE


def days(count: int, start: date = date(2026, 3, 1), **per_day: dict[int, int]) -> list:
    """``count`` consecutive days from ``start``; ``adds={index: n}`` etc. set single days."""
    return [
        DailyActivity(
            day=(start + timedelta(days=i)).isoformat(),
            adds=per_day.get("adds", {}).get(i, 0),
            updates=per_day.get("updates", {}).get(i, 0),
            deletes=per_day.get("deletes", {}).get(i, 0),
        )
        for i in range(count)
    ]


# --- nice_step -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("peak", "step"),
    [
        (0, 1),  # nothing yet: one step of 1 still draws an axis
        (4, 1),  # four steps of 1 fit
        (5, 2),  # five steps of 1 do not; three of 2 do
        (9, 5),  # five steps of 2 do not; two of 5 do
        (20, 5),  # exactly four steps of 5
        (21, 10),  # a fifth step of 5 would be needed
        (350, 100),
    ],
)
def test_nice_step_is_the_smallest_round_step_covering_the_peak_in_four(peak, step):
    assert nice_step(peak) == step


def test_nice_step_never_needs_more_than_the_allowed_ticks_and_is_the_smallest_that_fits():
    nice = sorted(base * 10**power for power in range(5) for base in (1, 2, 5))
    for peak in range(0, 3000, 7):
        step = nice_step(peak)
        assert step in nice
        assert math.ceil(max(peak, 1) / step) <= 4
        smaller = [s for s in nice if s < step]
        assert all(math.ceil(max(peak, 1) / s) > 4 for s in smaller)
    assert math.ceil(30 / nice_step(30, max_ticks=10)) <= 10


# --- weekly buckets --------------------------------------------------------------------------


def test_weekly_buckets_end_today_and_the_oldest_may_be_short():
    daily = days(10, adds={0: 1, 2: 2, 3: 4}, updates={9: 1}, deletes={5: 3})
    assert weekly(daily) == [
        # days 0-2: the three left over once the newest seven are a week
        (daily[0].day, daily[2].day, 1 + 2, 0, 0),
        (daily[3].day, daily[9].day, 4, 1, 3),
    ]
    assert weekly([]) == []


# --- the 90-day trend ------------------------------------------------------------------------


def test_an_empty_trend_draws_an_axis_and_says_it_is_empty():
    chart = trend_chart([])
    assert chart.is_empty and chart.bars == () and chart.active_bars == ()
    assert (chart.first_day, chart.last_day) == ("", "")
    # nothing counted: one step of 1, a baseline and a top line
    assert [(t.value, t.y) for t in chart.y_ticks] == [(0, PLOT_BOTTOM), (1, TREND_TOP)]


def test_quiet_days_are_not_an_empty_trend_only_when_something_happened():
    quiet = trend_chart(days(14))
    assert quiet.is_empty and len(quiet.bars) == 2 and quiet.active_bars == ()
    busy = trend_chart(days(14, deletes={13: 1}))
    assert not busy.is_empty and busy.active_bars == (busy.bars[1],)


def test_trend_bars_stack_adds_updates_deletes_from_the_baseline():
    daily = days(14, adds={0: 3, 8: 2}, updates={9: 1}, deletes={13: 1})
    chart = trend_chart(daily)
    assert (chart.adds, chart.updates, chart.deletes) == (5, 1, 1)
    assert (chart.first_day, chart.last_day) == ("2026-03-01", "2026-03-14")
    assert (chart.left, chart.right, chart.bottom) == (
        TREND_LEFT,
        TREND_WIDTH - TREND_RIGHT,
        PLOT_BOTTOM,
    )
    older, newer = chart.bars
    assert (older.total, newer.total) == (3, 4)
    assert newer.span == "03-08 – 03-14" and older.span == "03-01 – 03-07"

    # the peak week (4) needs a step of 1, so the axis tops out at 4
    per_unit = PLOT_HEIGHT / 4
    assert [t.value for t in chart.y_ticks] == [0, 1, 2, 3, 4]
    assert [t.y for t in chart.y_ticks] == [round(PLOT_BOTTOM - per_unit * v, 2) for v in range(5)]
    assert chart.y_ticks[-1].y == TREND_TOP

    # a kind with nothing draws no segment; the others sit on each other from the baseline
    assert [s.kind for s in older.segments] == ["adds"]
    assert [s.kind for s in newer.segments] == ["adds", "updates", "deletes"]
    base = PLOT_BOTTOM
    for segment, value in zip(newer.segments, (2, 1, 1), strict=True):
        assert segment.y + segment.height == pytest.approx(base, abs=0.02)
        assert segment.height == pytest.approx(per_unit * value, abs=0.02)
        base = segment.y
    assert newer.segments[-1].y == TREND_TOP  # the peak week reaches the top tick


def test_trend_bars_share_the_plot_width_evenly_and_are_centred_in_their_slot():
    chart = trend_chart(days(14, adds={0: 1}))
    slot = (TREND_WIDTH - TREND_RIGHT - TREND_LEFT) / 2
    for index, bar in enumerate(chart.bars):
        assert bar.width == round(slot * 0.7, 2)
        centre = TREND_LEFT + slot * (index + 0.5)
        assert bar.x + bar.width / 2 == pytest.approx(centre, abs=0.02)
    assert chart.bars[0].x > TREND_LEFT and chart.bars[-1].x + chart.bars[-1].width < chart.right


def test_week_labels_count_back_from_this_week():
    ninety = days(91, adds={90: 1})
    chart = trend_chart(ninety)
    assert len(chart.bars) == 13
    # every third week from the newest: weeks 12, 9, 6, 3 and 0
    labelled = [chart.bars[i] for i in (0, 3, 6, 9, 12)]
    assert [label.text for label in chart.x_labels] == [
        f"{date.fromisoformat(bar.first_day):%m-%d}" for bar in labelled
    ]
    assert [label.x for label in chart.x_labels] == [
        round(bar.x + bar.width / 2, 2) for bar in labelled
    ]
    assert chart.x_labels[-1].text == "05-24"  # this week began 2026-05-24 (day 84 of 91)
    every_week = trend_chart(ninety, **TREND_WIDE)
    assert len(every_week.x_labels) == 13
    assert (every_week.width, every_week.height) == (TREND_WIDE["width"], TREND_WIDE["height"])
    assert every_week.right == TREND_WIDE["width"] - TREND_RIGHT


# --- the sources donut -----------------------------------------------------------------------


def test_donut_slices_go_round_from_twelve_o_clock_largest_first():
    slices = donut({"ingest": 1, "manage": 3, "import": 1}, label=str.upper)
    assert [(s.key, s.label, s.count) for s in slices] == [
        ("manage", "MANAGE", 3),
        ("import", "IMPORT", 1),  # ties by key
        ("ingest", "INGEST", 1),
    ]
    assert [s.percent for s in slices] == [60.0, 20.0, 20.0]
    # each dash is the slice then the rest of the circumference of 100
    assert slices[0].dash == "60.000 40.000"
    # the first slice starts at the top; each next one where the previous ended
    assert [s.offset for s in slices] == [DONUT_START, DONUT_START - 60, DONUT_START - 80]


def test_an_empty_donut_has_no_slices():
    assert donut({}, label=str) == ()
    assert donut({"manage": 0}, label=str) == ()


# --- the categories bar chart ----------------------------------------------------------------


def test_category_bars_keep_every_key_and_share_one_scale():
    chart = bar_chart({"fact": 5, "goal": 2}, ["fact", "goal", "project"], label=str.title)
    assert [(b.key, b.label, b.count) for b in chart.bars] == [
        ("fact", "Fact", 5),
        ("goal", "Goal", 2),
        ("project", "Project", 0),  # no memories: still a row, so users compare
    ]
    assert [b.y for b in chart.bars] == [0, BAR_ROW, 2 * BAR_ROW]
    # a peak of 5 takes steps of 2, so the scale ends at 6
    assert [b.width for b in chart.bars] == [
        round(BAR_SPAN * 5 / 6, 2),
        round(BAR_SPAN * 2 / 6, 2),
        0,
    ]
    assert [value for _x, value in chart.grid] == [0, 2, 4, 6]
    assert chart.grid[0][0] == BAR_LABEL_WIDTH
    assert chart.grid[-1][0] == BAR_LABEL_WIDTH + BAR_SPAN
    assert (chart.width, chart.height, chart.label_width) == (
        BAR_CHART_WIDTH,
        3 * BAR_ROW + 20,
        BAR_LABEL_WIDTH,
    )


def test_an_empty_bar_chart_draws_zero_bars_on_a_scale_of_one():
    chart = bar_chart({}, ["fact"], label=str)
    assert [(b.count, b.width) for b in chart.bars] == [(0, 0)]
    assert [value for _x, value in chart.grid] == [0, 1]


# --- the topic heat map ----------------------------------------------------------------------


def topic(text: str, count: int, kind: str = "QUOTED") -> Topic:
    return Topic(id=f"id-{text}", text=text, kind=kind, memory_count=count)


@pytest.mark.parametrize(
    ("candidate", "noise"),
    [
        (topic("third party models", 1), True),  # a noun chunk of one sentence
        (topic("third party models", 2), False),  # recurring: a subject
        (topic("林清", 1), False),
        (topic("Poco Memory", 1), False),  # a name keeps its capitals
        (topic("python", 1), False),  # one word, not a phrase
    ],
)
def test_noise_topics_are_one_off_lower_case_english_phrases(candidate, noise):
    assert is_noise_topic(candidate) is noise


def test_heat_levels_follow_the_square_root_of_the_memory_count():
    # square roots 1, 2, 3, 4: shares 0, 1/3, 2/3, 1 of the range, in five levels
    cells = heat_cells([topic("a", 1), topic("b", 4), topic("c", 9), topic("d", 16)])
    assert [c.level for c in cells] == [1, 2, 4, 5]
    assert [(c.id, c.text, c.kind, c.count) for c in cells[:1]] == [("id-a", "a", "QUOTED", 1)]


def test_heat_levels_are_the_middle_one_when_all_topics_are_equal_and_none_without_topics():
    assert [c.level for c in heat_cells([topic("a", 3), topic("b", 3)])] == [3, 3]
    assert heat_cells([]) == ()


def test_one_dominant_topic_does_not_flatten_the_rest():
    # on a linear scale 10 of 100 would be level 1 like 1; on the square-root scale it is not
    cells = heat_cells([topic("a", 1), topic("b", 10), topic("c", 100)])
    assert [c.level for c in cells] == [1, 2, 5]
    assert charts.HEAT_LEVELS == 5
