"""Which questions ask for one of the user's own attributes (``memories.selectors.attributes``), and
which memories hold it: ordinary phrasings in both languages, none about someone else, none that
asks for something else."""

from __future__ import annotations

import pytest

from memories.selectors.attributes import (
    HABIT_COMMUTE,
    PROFILE_EDUCATION,
    PROFILE_HOMETOWN,
    PROFILE_MANAGER,
    THING_CAR,
    THING_COMPUTER,
    THING_PET,
    THING_PHONE,
    THING_TABLET,
    THING_WATCH,
    Attribute,
    asked_attribute,
    holding,
)
from tests.memories.recall.test_listing import hit


@pytest.mark.parametrize(
    ("question", "key"),
    [
        ("我用什么编辑器", "preference.editor"),
        ("What editor do I use?", "preference.editor"),
        ("Which editor does the user use?", "preference.editor"),
        ("我在哪家公司上班", "profile.employer"),
        ("我现在在哪里工作？", "profile.employer"),
        ("Where do I work?", "profile.employer"),
        ("Who is my employer?", "profile.employer"),
        ("我住在哪", "profile.home_city"),
        ("Where do I live?", "profile.home_city"),
        ("What's my hometown?", PROFILE_HOMETOWN),
        ("我的时区是什么", "profile.time_zone"),
        ("What is my time zone?", "profile.time_zone"),
        ("我是做什么工作的？", "profile.role"),
        ("用户做什么工作", "profile.role"),
        ("What do I do for a living?", "profile.role"),
        ("我用什么语言写代码", "profile.programming_language"),
        ("What programming language do I use?", "profile.programming_language"),
        ("Which language do I write backend code in?", "profile.programming_language"),
        ("我吃素吗", "profile.diet"),
        ("Am I vegetarian?", "profile.diet"),
        # A task about the user's own (was answered with nothing in the context).
        ("Set up my editor config for a new laptop", "preference.editor"),
        ("帮我把我的编辑器配置同步到新电脑", "preference.editor"),
        # The things the user has, and how they get to work: no key holds them.
        ("我开的是什么车", THING_CAR),
        ("我的车是什么牌子", THING_CAR),
        ("What car do I drive?", THING_CAR),
        ("What kind of car does the user have?", THING_CAR),
        ("我用的什么电脑？", THING_COMPUTER),
        ("What laptop do I use?", THING_COMPUTER),
        ("我的手机是什么型号？", THING_PHONE),
        ("Which phone does the user have?", THING_PHONE),
        ("我用的是什么平板", THING_TABLET),
        ("我戴的是什么牌子的手表", THING_WATCH),
        ("What kind of watch do I wear?", THING_WATCH),
        ("我每天怎么上下班？", HABIT_COMMUTE),
        ("我通勤方式是什么", HABIT_COMMUTE),
        ("How do I get to work?", HABIT_COMMUTE),
        ("How does the user get to the office?", HABIT_COMMUTE),
        ("我养了什么宠物", THING_PET),
        ("What pets does the user keep?", THING_PET),
        ("What kind of bird do I have?", THING_PET),
        ("我老家是哪里的", PROFILE_HOMETOWN),
        ("我是哪里人", PROFILE_HOMETOWN),
        ("Which city did I grow up in?", PROFILE_HOMETOWN),
        ("Where was I born?", PROFILE_HOMETOWN),
        ("Who is my manager?", PROFILE_MANAGER),
        ("Who does the user report to?", PROFILE_MANAGER),
        ("我的直属领导是谁", PROFILE_MANAGER),
        ("我向谁汇报", PROFILE_MANAGER),
        ("What's my highest degree?", PROFILE_EDUCATION),
        ("What did I study?", PROFILE_EDUCATION),
        ("Which university did I go to?", PROFILE_EDUCATION),
        ("我本科学的是什么专业？", PROFILE_EDUCATION),
        ("我是什么学历", PROFILE_EDUCATION),
        ("我是哪个大学毕业的", PROFILE_EDUCATION),
    ],
)
def test_a_question_about_an_attribute_of_the_users(question, key):
    assert asked_attribute(question) == Attribute(key=key)


