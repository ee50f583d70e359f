"""Writing the fact: one short statement about the user, in the user's language, the user's own
names and quotes kept exactly. The examples are outputs the rules extractor really produced
("User'm", "User prefer", a wrapper or a filler kept, two facts in one, a fragment)."""

from __future__ import annotations

import pytest

from memories.engine.extraction.facts import write
from memories.engine.extraction.pipeline import extract_facts


@pytest.mark.parametrize(
    ("said", "facts"),
    [
        # "I'm" became "User'm"; the wrapper after the fact was kept.
        (
            "I'm vegetarian, keep that in mind whenever you suggest restaurants.",
            ["The user is vegetarian."],
        ),
        # "I prefer" became "User prefer".
        (
            "I prefer Celsius and metric units in all answers.",
            ["The user prefers Celsius and metric units in all answers."],
        ),
        (
            "I always use Neovim and I work at Shopify.",
            ["The user always uses Neovim.", "The user works at Shopify."],
        ),
        (
            "My timezone is Asia/Singapore, please schedule things accordingly from now on.",
            ["The user's timezone is Asia/Singapore."],
        ),
        (
            "Our production cluster runs in the Frankfurt region; assume that for any latency "
            "estimates.",
            ["The user's production cluster runs in the Frankfurt region."],
        ),
        (
            "We're a fintech startup and we deploy on Fridays.",
            ["The user's team is a fintech startup.", "The user's team deploys on Fridays."],
        ),
        (
            "For all future SQL you write for me, use the PostgreSQL dialect, not MySQL.",
            [
                "For all future SQL the assistant writes for the user, use the PostgreSQL "
                "dialect, not MySQL."
            ],
        ),
        ("我对青霉素过敏，这个很重要，一定要记住。", ["用户对青霉素过敏。"]),
        (
            "I'm allergic to shellfish — keep that in mind whenever you suggest restaurants.",
            ["The user is allergic to shellfish."],
        ),
        ("好，那以后缓存都统一用 Redis。", ["以后缓存都统一用 Redis。"]),
        (
            "OK so from now on, I want answers in English.",
            ["From now on, the user wants answers in English."],
        ),
        (
            "以后所有技术方案都使用简体中文，项目叫“Poco”。",
            ["以后所有技术方案都使用简体中文。", "项目叫“Poco”。"],
        ),
        # The user's quotation marks are theirs: “陈工” is not turned into "陈工".
        (
            "以后给我写邮件草稿的时候，落款统一用“陈工”。",
            ["以后给用户写邮件草稿的时候，落款统一用“陈工”。"],
        ),
        (
            "我们的设计系统叫“Aurora”，所有前端组件都要遵循它的规范。",
            ["用户团队的设计系统叫“Aurora”，所有前端组件都要遵循它的规范。"],
        ),
        ("我们团队每周一开例会，以后都按这个来。", ["用户的团队每周一开例会。"]),
        # First person inside the user's quotes is a quote, not the user.
        ("我的口头禅是“我来搞定”。", ["用户的口头禅是“我来搞定”。"]),
        # A clause that only says when is not a fact of its own; "TL;DR" is not two clauses.
        (
            "上次数据库误删的事之后，我们团队定了规矩：生产库的 DELETE 先在从库上确认行数。",
            ["上次数据库误删的事之后，用户的团队定了规矩：生产库的 DELETE 先在从库上确认行数。"],
        ),
        (
            "Put the TL;DR at the top of every doc you write for me.",
            ["Put the TL;DR at the top of every doc the assistant writes for the user."],
        ),
        ("参考和", []),
        ("Use the and", []),
        # A wrapper clause ("Remember this:") lost its verb to the filler and left "This:".
        ("Remember this: always use metric units.", ["Always use metric units."]),
        ("Note this: our repo uses pnpm.", ["The user's repo uses pnpm."]),
        # "FYI," alone before the comma was kept.
        (
            "FYI, our team deploys on Fridays only.",
            ["The user's team deploys on Fridays only."],
        ),
        # The wrapper with its object first ("这个一定要记住") was kept after the content.
        (
            "以后写技术方案都用简体中文，先给结论再展开，这个一定要记住。",
            ["以后写技术方案都用简体中文，先给结论再展开。"],
        ),
        ("周报都用表格，这点千万别忘了。", ["周报都用表格。"]),
        # A sentence-final particle (哦/呀/啦/呢) is tone, not content; 酒吧 is a word.
        ("以后写技术方案都用简体中文哦，别忘了！", ["以后写技术方案都用简体中文。"]),
        ("我周末常去酒吧。", ["用户周末常去酒吧。"]),
        # The second verb of "I … and …" had no subject to agree with: "the user … and work".
        (
            "I live in Berlin and work in the CET timezone.",
            ["The user lives in Berlin and works in the CET timezone."],
        ),
        (
            "I live in Berlin and usually start at 10am.",
            ["The user lives in Berlin and usually starts at 10am."],
        ),
        ("We use Go and deploy to AWS.", ["The user's team uses Go and deploys to AWS."]),
        ("I like tea and coffee.", ["The user likes tea and coffee."]),
        # A condition of the user's own habit ("数据量大的时候…") was taken for a clause telling
        # the assistant how to apply the fact, and dropped.
        (
            "我是做数据分析的，平时用 Python 和 pandas，数据量大的时候用 Spark。",
            ["用户是做数据分析的，平时用 Python 和 pandas，数据量大的时候用 Spark。"],
        ),
        ("我有乳糖不耐受，推荐早餐的时候避开牛奶。", ["用户有乳糖不耐受。"]),
        # A bare decision is no fact: "那用户的团队就定了吧" was stored.
        ("那我们就定了吧", []),
        ("OK, we're settled then.", []),
        # A prepositional phrase before the subject is not a fact of its own ("For estimates.").
        (
            "For estimates, our team uses story points.",
            ["For estimates, the user's team uses story points."],
        ),
        # A sentence without a full stop ends with one.
        ("我住在杭州", ["用户住在杭州。"]),
        # Found by a second probe over HTTP: "myself" became a verb ("The user myselfs coach…").
        (
            "I myself coach my son's soccer team.",
            ["The user coaches the user's son's soccer team."],
        ),
        (
            "I do all the bookkeeping myself in QuickBooks.",
            ["The user does all the bookkeeping in QuickBooks."],
        ),
        # An answer's "no" before the statement is the conversation's, not the fact's.
        ("不是，我们早就换成 PostgreSQL 了。", ["用户的团队早就换成 PostgreSQL 了。"]),
        ("不要，我们只用关系型数据库。", ["用户的团队只用关系型数据库。"]),
        (
            "No, we moved to PostgreSQL last year.",
            ["The user's team moved to PostgreSQL last year."],
        ),
        # What noise removal leaves ending in a preposition is a fragment ("…docs live at.").
        ("Our docs live at and we use Confluence.", ["The user's team uses Confluence."]),
    ],
)
def test_a_sentence_becomes_the_facts_a_person_would_write(said, facts):
    assert write(said) == facts


