"""Geometry for the server-rendered SVG charts (no chart JavaScript, nothing from a CDN).

The templates only place what these functions computed: bars, ticks, slices and heat levels.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date

from memories.selectors import DailyActivity, Topic

# --- 90-day trend: stacked bars (adds, updates, deletes) per week --------------------------
# Weekly buckets and a small viewBox: 13 wide bars stay readable at 390 px, where 90 one-day
# bars were slivers. The viewBox is drawn about 1:1 on a phone; on a desktop
# the CSS caps the chart's width so labels do not grow huge.
TREND_WIDTH = 400
TREND_HEIGHT = 190
TREND_LEFT = 30
TREND_RIGHT = 4
TREND_TOP = 10
TREND_BOTTOM = 26  # room for the week labels hanging below the axis
TREND_BUCKET_DAYS = 7
TREND_LABEL_EVERY = 3  # weeks between x-axis labels
NICE_STEPS = (1, 2, 5)


@dataclass(frozen=True)
class Segment:
    kind: str
    y: float
    height: float


@dataclass(frozen=True)
class WeekBar:
    first_day: str
    last_day: str
    x: float
    width: float
    adds: int
    updates: int
    deletes: int
    segments: tuple[Segment, ...]

    @property
    def total(self) -> int:
        return self.adds + self.updates + self.deletes

    @property
    def span(self) -> str:
        return f"{_short_day(self.first_day)} – {_short_day(self.last_day)}"


@dataclass(frozen=True)
class YTick:
    value: int
    y: float


@dataclass(frozen=True)
class XLabel:
    x: float
    text: str
    anchor: str = "middle"


@dataclass(frozen=True)
class TrendChart:
    width: int
    height: int
    left: int
    right: float
    top: int
    bottom: float
    bars: tuple[WeekBar, ...]
    y_ticks: tuple[YTick, ...]
    x_labels: tuple[XLabel, ...]
    adds: int
    updates: int
    deletes: int
    first_day: str
    last_day: str

    @property
    def is_empty(self) -> bool:
        return self.adds + self.updates + self.deletes == 0

    @property
    def active_bars(self) -> tuple[WeekBar, ...]:
        return tuple(b for b in self.bars if b.total)


def nice_step(peak: int, max_ticks: int = 4) -> int:
    """The smallest 1/2/5×10ⁿ step that covers ``peak`` in at most ``max_ticks`` steps."""
    magnitude = 1
    while True:
        for base in NICE_STEPS:
            step = base * magnitude
            if math.ceil(max(peak, 1) / step) <= max_ticks:
                return step
        magnitude *= 10


def weekly(daily: Sequence[DailyActivity]) -> list[tuple[str, str, int, int, int]]:
    """``(first_day, last_day, adds, updates, deletes)`` per 7 days, the last ending today; the
    oldest bucket may be shorter."""
    buckets: list[tuple[str, str, int, int, int]] = []
    end = len(daily)
    while end > 0:
        days = daily[max(0, end - TREND_BUCKET_DAYS) : end]
        buckets.append(
            (
                days[0].day,
                days[-1].day,
                sum(d.adds for d in days),
                sum(d.updates for d in days),
                sum(d.deletes for d in days),
            )
        )
        end -= TREND_BUCKET_DAYS
    return buckets[::-1]


# A wide screen gets its own drawing at about its own size, so the axis labels stay body-text
# sized instead of being scaled up with a phone-sized drawing.
TREND_WIDE = {"width": 1100, "height": 240, "label_every": 1}


def trend_chart(
    daily: Sequence[DailyActivity],
    *,
    width: int = TREND_WIDTH,
    height: int = TREND_HEIGHT,
    label_every: int = TREND_LABEL_EVERY,
) -> TrendChart:
    plot_right = width - TREND_RIGHT
    plot_bottom = height - TREND_BOTTOM
    plot_height = plot_bottom - TREND_TOP
    weeks = weekly(daily)
    peak = max((a + u + d for _f, _l, a, u, d in weeks), default=0)
    step = nice_step(peak)
    y_max = step * max(1, math.ceil(peak / step))

    def y_of(value: float) -> float:
        return round(plot_bottom - plot_height * value / y_max, 2)

    slot = (plot_right - TREND_LEFT) / max(1, len(weeks))
    bar_width = round(slot * 0.7, 2)
    bars: list[WeekBar] = []
    labels: list[XLabel] = []
    for index, (first, last, adds, updates, deletes) in enumerate(weeks):
        x = round(TREND_LEFT + index * slot + (slot - bar_width) / 2, 2)
        segments = _stacked(y_of, adds=adds, updates=updates, deletes=deletes)
        bars.append(
            WeekBar(
                first_day=first,
                last_day=last,
                x=x,
                width=bar_width,
                adds=adds,
                updates=updates,
                deletes=deletes,
                segments=segments,
            )
        )
        # Count label positions from the newest week, so "this week" is always labelled.
        if (len(weeks) - 1 - index) % label_every == 0:
            labels.append(XLabel(x=round(x + bar_width / 2, 2), text=_short_day(first)))
    ticks = tuple(YTick(value=v, y=y_of(v)) for v in range(0, y_max + 1, step))
    return TrendChart(
        width=width,
        height=height,
        left=TREND_LEFT,
        right=plot_right,
        top=TREND_TOP,
        bottom=plot_bottom,
        bars=tuple(bars),
        y_ticks=ticks,
        x_labels=tuple(labels),
        adds=sum(d.adds for d in daily),
        updates=sum(d.updates for d in daily),
        deletes=sum(d.deletes for d in daily),
        first_day=daily[0].day if daily else "",
        last_day=daily[-1].day if daily else "",
    )


def _stacked(y_of: Callable[[float], float], **values: int) -> tuple[Segment, ...]:
    """One segment per non-zero kind, in the order given, each sitting on the one before it
    from the baseline up."""
    segments: list[Segment] = []
    base = 0
    for kind, value in values.items():
        if value:
            top = y_of(base + value)
            segments.append(Segment(kind=kind, y=top, height=round(y_of(base) - top, 2)))
            base += value
    return tuple(segments)


def _short_day(iso_day: str) -> str:
    parsed = date.fromisoformat(iso_day)
    return f"{parsed.month:02d}-{parsed.day:02d}"


# --- distributions: a donut (sources) and horizontal bars (categories) ----------------------
DONUT_START = 25.0  # the circle's circumference is 100; 25 puts the first slice at 12 o'clock


@dataclass(frozen=True)
class Slice:
    key: str
    label: str
    count: int
    percent: float
    dash: str
    offset: float


def donut(counts: Mapping[str, int], label: Callable[[str], str]) -> tuple[Slice, ...]:
    total = sum(counts.values())
    if not total:
        return ()
    slices: list[Slice] = []
    done = 0.0
    for key, count in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        percent = 100.0 * count / total
        slices.append(
            Slice(
                key=key,
                label=label(key),
                count=count,
                percent=round(percent, 1),
                dash=f"{percent:.3f} {100 - percent:.3f}",
                offset=round(DONUT_START - done, 3),
            )
        )
        done += percent
    return tuple(slices)


BAR_ROW = 30
BAR_LABEL_WIDTH = 84
BAR_CHART_WIDTH = 360
BAR_VALUE_SPACE = 40


@dataclass(frozen=True)
class HBar:
    key: str
    label: str
    count: int
    y: float
    width: float


@dataclass(frozen=True)
class BarChart:
    width: int
    height: int
    label_width: int
    bars: tuple[HBar, ...]
    grid: tuple[tuple[float, int], ...]


def bar_chart(
    counts: Mapping[str, int], keys: Sequence[str], label: Callable[[str], str]
) -> BarChart:
    """One bar per key (zeros included, so the scale is comparable between users)."""
    peak = max(counts.values(), default=0)
    step = nice_step(peak)
    x_max = step * max(1, math.ceil(peak / step))
    span = BAR_CHART_WIDTH - BAR_LABEL_WIDTH - BAR_VALUE_SPACE
    bars = tuple(
        HBar(
            key=key,
            label=label(key),
            count=counts.get(key, 0),
            y=index * BAR_ROW,
            width=round(span * counts.get(key, 0) / x_max, 2),
        )
        for index, key in enumerate(keys)
    )
    grid = tuple(
        (round(BAR_LABEL_WIDTH + span * v / x_max, 2), v) for v in range(0, x_max + 1, step)
    )
    return BarChart(
        width=BAR_CHART_WIDTH,
        height=len(keys) * BAR_ROW + 20,
        label_width=BAR_LABEL_WIDTH,
        bars=bars,
        grid=grid,
    )


# --- topic heat map: size and colour by linked memories ------------------------------------
HEAT_LEVELS = 5


@dataclass(frozen=True)
class HeatCell:
    id: str
    text: str
    kind: str
    count: int
    level: int


_GENERIC_PHRASE = re.compile(r"[a-z]+(?: [a-z]+)+")


def is_noise_topic(topic: Topic) -> bool:
    """A lower-case English phrase linked to one memory ("third party models") is a noun chunk
    of that sentence, not a subject of the person's memory; names and Chinese terms stay."""
    return topic.memory_count < 2 and bool(_GENERIC_PHRASE.fullmatch(topic.text))


def heat_cells(topics: Sequence[Topic]) -> tuple[HeatCell, ...]:
    """Levels 1-5 on a square-root scale, so one dominant topic does not flatten the rest."""
    if not topics:
        return ()
    low = math.sqrt(min(t.memory_count for t in topics))
    high = math.sqrt(max(t.memory_count for t in topics))
    cells = []
    for topic in topics:
        if high == low:
            level = 3
        else:
            share = (math.sqrt(topic.memory_count) - low) / (high - low)
            level = 1 + min(HEAT_LEVELS - 1, int(share * HEAT_LEVELS))
        cells.append(
            HeatCell(
                id=topic.id,
                text=topic.text,
                kind=topic.kind,
                count=topic.memory_count,
                level=level,
            )
        )
    return tuple(cells)
