"""memory_key proposals for the attributes a later statement replaces, on facts as the fact
writer writes them (third person, the user's language)."""

from __future__ import annotations

import pytest

from memories.engine.extraction.facts import write
from memories.engine.extraction.keys import propose_key, retires, stated_key


@pytest.mark.parametrize(
    ("said", "key"),
    [
        ("以后都用英文回答我。", "preference.answer_language"),
        ("Please always answer in Simplified Chinese.", "preference.answer_language"),
        ("我住在武汉。", "profile.home_city"),
        ("I moved to Hangzhou.", "profile.home_city"),
        ("我在字节跳动工作。", "profile.employer"),
        ("I work at Shopify.", "profile.employer"),
        ("我是一名后端工程师。", "profile.role"),
        ("I'm a data scientist.", "profile.role"),
        ("我的时区是 UTC+8。", "profile.time_zone"),
        ("My timezone is Asia/Singapore.", "profile.time_zone"),
        ("我吃素。", "profile.diet"),
        ("I'm vegetarian.", "profile.diet"),
        ("我平时用 Neovim 写代码。", "preference.editor"),
        ("I use VS Code for everything.", "preference.editor"),
        # A switch sets the editor too (had no key).
        ("The user switched to Cursor.", "preference.editor"),
        ("用户最近换成了 Helix。", "preference.editor"),
        ("The user just relocated to Amsterdam.", "profile.home_city"),
        ("我的主力语言是 Go。", "profile.programming_language"),
        ("My main programming language is Rust.", "profile.programming_language"),
        ("My preferred language is Rust.", "profile.programming_language"),
        # A language for the assistant's examples or answers is no language the user codes in.
        ("My preferred language for code examples is TypeScript.", ""),
        ("My preferred language for answers is German.", ""),
        ("My preferred language for replies is English.", ""),
        ("以后温度都用摄氏度，单位用公制。", "preference.units"),
        ("I prefer Celsius and metric units in all answers.", "preference.units"),
        # Not the value of any of the nine: no key, nothing superseded.
        ("以后技术方案都使用简体中文。", ""),
        ("我喜欢喝绿茶。", ""),
        ("I like hiking in the Alps.", ""),
        ("我们团队每周一开例会。", ""),
    ],
)
def test_a_written_fact_proposes_the_key_it_is_the_value_of(said, key):
    [fact] = write(said)
    assert propose_key(fact) == key, fact


# The probes below are facts exactly as the extractor writes them (third person): the writer may
# write the user's relatives with or without 的, so both forms are here.


@pytest.mark.parametrize(
    "fact",
    [
        "用户妹妹是素食者。",
        "用户的妹妹是素食者。",
        "用户女儿不吃牛肉。",
        "用户女朋友在阿里工作。",
        "用户的女朋友在阿里工作。",
        "用户爸妈住在成都。",
        "用户的妈妈住在成都。",
        "用户老婆是医生。",
        "用户对象是设计师。",
        "用户的老板是素食者。",
        "用户同事都用 Vim。",
        "用户儿子在用 Vim 学编程。",
        "用户的团队统一用 UTC 时区。",
        "用户的家庭食谱要兼顾素食和荤食。",
        "她是素食者。",
        "小王是素食者。",
        "The user's sister lives in New York, timezone America/New_York.",
        "The user's wife is vegetarian.",
        "The user's boss works at Google.",
        "The user's business partner uses Vim.",
        "Use Fahrenheit when the assistant talks to the user's mom, she's American.",
        "Alice is vegan.",
    ],
)
def test_a_fact_about_someone_else_proposes_no_key(fact):
    """A relative's, a partner's, a colleague's or a named person's value is not the user's: its
    key superseded the user's own ("用户女儿不吃牛肉。" retired "用户是素食者。"), even when the cue
    belongs to the other person only later in the sentence (the mom's Fahrenheit)."""
    assert propose_key(fact) == "", fact


@pytest.mark.parametrize(
    ("fact", "key"),
    [
        # Where the user works is a place, not an employer ("用户在北京工作。" retired
        # "用户在字节跳动工作。"): a city, a district, a country, home or the office.
        ("用户在北京工作。", ""),
        ("用户在合肥上班。", ""),
        ("用户在柏林工作。", ""),
        ("用户在海淀区上班。", ""),
        ("用户在美国工作。", ""),
        ("用户在家工作。", ""),
        ("用户在公司上班。", ""),
        ("用户现在在成都工作。", ""),
        ("用户家在成都，但用户在北京上班。", "profile.home_city"),
        # An organisation stays one, also where it is named after its city.
        ("用户在阿里工作。", "profile.employer"),
        ("用户在京东工作。", "profile.employer"),
        ("用户在北京的字节跳动工作。", "profile.employer"),
        ("用户现在在腾讯工作。", "profile.employer"),
    ],
)
def test_a_place_of_work_is_not_an_employer(fact, key):
    assert propose_key(fact) == key, fact


@pytest.mark.parametrize(
    ("fact", "key"),
    [
        ("用户以前在阿里，现在跳槽到腾讯了，做云原生。", "profile.employer"),
        ("用户已经不在美团了，现在自己创业。", "profile.employer"),
        ("用户从阿里离职了。", "profile.employer"),
        ("The user no longer works at Google.", "profile.employer"),
        ("The user is at Stripe now.", "profile.employer"),
        # No longer in a city is no employer; a move is not said either.
        ("用户已经不在北京了。", ""),
        ("用户想跳槽。", ""),
        ("The user is at home on Fridays.", ""),
    ],
)
def test_a_change_of_employer_carries_the_employer_key(fact, key):
    """Leaving an employer retires the old one: "用户在美团工作。" stayed active beside
    "用户已经不在美团了…"."""
    assert propose_key(fact) == key, fact


