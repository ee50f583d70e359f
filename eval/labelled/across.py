"""Everyday facts asked in the other language (``eval.dataset``, the cross-language kind)."""

from __future__ import annotations

from eval.labelled.shape import q as _q

# --- everyday facts asked in the other language ---------------------------------------------------
# The ordinary questions a user asks in one language about what they said in the other ("我在学什么
# 语言" for "The user is learning Spanish"; "how should I write weekly reports" for the 周报
# memory), with the memories they need; the cross-language questions above are mostly about
# projects and their names.  Written before their first run and kept whatever they scored.
CROSS_MEMORIES = {
    "zh": {
        "x_daughter": "用户的女儿在读小学三年级。",
        "x_car": "用户开一辆蓝色的比亚迪汉。",
        "x_dentist": "用户每半年去看一次牙医，洗牙。",
    },
    "en": {
        "x_spanish": "The user is learning Spanish.",
        "x_weekly": "Prefers concise English summaries for weekly reports.",
        "x_gym": "User goes to the gym on Tuesday and Thursday mornings.",
        "x_car": "User drives a white Tesla Model 3.",
        "x_sister": "User's sister lives in Melbourne.",
        "x_birthday": "User's birthday is on 14 July.",
        "x_seat": "User prefers an aisle seat on long flights.",
    },
    "mixed": {
        "x_standup": "每天的 standup 在 9:15，用 Zoom 开。",
    },
    "zh2": {},
}

CROSS_QUERIES = [
    # Chinese questions, English memories
    _q("en", "cross_language", "我在学什么语言", "x_spanish"),
    _q("en", "cross_language", "周报应该怎么写", "x_weekly"),
    _q("en", "cross_language", "我每周哪几天去健身房", "x_gym"),
    _q("en", "cross_language", "我开的是什么车", "x_car"),
    _q("en", "cross_language", "我姐姐住在哪个城市", "x_sister"),
    _q("en", "cross_language", "我的生日是哪天", "x_birthday"),
    _q("en", "cross_language", "坐长途飞机我喜欢什么座位", "x_seat"),
    _q("en", "cross_language", "我早上喝什么咖啡", "en_coffee"),
    _q("en", "cross_language", "我多久值一次班", "en_oncall"),
    _q("en", "cross_language", "我女儿在学什么", "en_daughter"),
    _q("en", "cross_language", "我用什么编辑器写代码", "en_vim"),
    _q("en", "cross_language", "设计文档开头要写什么", "en_docs"),
    # English questions, Chinese memories
    _q("zh", "cross_language", "how should I write weekly reports", "zh_weekly"),
    _q("zh", "cross_language", "weekly report format", "zh_weekly"),
    _q("zh", "cross_language", "What's my cat called?", "zh_cat"),
    _q("zh", "cross_language", "What do I like doing at weekends?", "zh_hiking"),
    _q("zh", "cross_language", "How do I get to work?", "zh_city"),
    _q("zh", "cross_language", "What grade is my daughter in?", "x_daughter"),
    _q("zh", "cross_language", "What car do I drive?", "x_car"),
    _q("zh", "cross_language", "How often do I see the dentist?", "x_dentist"),
    _q("zh", "cross_language", "How long may a function be?", "zh_style"),
    _q("zh", "cross_language", "Does every feature need unit tests?", "zh_tests"),
    _q("zh2", "cross_language", "what language do I write backend code in", "z2_java"),
    _q("zh2", "cross_language", "What is my dog's name?", "z2_dog"),
    _q("zh2", "cross_language", "Which evening do I go swimming?", "z2_swim"),
    _q("zh2", "cross_language", "How many slides may a presentation have?", "z2_ppt"),
    # mixed memories asked in one language
    _q("mixed", "cross_language", "How far do I run every morning?", "mx_run"),
    _q("mixed", "cross_language", "每天站会几点开", "x_standup"),
    _q("mixed", "cross_language", "我最近在读什么书", "mx_book"),
    _q("mixed", "cross_language", "Which language are code comments written in?", "mx_lang"),
]

# Off-topic questions in the other language than the scope's memories: they must stay unanswered.
CROSS_NEGATIVES = {
    "zh": ["How many moons does Jupiter have?", "Who painted the Mona Lisa?"],
    "en": ["埃及金字塔是怎么建的", "北极熊吃什么"],
    "mixed": ["光合作用是怎么回事", "Who wrote Pride and Prejudice?"],
    "zh2": ["What is the speed of light?", "How do volcanoes form?"],
}
