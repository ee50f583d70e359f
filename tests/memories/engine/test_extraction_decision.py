"""The learned decision of the offline extractor: the shipped weights load and decide (the
English statements the rules missed are kept, one-offs, snapshots and suggestions are not), the
guards veto whatever the head says, training is deterministic, and the vector the head computed
is the one the stored memory's second vector reuses."""

from __future__ import annotations

import numpy as np
import pytest

from memories.engine.extraction import decision
from memories.engine.extraction.pipeline import extract_facts
from memories.engine.extractor import extract_facts as provider_extract
from memories.learned.heads import E5_SMALL_PASSAGE, load_head


def kept(messages):
    return [f["text"] for f in extract_facts(messages, decide=decision.head_decide)]


def test_the_shipped_weights_load():
    head = load_head(decision.WEIGHTS)
    assert head.meta["vectors"] == E5_SMALL_PASSAGE
    assert head.weights.shape == (384 + len(head.meta["cues"]),)
    assert 0.0 < head.threshold < 1.0


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        # Durable statements the rules extractor missed.
        (
            "I'm vegetarian, keep that in mind whenever you suggest restaurants.",
            "The user is vegetarian.",
        ),
        (
            "Our production cluster runs in the Frankfurt region; assume that for any latency "
            "estimates.",
            "The user's production cluster runs in the Frankfurt region.",
        ),
        ("我对青霉素过敏，这个很重要，一定要记住。", "用户对青霉素过敏。"),
    ],
)
def test_the_head_keeps_durable_statements(said, fact):
    assert kept([("user", said), ("assistant", "OK.")]) == [fact]
    assert [f["text"] for f in provider_extract([("user", said)])] == [fact]


@pytest.mark.parametrize(
    "said",
    [
        # A sentence opening with "Our"/"We"/"My" had no first-person cue (the cue was
        # case-sensitive), and the head dropped these team conventions.
        "Our team deploys on Fridays only.",
        "Our team only deploys on Fridays.",
        "We deploy on Fridays.",
        "My team deploys on Fridays only.",
        "We release every Tuesday.",
        "My team uses Jira.",
    ],
)
def test_a_statement_opening_with_our_we_or_my_is_kept(said):
    assert len(kept([("user", said), ("assistant", "Got it.")])) == 1


# A conclusion the assistant states and the user verifies or settles is kept, as the assistant
# worded it and attributed to the user's message; the bare confirmation is never a fact of its own.
@pytest.mark.parametrize(
    ("messages", "fact"),
    [
        (
            [
                ("assistant", "根据压测结果，瓶颈在数据库连接池，建议调大到 200。"),
                ("user", "对，调完之后确实好了，就这么定了。"),
            ],
            "瓶颈在数据库连接池，调大到 200。",
        ),
        (
            [
                ("assistant", "So the root cause was the missing index on orders.created_at?"),
                ("user", "Yes, confirmed. Adding the index fixed it."),
            ],
            "The root cause was the missing index on orders.created_at.",
        ),
        (
            [
                ("assistant", "总结：用户决定青鸟项目使用 PostgreSQL 16 作为主库。"),
                ("user", "那我们就定了吧"),
            ],
            "用户决定青鸟项目使用 PostgreSQL 16 作为主库。",
        ),
        # Where the conclusion comes from is no part of it.
        (
            [
                (
                    "assistant",
                    "Based on the logs, the OOM comes from the image cache; capping it at 512 MB "
                    "should help.",
                ),
                ("user", "Verified, memory is flat now."),
            ],
            "The OOM comes from the image cache; capping it at 512 MB should help.",
        ),
        # "That's right" to a statement of fact confirms it (found over HTTP: no_effect).
        (
            [
                ("assistant", "Based on your logs, your cluster runs on AWS eu-west-1."),
                ("user", "yes that's right"),
            ],
            "The user's cluster runs on AWS eu-west-1.",
        ),
        # The user's confirmation says what was decided: that is the fact, not the suggestion.
        (
            [
                ("assistant", "建议以后缓存统一用 Redis。"),
                ("user", "好，就这么定了，以后都用 Redis。"),
            ],
            "以后都用 Redis。",
        ),
    ],
)
def test_a_conclusion_the_user_verifies_is_kept_once(messages, fact):
    found = extract_facts(messages, decide=decision.head_decide, same=decision.same_meaning)
    assert [(f["text"], f["attributed_to"]) for f in found] == [(fact, "user")]