@pytest.mark.parametrize(
    "question",
    [
        # Someone else's attribute, however it is said.
        "我姐姐住在哪个城市",
        "Which city does my sister live in?",
        "我的设计团队在哪个城市？",
        "我老婆在哪家公司上班",
        "Where does my husband work?",
        # Nobody's: a general question that names the attribute's word.
        "北京的时区是什么",
        "What is the best code editor?",
        "哪家公司的手机最好",
        "Python 是用什么语言写的",
        # The user's, but something else than the attribute.
        "我的项目什么时候上线",
        "我在哪个城市出差最多",
        "Where did I put my keys?",
        # Someone else's thing, nobody's, a choice to make, or another sense of the word.
        "我哥哥开的是什么车",
        "What car does my brother drive?",
        "特斯拉和比亚迪哪个好",
        "我的手机号是多少",
        "What's my phone number?",
        "What movies do I watch on weekends?",
        "我的车停在哪",
        "How do I get to the airport?",
        "我姐姐养了什么宠物",
        "What do cats eat?",
        "北京人喜欢吃什么",
        "Who is my sister's manager?",
        "我老婆的领导是谁",
        "What degree should I get?",
        "哪个大学的计算机专业最好",
    ],
)
def test_no_attribute_of_the_users_is_read_into_another_question(question):
    assert asked_attribute(question) is None


def test_the_memories_holding_it_in_the_meaning_channels_order():
    """The key's own rule reads a holder (last year's employer and someone else's are none); an
    editor or a language the user's memory names holds it too."""
    nearest = [
        hit("past", "用户去年在阿里工作。"),
        hit("sister", "The user's sister works at Google."),
        hit("now", "用户在蓝鲸科技工作。"),
        hit("java", "用户是 Java 后端工程师，主要使用 Spring Boot。"),
        hit("go_out", "The user likes to go hiking on weekends."),
        hit("nvim", "用户用 Neovim 写代码。"),
        hit("vim_wife", "用户的老婆也用 Vim。"),
    ]
    assert holding(Attribute("profile.employer"), nearest) == ["now"]
    assert holding(Attribute("profile.programming_language"), nearest) == ["java"]
    assert holding(Attribute("preference.editor"), nearest) == ["nvim"]
    assert holding(None, nearest) == []


def test_what_holds_a_thing_of_the_users():
    """A car, a machine or a watch named in a memory about the user holds it; a bicycle, a
    film watched, someone else's car, a car maker that employs the user and the platform the
    user develops for do not."""
    nearest = [
        hit("volvo", "The user drives a grey Volvo XC60."),
        hit("bike", "用户骑一辆自行车去健身房。"),
        hit("brother", "用户的哥哥开一辆特斯拉。"),
        hit("byd", "用户开一辆蓝色的比亚迪汉。"),
        hit("films", "The user likes to watch films on Friday nights."),
        hit("garmin", "The user wears a Garmin watch to track sleep."),
        hit("pixel", "The user's phone is a Google Pixel 8."),
        hit("mac", "用户的电脑是 MacBook Pro。"),
        hit("metro", "用户每天坐地铁上下班。"),
        hit("cycles", "The user cycles to work along the canal."),
        hit("auto_job", "用户在一家汽车公司做销售。"),
        hit("ios_dev", "用户做 iOS 开发，主要用 Swift。"),
        hit("turtles", "用户养了两只巴西龟。"),
        hit("allergy", "The user is allergic to cats."),
        hit("sister_cat", "用户的姐姐养了一只猫。"),
        hit("qingdao", "The user grew up in Qingdao."),
        hit("lives", "用户住在杭州。"),
        hit("boss", "用户的直属上级是王磊。"),
        hit("reports", "The user reports to Maria, the head of data."),
        hit("masters", "The user has a master's degree in chemistry."),
        hit("major", "用户本科学的是统计。"),
        hit("after_uni", "用户大学毕业后搬到了上海。"),
    ]
    assert holding(Attribute(THING_CAR), nearest) == ["volvo", "byd"]
    assert holding(Attribute(THING_WATCH), nearest) == ["garmin"]
    assert holding(Attribute(THING_PHONE), nearest) == ["pixel"]
    assert holding(Attribute(THING_COMPUTER), nearest) == ["mac"]
    assert holding(Attribute(HABIT_COMMUTE), nearest) == ["metro", "cycles"]
    assert holding(Attribute(THING_PET), nearest) == ["turtles"]
    assert holding(Attribute(PROFILE_HOMETOWN), nearest) == ["qingdao"]
    assert holding(Attribute(PROFILE_MANAGER), nearest) == ["boss", "reports"]
    assert holding(Attribute(PROFILE_EDUCATION), nearest) == ["masters", "major"]
