"""A time to find for the user: what already holds the user's time is its evidence.

"帮我找个时间跟供应商开个视频沟通", "Find a slot next week for a planning session", "帮我约一个和
伦敦办公室的电话" share no word with "用户每周三下午要接孩子放学，不能安排会议", "User keeps
mornings free of meetings" or "User's working hours are in the Singapore time zone", and e5 puts
a task that generic under its floor over each of them: the agent booked the call on top of the
school run. So the task is read here: when it asks to put something of the user's in time
(``asks_for_a_time``), the memories among the second model's nearest that hold the user's time
(``holds_time``) are its evidence, first, in e5's order — through the door a list asked for goes
through (``memories.recall.listing``, ``fuse(listed=…)``).

**A time to find.** The task asks to find, book, move or choose a time for a meeting, a call or
an event (找个时间, 排个时间, 约…电话, 挪到 / 放到 / 改到 …, 哪天…合适, "schedule", "find a slot",
"set up a call", "move … to", "when should we hold …") and is the user's: 我 / 帮 / 把 …, "I",
"we", "me", or an English request ("Schedule a call with …"). A question about time in general
("What time is it in Tokyo now?", "怎么安排一次高效的周会") or one that asks when something is
("When is the standup?") finds no time: the channels answer it as before.

**What holds the user's time.** A memory that ties the user's days to an hour or a day — a time
of day (上午, 傍晚, 十点前, mornings, 9:30, 3 pm), a day of the week (每周三, weekdays), the
user's time zone or working hours, when they sleep or work best (夜猫子, night owl) — a child's
school run included. A memory about eating or drinking at an hour ("用户下午喜欢喝乌龙茶",
"两点以后不碰咖啡") holds a taste, not the user's time (a meal reads it: ``memories.recall.meals``);
a project's month or quarter ("计划明年三月上线") holds no hour.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memories.language.times import (
    HOUR_EN,
    HOUR_ZH,
    PART_OF_DAY_EN,
    PART_OF_DAY_ZH,
    WEEKDAY_EN,
    WEEKDAY_ZH,
)
from memories.types import ChannelHit

# Finding, booking or moving a time, in Chinese: 找个时间 / 排个时间, 约一个…电话, 挪到 / 放到 …
# a day or an hour, 订 … 深夜场, 哪天 / 什么时候 … 合适 (约定 is an agreement, and "周会固定在周二"
# says when it is).
# An hour, a part of the day or a day of the week (``memories.language.times``).
_TIME_ZH = f"{HOUR_ZH}|{PART_OF_DAY_ZH}|{WEEKDAY_ZH}"
_EVENT_ZH = (
    r"会|电话|通话|沟通|面试|见面|拜访|评审|复盘|讨论|培训|分享|演示|retro|sync|call|meeting"
)
_A_TIME_ZH = re.compile(
    r"(?:找|挑|定|选|约|排|留|腾|空)(?:出)?(?:个|一个|一下)?(?:时间|时段|空档|档期)|"
    rf"约(?!定|束|好了)(?:一个|个|一下|一次|一场)?.{{0,12}}(?:{_EVENT_ZH})|"
    rf"(?:安排|挪|放|改|调|约)(?:到|在)(?:.{{0,8}}(?:{_TIME_ZH})|哪天|什么时候)|"
    rf"(?:订|约)(?:一场|一个|个)?.{{0,6}}(?:{_TIME_ZH}).{{0,4}}场|"
    r"哪天.{0,6}(?:合适|方便|好)|什么时候.{0,4}(?:合适|方便|好)",
    re.IGNORECASE,
)
_A_TIME_EN = re.compile(
    r"\b(?:re)?schedul(?:e|ing)\b|\bfind (?:(?:me|us) )?(?:a )?(?:slot|time|window)\b|"
    r"\b(?:book|set up|arrange|plan|organi[sz]e|move|put|push)\b.{0,40}\b(?:calls?|meetings?|"
    r"sessions?|sync|1:1|one-on-one|interviews?|reviews?|retro|standup|appointments?|demo|"
    r"workshop|catch-up)\b(?!\s+(?:notes|minutes|agenda))|"
    r"\bwhen should (?:i|we)\b.{0,30}\b(?:meet|call|hold|have|schedule|book|run|do)\b|"
    r"\bwhat time (?:should|would|works for) (?:i|we|me|us)\b",
    re.IGNORECASE,
)
# Whose time: the user's — 我 / 帮 / 把 / 咱 in Chinese, or an English request of the user's.
_USERS_ZH = re.compile(r"我|咱|帮|替|给我|^把|吧$")
_USERS_EN = re.compile(
    r"\b(?:i|i'm|me|my|we|we're|us|our)\b|^(?:please\s+)?(?:re)?schedule\b|"
    r"^(?:please\s+)?(?:find|book|set up|arrange|plan|organi[sz]e|move|put|push)\b",
    re.IGNORECASE,
)
# What ties the user's days to an hour or a day.
_HOLDS_TIME = re.compile(
    rf"{_TIME_ZH}|工作日|每天|每周|时区|作息|睡觉|起床|早起|夜猫子|午休|上班时间|下班|"
    rf"{PART_OF_DAY_EN}|{HOUR_EN}|{WEEKDAY_EN}|\b(?:every day|every week)\b|"
    r"\btime ?zone\b|\bworking hours\b|"
    r"\boffice hours\b|\bon call\b|\bsleeps?\b|\bwakes? up\b|\bnight owl\b|\bearly riser\b",
    re.IGNORECASE,
)

# Eating or drinking at an hour holds a taste, not the user's time ("两点以后不碰咖啡"); "before
# lunch" is still an hour.
_CONSUMES = re.compile(r"吃|喝|饮|咖啡|茶|\b(?:eats?|drinks?|coffee|tea|snacks?)\b", re.IGNORECASE)


def asks_for_a_time(query: str) -> bool:
    """Whether ``query`` asks to find, book or move a time for something of the user's (above)."""
    question = " ".join(query.split()).strip(" ?？!！。.")
    # Either language for each part: "帮我把 retro 放到傍晚六点左右".
    return bool(_A_TIME_ZH.search(question) or _A_TIME_EN.search(question)) and bool(
        _USERS_ZH.search(question) or _USERS_EN.search(question)
    )


def holds_time(text: str) -> bool:
    """Whether the memory ``text`` ties the user's days to an hour or a day (above)."""
    return bool(_HOLDS_TIME.search(text)) and not _CONSUMES.search(text)


def holding_time(query: str, nearest: Sequence[ChannelHit]) -> list[str]:
    """The memories among ``nearest`` (the meaning channel's rows, the nearest first) that hold
    the user's time, in that order, when ``query`` asks for a time; nothing otherwise."""
    if not asks_for_a_time(query):
        return []
    return [hit.id for hit in nearest if holds_time(hit.content)]
