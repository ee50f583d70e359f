"""Which tasks ask for a time to find for the user, and which memories hold the user's time
(``memories.recall.schedule``)."""

from __future__ import annotations

import pytest

from memories.recall.schedule import asks_for_a_time, holding_time, holds_time
from tests.memories.recall.test_listing import hit


@pytest.mark.parametrize(
    "task",
    [
        "帮我找个时间跟供应商开个视频沟通",
        "周二的客户拜访帮我排个时间",
        "下周帮我约一个跟上海办公室的视频会",
        "把周会挪到周四下午吧",
        "帮我把 retro 放到傍晚六点左右",
        "帮我把最难的那场评审放在哪天什么时候好",
        "帮我订一场周五深夜场的电影",
        "Schedule a call with the Tokyo team next week",
        "Find a slot next week for a 90-minute planning session with everyone",
        "Can you set up a 1:1 with my manager on Thursday?",
        "When should we hold the quarterly planning meeting?",
        "Please reschedule my dentist appointment",
    ],
)
def test_a_time_to_find_for_the_user(task):
    assert asks_for_a_time(task)


@pytest.mark.parametrize(
    "question",
    [
        # Time in general, or when something is: the channels answer it.
        "What time is it in Tokyo now?",
        "When is the standup?",
        "例会是几点",
        "怎么安排一次高效的周会",
        "帮我写一份会议纪要的模板",
        "Summarize the meeting notes from the planning session",
        "How do I write a good meeting agenda?",
        # An agreement, and when something is.
        "我们约定代码评审意见分三级",
        "我们组周会固定在周二下午两点",
        # No time to find at all.
        "帮我订明天中午的外卖",
        "推荐几部科幻电影",
        "帮我规划一下学日语的计划",
        "Book a flight to Tokyo",
    ],
)
def test_no_time_to_find(question):
    assert not asks_for_a_time(question)


@pytest.mark.parametrize(
    "text",
    [
        "用户每周三下午要接孩子放学，不能安排会议。",
        "用户晚上十一点前必须睡觉，不然第二天没精神。",
        "用户是夜猫子，上午十点前效率很低。",
        "用户的儿子今年上一年级，下午三点半放学要去接。",
        "每天的 standup 在 9:15，用 Zoom 开。",
        "User does deep work before lunch and keeps mornings free of meetings.",
        "User's working hours are in the Singapore time zone.",
        "The daily standup is at 9:30 and lasts fifteen minutes.",
        "User is on call every fourth week.",
        "用户周末一般不看工作消息。",
    ],
)
def test_what_holds_the_users_time(text):
    assert holds_time(text)


@pytest.mark.parametrize(
    "text",
    [
        # A taste at an hour, a little of something, a project's month: no hour of the user's.
        "用户下午喜欢喝一杯乌龙茶。",
        "用户对咖啡因敏感，两点以后不碰咖啡和奶茶。",
        "User likes green tea in the afternoon.",
        "用户胃不好，一点辣都不能吃。",
        "用户负责“星河”项目，计划明年三月上线。",
        "Kestrel is due at the end of March.",
        "Prefers concise English summaries for weekly reports.",
        "用户腰椎间盘突出，久坐超过一小时就会疼。",
        # Weeks, not a day of the week.
        "用户下个星期要去上海出差两个礼拜。",
    ],
)
def test_what_holds_no_time(text):
    assert not holds_time(text)


def test_the_time_holders_come_in_the_meaning_channels_order():
    nearest = [
        hit("tea", "用户下午喜欢喝一杯乌龙茶。"),
        hit("zone", "The user works in the Berlin time zone."),
        hit("go", "用户是后端工程师，主要写 Go。"),
        hit("pickup", "用户每周四下午四点要去接儿子下课。"),
    ]
    assert holding_time("帮我找个时间开个会", nearest) == ["zone", "pickup"]
    assert holding_time("推荐几部科幻电影", nearest) == []