@pytest.mark.parametrize(
    ("fact", "key"),
    [
        ("用户的公司在杭州，但用户住在上海。", "profile.home_city"),
        ("用户以前住在武汉，现在搬到杭州了。", "profile.home_city"),
        ("The user's company is in Hangzhou, but the user lives in Shanghai.", "profile.home_city"),
        # A past value, a wish or a denial is not the current value: it would retire it.
        ("用户以前住在武汉。", ""),
        ("用户之前在美团工作。", ""),
        ("用户想搬到杭州。", ""),
        ("用户不住在武汉。", ""),
        ("The user lived in Tokyo for two years.", ""),
        ("The user moved to a new team.", ""),
        ("The user has lived in Berlin since 2019.", "profile.home_city"),
        # A state in a past year is history (had the employer key, and retired the current one).
        ("用户去年在阿里工作。", ""),
        ("用户2023年在阿里工作。", ""),
        ("用户去年住在武汉。", ""),
        ("The user lived in Tokyo in 2020.", ""),
        # So is one said to have held before (was keyed: it retired the current editor).
        ("用户原来用Vim。", ""),
        ("用户以前用VS Code写代码。", ""),
        ("用户曾经在腾讯上班。", ""),
        ("The user used to use Emacs.", ""),
        ("The user previously worked at Google.", ""),
        # Unless it says what holds now.
        ("用户原来用Vim，现在改用 Cursor。", "preference.editor"),
        ("用户以前在阿里，现在跳槽到腾讯了。", "profile.employer"),
        # A change then sets the value that holds since.
        ("用户去年搬到了杭州。", "profile.home_city"),
        ("用户2024年起在阿里工作。", "profile.employer"),
        ("The user joined Stripe in 2023.", "profile.employer"),
    ],
)
def test_the_key_is_read_from_the_clause_that_states_the_users_current_value(fact, key):
    assert propose_key(fact) == key, fact


@pytest.mark.parametrize(
    ("fact", "stated"),
    [
        # The current value: what ``propose_key`` reads.
        ("用户在字节跳动工作。", ("profile.employer", False)),
        ("The user works at Stripe.", ("profile.employer", False)),
        ("用户去年搬到了杭州。", ("profile.home_city", False)),
        ("用户以前在阿里，现在跳槽到腾讯了。", ("profile.employer", False)),
        # A past state, keyed nothing, is a past value of the key it would have now.
        ("用户去年在阿里工作。", ("profile.employer", True)),
        ("用户2023年在美团工作。", ("profile.employer", True)),
        ("用户以前住在武汉。", ("profile.home_city", True)),
        ("用户之前是产品经理。", ("profile.role", True)),
        ("用户曾经在腾讯上班。", ("profile.employer", True)),
        ("The user worked at Google last year.", ("profile.employer", True)),
        ("The user used to be a designer.", ("profile.role", True)),
        ("The user lived in Tokyo in 2020.", ("profile.home_city", True)),
        # Someone else's past, a past of no key, no past at all.
        ("用户的姐姐以前住在深圳。", ("", True)),
        ("用户之前去过日本。", ("", True)),
        ("用户养了一只叫豆豆的猫。", ("", False)),
    ],
)
def test_a_fact_states_a_current_or_a_past_value_of_its_key(fact, stated):
    assert stated_key(fact) == stated, fact


@pytest.mark.parametrize(
    ("fact", "held", "retired"),
    [
        # Leaving another employer says nothing of the one held ("I left Google" retired
        # ByteDance).
        ("The user left Google.", "用户在字节跳动工作。", False),
        ("用户从阿里离职了。", "用户在字节跳动工作。", False),
        ("The user no longer works at Google.", "The user works at Shopify.", False),
        ("用户已经不在美团了。", "用户在字节跳动工作。", False),
        ("用户从中国银行离职了。", "用户在中国移动工作。", False),
        ("The user left Meta.", "The user works at Metabase.", False),
        # The same employer, by any of its names.
        ("The user left Google.", "The user works at Google.", True),
        ("The user left Google.", "用户在谷歌工作。", True),
        ("用户从字节跳动离职了。", "The user works at ByteDance.", True),
        ("用户从字节跳动离职了。", "用户在字节工作。", True),
        ("The user quit Google.", "The user works at Google Cloud.", True),
        # No employer named, or where the user is now said too: the holder is retired.
        ("用户从那家公司离职了。", "用户在字节跳动工作。", True),
        ("用户离职了。", "用户在字节跳动工作。", True),
        ("The user quit the user's job.", "The user works at Shopify.", True),
        ("用户已经从美团离职了，现在去了快手，还是做算法。", "用户在字节跳动工作。", True),
        ("The user left Google and joined Meta.", "The user works at Shopify.", True),
    ],
)
def test_leaving_an_employer_retires_only_a_memory_of_that_employer(fact, held, retired):
    assert propose_key(fact) == "profile.employer", fact
    assert retires(memory_key="profile.employer", fact=fact, held=held) is retired


@pytest.mark.parametrize("fact", ["The user left London.", "用户在 Berlin 工作。"])
def test_a_city_left_or_worked_in_is_no_employer(fact):
    """CC-CEDICT's English names of places ("London, capital of United Kingdom")."""
    assert propose_key(fact) == ""


def test_any_other_value_retires_the_keys_holder():
    moved = "The user moved to Hangzhou."
    assert retires(memory_key="profile.home_city", fact=moved, held="用户住在武汉。")
