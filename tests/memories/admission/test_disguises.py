"""Disguised secrets are refused and plausible look-alikes are not.

The gate's side of the tables in ``disguised.py`` and ``benign.txt``; every write edge is
tried with the same tables in ``test_every_edge.py``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from memories.admission import Message, admit, admit_text, find_secret
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
