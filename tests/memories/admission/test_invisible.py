"""Invisible characters never reach a stored memory, and the decoders behind the disguise
tables find nothing in ordinary text."""

from __future__ import annotations

import pytest

from memories.admission import admit_text
from memories.admission.normalize import decoded_base64, fold_confusables, strip_invisible

BIDI_AND_ZERO_WIDTH = (
    "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"
    "\u200b\u200c\u200d\u2060\ufeff"
)


@pytest.mark.parametrize("char", BIDI_AND_ZERO_WIDTH, ids=lambda c: f"U+{ord(c):04X}")
def test_every_bidi_control_and_zero_width_character_is_stripped_from_the_stored_text(char):
    result = admit_text(source="manage", text=f"用户偏好{char}简洁的{char}回答 short{char}answers")

    assert result.admitted
    assert result.text == "用户偏好简洁的回答 shortanswers"


def test_an_override_is_stripped_and_the_text_stored_in_its_own_order():
    result = admit_text(source="manage", text="\ufeff用户喜欢\u202eolleh\u202c这个词")

    assert result.text == "用户喜欢olleh这个词"


def test_a_joiner_inside_an_emoji_sequence_is_kept():
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"

    assert strip_invisible(f"团队吉祥物是 {family}") == f"团队吉祥物是 {family}"
    assert strip_invisible("a\u200db") == "ab"


ORDINARY = (
    "用户偏好简洁的回答，结论先行。",
    "The quarterly report is due on Friday and should stay under ten pages.",
    "3f2b8c1e-7d4a-4e9b-b5c6-0a1d2e3f4a5b",
    "9fceb02d0ae598e95dc970b74767f19372d61af8",
    "order-7f3a9c21 run-42 load-1234 QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG",
    "internationalization InternationalizationAndLocalization2024",
    "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk",
)


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_sentences_and_ids_hide_no_base64_text(text):
    assert list(decoded_base64(text)) == []


def test_base64_text_is_decoded_plain_and_url_safe():
    assert list(decoded_base64("x cGFzc3dvcmQ9aHVudGVyMjAyNA== y")) == ["password=hunter2024"]
    assert list(decoded_base64("cGhvbmU-Pj8xMzkxMjM0NTY3OA")) == ["phone>>?13912345678"]


def test_look_alike_letters_fold_only_in_mixed_or_look_alike_words():
    assert fold_confusables("p\u0430ssword") == "password"
    # A Russian word with letters outside the look-alikes stays Russian.
    assert fold_confusables("Пароль нужно менять") == "Пароль нужно менять"