@pytest.mark.parametrize(
    "messages",
    [
        # Agreeing to try a suggestion, or to a plan for now, verifies nothing.
        [("assistant", "建议先试试 npm install --legacy-peer-deps。"), ("user", "好，我试试。")],
        [("assistant", "建议先审批请假，再集中写季度总结。"), ("user", "行，就这么办。")],
        [("assistant", "可以先从每季度一次开始。"), ("user", "嗯，可以。")],
        [("assistant", "建议约 design 做个 sync。"), ("user", "嗯，确实是个好主意。")],
        [("assistant", "Shall I find a slot for the call with Priya?"), ("user", "Yes please.")],
        # A decision scoped to now is a one-off.
        [("assistant", "建议这次先用 GPU 1 跑 eval。"), ("user", "好，就这么定了。")],
        # Nothing before it to confirm.
        [("user", "那我们就定了吧")],
    ],
)
def test_a_bare_confirmation_stores_nothing(messages):
    assert kept(messages) == []


@pytest.mark.parametrize(
    "said",
    [
        "Can you summarise this PDF for me?",
        "帮我看看这段报错是什么意思？",
        "谢谢，辛苦了。",
        "Thanks, that works.",
    ],
)
def test_the_head_stores_nothing_for_questions_and_chitchat(said):
    assert kept([("user", said)]) == []


def test_guards_veto_whatever_the_head_says():
    always = lambda found: [True] * len(found)  # noqa: E731 - a head that keeps everything
    messages = [
        ("user", "这次先用进程内缓存。Tonight just give me three dinner ideas."),
        ("user", "当前可用的工具有 web_search 和 code_interpreter。"),
        ("assistant", "建议以后缓存统一用 Redis。"),
        # A path after Chinese punctuation is a path too.
        ("user", "磁盘情况：/home 40%，/srv/data/ 占了 120G。"),
    ]
    assert extract_facts(messages, decide=always) == []


TINY = [
    {
        "id": f"t{n}",
        "split": split,
        "lang": "en",
        "messages": [
            {"role": "user", "content": durable, "label": "durable", "facts": [{"text": fact}]},
            {"role": "user", "content": other, "label": "chitchat", "facts": []},
        ],
    }
    for n, (split, durable, fact, other) in enumerate(
        [
            ("train", "I'm vegan.", "The user is vegan.", "Thanks a lot!"),
            ("train", "I live in Berlin.", "The user lives in Berlin.", "What time is it?"),
            ("train", "我住在武汉。", "用户住在武汉。", "好的，谢谢。"),
            ("train", "我们团队用 Go。", "用户的团队用 Go。", "这个报错是什么意思？"),
            ("dev", "I work at Shopify.", "The user works at Shopify.", "Nice, thanks."),
            ("dev", "我是后端工程师。", "用户是后端工程师。", "辛苦了。"),
        ]
    )
]


def test_training_is_deterministic(tmp_path):
    first = decision.train(TINY, source="tiny")
    second = decision.train(TINY, source="tiny")
    assert np.array_equal(first.weights, second.weights)
    assert (first.bias, first.threshold, first.meta) == (second.bias, second.threshold, second.meta)
    first.save(tmp_path / "a.npz")
    again = load_head(tmp_path / "a.npz")
    assert np.array_equal(again.weights, first.weights.astype(np.float32))
    assert first.meta["train_positives"] == 4


def test_the_second_vector_of_a_kept_fact_is_the_one_the_head_computed():
    from memories.engine.second import BundledE5
    from memories.learned import vectors

    [fact] = kept([("user", "I'm a pescatarian, so leave out meat when you plan meals.")])
    assert fact in vectors._cache  # computed by the head
    cached = vectors._cache[fact].copy()
    assert np.array_equal(np.asarray(BundledE5().passages([fact])[0], dtype=np.float32), cached)
