"""Disguised secrets are refused and plausible look-alikes are not.

The gate's side of the tables in ``disguised.py`` and ``benign.txt``; every write edge is
tried with the same tables in ``test_every_edge.py``.
"""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest

from memories.admission import Message, admit, admit_text, find_secret
from memories.admission.meaning import meaning_views
from memories.admission.normalize import fold
from tests.memories.admission.disguised import DISGUISED, SPLIT_ID_MESSAGES

BENIGN = [
    line
    for line in (Path(__file__).parent / "benign.txt").read_text(encoding="utf-8").splitlines()
    if line.strip() and not line.startswith("#")
]


def test_the_tables_are_as_large_as_promised():
    assert len(DISGUISED) >= 32
    assert len({case.id for case in DISGUISED}) == len(DISGUISED)
    assert len(BENIGN) >= 100
    assert all(case.secret in case.text for case in DISGUISED)


@pytest.mark.parametrize("case", DISGUISED, ids=lambda case: case.id)
def test_every_disguise_is_refused_without_echoing_it(case):
    result = admit_text(source="manage", text=case.text)

    assert (result.admitted, result.reason, result.messages) == (False, case.reason, ())
    assert case.secret not in result.detail
    found = find_secret(case.text)
    assert found is not None and found[0] == case.reason


@pytest.mark.parametrize("line", BENIGN)
def test_look_alikes_are_admitted_unchanged(line):
    result = admit_text(source="manage", text=line)

    assert result.reason is None, result.detail
    assert result.text == line


def test_an_id_split_over_two_messages_is_refused_as_one_number():
    messages = [Message(role="user", content=text) for text in SPLIT_ID_MESSAGES]
    assert all(admit(source="chat", messages=[message]).admitted for message in messages)

    result = admit(source="chat", messages=messages)

    assert (result.admitted, result.reason) == (False, "sensitive_identifier")
    assert result.detail == "the messages together contain a personal identifier (cn_resident_id)"


# rot13 turns only ASCII letters (``codecs`` leaves "è", "ü", "ñ" as they are), so a sentence in
# a language with accents is rot13'd all the same and must be undone like an English one: by the
# keyword line on the decoded view, not left to the head's score of the disguised text (the
# Italian one scored 0.45 against a threshold of 0.43; the German, Spanish and Portuguese ones
# were stored).
ROT13_ACCENTED = [
    ("it", "la mia password è {}", "Kiwi201Moss!"),
    ("fr", "mon mot de passe est {}, noté à côté", "Lotus58Comet#"),
    ("de", "das Büro-Passwort ist {}", "Tiger77Birke?"),
    ("es", "mi contraseña es {}", "Kiwi15Moss!"),
    ("pt", "minha senha é {}", "Kiwi16Moss!"),
    ("sv", "mitt lösenord är {}", "Kiwi27Moss!"),
]


@pytest.mark.parametrize(
    ("sentence", "value"),
    [case[1:] for case in ROT13_ACCENTED],
    ids=[case[0] for case in ROT13_ACCENTED],
)
def test_rot13_with_accented_letters_is_undone(sentence, value):
    plain = sentence.format(value)
    text = codecs.encode(plain, "rot13")
    disguised_value = codecs.encode(value, "rot13")
    assert not text.isascii() and disguised_value in text

    assert fold(plain) in meaning_views(text)
    assert find_secret(text) == ("credential", "secret_statement")
    result = admit_text(source="manage", text=text)
    assert (result.admitted, result.reason) == (False, "credential")
    assert disguised_value not in result.detail


def test_rot13_is_not_tried_on_text_in_another_script():
    # Only Latin-script text is read as rot13: a Chinese or Russian text pays no extra view.
    for text in ("我的 cnffjbeq 是 Kiwi201Moss!", "мой cnffjbeq Kiwi201Moss!"):
        assert codecs.encode(fold(text), "rot13") not in meaning_views(text)
