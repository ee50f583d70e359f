"""The secret head: trained deterministically from the shipped set, shipped in sync with it,
and read only for texts that carry a value unlike ordinary language."""

from __future__ import annotations

import numpy as np

from memories.admission import admit_text
from memories.admission.meaning import HEAD_PATH
from memories.admission.normalize import fold
from memories.admission.secret_set import load_set, train_head
from memories.learned import vectors
from memories.learned.heads import load_head


def test_training_is_deterministic_and_the_shipped_weights_come_from_the_shipped_set():
    rows = load_set()
    first, second = train_head(rows), train_head(rows)
    shipped = load_head(HEAD_PATH)

    assert np.array_equal(first.weights, second.weights) and first.bias == second.bias
    # Bit for bit on one machine; another CPU (glibc's maths kernels, e5's) moves the vectors'
    # last digits, so the shipped head is held to what it decides with (seen between two CPUs:
    # probabilities 0.005 apart, thresholds 0.01; a set changed without retraining moves both
    # by tenths).
    texts = vectors.passage_vectors([fold(row.text) for row in rows])
    assert np.abs(first.probabilities(texts) - shipped.probabilities(texts)).max() < 0.02
    assert abs(first.threshold - shipped.threshold) < 0.02
    assert {row.split for row in rows} == {"train", "test"}
    assert {row.label for row in rows} == {"secret", "benign"}


def test_a_text_without_a_candidate_value_never_reaches_the_model():
    ordinary = [
        "用户偏好简洁的回答，结论先行。",
        "the PIN pad at the bank broke",
        "验证码今天也收不到",
    ]
    for text in ordinary:
        assert admit_text(source="manage", text=text).admitted
    assert not [text for text in ordinary if fold(text) in vectors._cache]


def test_a_value_without_a_secrets_word_is_judged_by_what_the_text_means():
    # No word of the keyword line: the head reads the sentence.
    for text in ("use Tiger77Lotus! to log into the NAS", "登录公司邮箱用 Tiger77Lotus!"):
        result = admit_text(source="manage", text=text)
        assert (result.reason, result.detail.endswith("(secret_by_meaning)")) == (
            "credential",
            True,
        )
    assert admit_text(source="manage", text="我的游戏昵称是 Tiger77Lotus").admitted
