"""The extraction section of `make eval`: its well-formedness checker refuses what the rules
extractor used to store, and an operator's LLM (here a local scripted HTTP endpoint, the real
OpenAI client) is scored on the same set."""

from __future__ import annotations

import pytest

from eval.extraction import score
from tests.lifecycle.fake_llm import FakeLLM, fact


@pytest.mark.parametrize(
    ("stored", "language", "problem"),
    [
        (
            "User'm vegetarian, keep that in mind whenever you suggest restaurants.",
            "en",
            "instruction",
        ),
        ("User'm vegetarian.", "en", "ungrammatical"),
        ("User prefer Celsius and metric units in all answers.", "en", "ungrammatical"),
        ("用户对青霉素过敏，这个很重要，一定要记住。", "zh", "instruction"),
        ("好，那以后缓存都统一用 Redis。", "zh", "filler"),
        ("参考和", "zh", "dangling"),
        ("以后给我写邮件草稿的时候，落款统一用“陈工”。", "zh", "first_person"),
        ("The user is vegetarian.", "zh", "language"),
    ],
)
def test_the_checker_refuses_what_the_rules_extractor_stored(stored, language, problem):
    assert problem in score.problems(stored, language)


@pytest.mark.parametrize(
    ("stored", "language"),
    [
        ("以后给用户写邮件草稿的时候，落款统一用“陈工”。", "zh"),
        ("用户的口头禅是“我来搞定”。", "zh"),
        ("The user prefers Celsius and metric units in all answers.", "en"),
    ],
)
def test_the_checker_accepts_a_well_written_fact(stored, language):
    assert score.problems(stored, language) == []


CONVERSATION = {
    "id": "c1",
    "split": "test",
    "lang": "en",
    "messages": [
        {
            "role": "user",
            "content": "I'm vegetarian, keep that in mind whenever you suggest restaurants.",
            "label": "durable",
            "facts": [{"text": "The user is vegetarian.", "key": "profile.diet"}],
        },
        {"role": "assistant", "content": "Noted.", "label": "chitchat", "facts": []},
        {
            "role": "user",
            "content": "Tonight just give me three dinner ideas.",
            "label": "one_off",
            "facts": [],
        },
    ],
}


def test_an_operators_llm_is_scored_on_the_same_set():
    llm = FakeLLM(
        [[fact("The user is vegetarian."), fact("User wants three dinner ideas tonight.")]]
    ).start()
    try:
        tally = score.score([CONVERSATION], score.llm(llm.base_url, "fake"))["all"]
    finally:
        llm.close()
    assert (tally.durable, tally.durable_kept) == (1, 1)
    assert (tally.others, tally.others_stored) == (2, 1)  # credited to the one-off it came from
    assert (tally.stored, tally.well_formed) == (2, 1)
    assert "EXTRACTION_RULES" not in llm.requests[0]["messages"][0]["content"]
    assert "durable" in llm.requests[0]["messages"][0]["content"]


def test_the_shipped_extractor_is_scored():
    tally = score.score([CONVERSATION], score.shipped())["all"]
    assert (tally.durable_kept, tally.others_stored, tally.well_formed) == (1, 0, tally.stored)
