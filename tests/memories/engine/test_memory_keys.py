"""memory_key proposals for the attributes a later statement replaces, on facts as the fact
writer writes them (third person, the user's language)."""

from __future__ import annotations

import pytest

from memories.engine.extraction.facts import write
from memories.engine.extraction.keys import propose_key


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
        ("我的主力语言是 Go。", "profile.programming_language"),
        ("My main programming language is Rust.", "profile.programming_language"),
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