def test_a_dangling_fragment_left_by_noise_removal_is_not_stored():
    facts = extract_facts([("user", "用户希望周报结论先行。\n参考和")], decide=None)
    assert [f["text"] for f in facts] == ["用户希望周报结论先行。"]


def test_a_one_off_a_snapshot_and_an_unconfirmed_suggestion_are_not_candidates():
    messages = [
        ("user", "这次先生成一份 HTML 报告。当前可用的工具有 search 和 browser。"),
        ("assistant", "建议以后缓存统一用 Redis。"),
    ]
    assert extract_facts(messages, decide=None) == []


def test_the_assistant_confirming_the_users_statement_is_stored_once():
    messages = [
        ("user", "以后所有技术方案都使用简体中文，项目叫“Poco”。这次先生成一份 HTML 报告。"),
        ("assistant", "好的，已生成报告。已确认：Poco 的技术方案统一使用简体中文。"),
    ]
    facts = extract_facts(messages, decide=None)
    assert [(f["text"], f["attributed_to"]) for f in facts] == [
        ("以后所有技术方案都使用简体中文。", "user"),
        ("项目叫“Poco”。", "user"),
    ]


def test_an_assistant_confirmation_of_something_new_is_kept():
    messages = [
        ("user", "这次缓存用哪个好？"),
        ("assistant", "已确认：缓存统一使用 Redis。"),
    ]
    facts = extract_facts(messages, decide=None)
    assert [(f["text"], f["attributed_to"]) for f in facts] == [
        ("缓存统一使用 Redis。", "assistant")
    ]
