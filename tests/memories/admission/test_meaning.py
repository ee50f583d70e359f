"""Secrets are refused by what a text means and the value it carries, not by one wording.

A text that talks about a password, a code or a key *and* carries a value that is not ordinary
language is refused, in any language the bundled multilingual model reads and under the usual
disguises; a text that only talks about them stays admitted.
"""

from __future__ import annotations

import pytest

from memories.admission import admit, admit_text, find_key_secret, find_secret
from memories.admission.meaning import asked_for
from memories.admission.refs import ref_problem
from tests.memories.admission.fakes import assistant, user
from tests.memories.admission.meaning_cases import (
    ANSWERED_IN_WORDS,
    ASKED,
    ASKED_ABOUT,
    ASKED_IN_MORE_WAYS,
    ASKED_ZH,
    DEVICES,
    LOOK_ALIKES,
    NOT_ASKED,
    NOT_GIVEN,
    PASSWORDS_FOR_A_PLACE,
    PLAIN_KEYS,
    SECRET_KEYS,
    SECRET_RUN_IDS,
    SECRETS,
    THIRD_PROBE,
    THIRD_PROBE_LOOK_ALIKES,
)


def test_every_secret_said_in_words_is_refused_without_echoing_it():
    stored = []
    for case_id, text in SECRETS:
        result = admit_text(source="manage", text=text)
        if result.admitted or result.reason not in ("credential", "sensitive_identifier"):
            stored.append(case_id)
        assert text not in result.detail
    assert stored == []


def test_a_password_for_a_place_is_read_by_the_keyword_line():
    # "für das Büro", "à la maison" between the word and its value: the cheap line reads them,
    # not only the head.
    found = {case_id: find_secret(text) for case_id, text in PASSWORDS_FOR_A_PLACE}
    assert found == dict.fromkeys(found, ("credential", "secret_statement"))


def test_look_alikes_stay_admitted():
    refused = [(case_id, find_secret(text)) for case_id, text in LOOK_ALIKES]
    assert [(case_id, found) for case_id, found in refused if found] == []


@pytest.mark.parametrize(("case_id", "text"), THIRD_PROBE, ids=[c[0] for c in THIRD_PROBE])
def test_a_secret_named_by_what_it_opens_or_a_noun_phrase_is_read_by_the_keyword_line(
    case_id, text
):
    # No head: the keyword line reads each, so the refusal does not rest on a score.
    assert find_secret(text) == ("credential", "secret_statement")
    result = admit_text(source="manage", text=text)
    assert (result.admitted, result.reason) == (False, "credential")
    assert text not in result.detail


@pytest.mark.parametrize(
    ("case_id", "text"), THIRD_PROBE_LOOK_ALIKES, ids=[c[0] for c in THIRD_PROBE_LOOK_ALIKES]
)
def test_what_the_third_probe_s_secrets_look_like_stays_admitted(case_id, text):
    assert find_secret(text) is None
    assert admit_text(source="manage", text=text).admitted


def test_devices_named_by_their_model_numbers_stay_admitted():
    refused = [(case_id, find_secret(text)) for case_id, text in DEVICES]
    assert [(case_id, found) for case_id, found in refused if found] == []


def test_an_answer_to_a_request_for_a_secret_is_a_secret():
    for question, answer in (ASKED, ASKED_ZH):
        result = admit(source="chat", messages=[assistant(question), user(answer)])
        assert (result.admitted, result.reason) == (False, "credential")


def _turns(texts: tuple[str, ...]) -> list:
    """Assistant first, then the user, turn by turn."""
    return [(assistant if i % 2 == 0 else user)(text) for i, text in enumerate(texts)]


@pytest.mark.parametrize("turns", ANSWERED_IN_WORDS, ids=lambda turns: turns[-1])
def test_a_secret_given_in_plain_words_or_a_turn_later_is_refused(turns):
    result = admit(source="chat", messages=_turns(turns))
    assert (result.admitted, result.reason) == (False, "credential")
    assert turns[-1] not in result.detail


@pytest.mark.parametrize("turns", ASKED_IN_MORE_WAYS, ids=lambda turns: turns[0])
def test_a_request_in_any_language_makes_the_answer_a_secret(turns):
    result = admit(source="chat", messages=_turns(turns))
    assert (result.admitted, result.reason) == (False, "credential")
    assert turns[-1] not in result.detail


@pytest.mark.parametrize("turns", ASKED_ABOUT, ids=lambda turns: turns[0])
def test_an_answer_to_a_question_about_a_secret_is_admitted(turns):
    # Which manager, where it is kept, what the network is called: none asks for the value.
    assert asked_for(turns[0]) != "credential"
    result = admit(source="chat", messages=_turns(turns))
    assert result.admitted, result.detail


@pytest.mark.parametrize("turns", NOT_GIVEN, ids=lambda turns: turns[-1])
def test_an_answer_that_gives_no_secret_is_admitted(turns):
    assert admit(source="chat", messages=_turns(turns)).admitted


def test_an_answer_to_an_ordinary_question_is_admitted():
    question, answer = NOT_ASKED
    assert admit(source="chat", messages=[assistant(question), user(answer)]).admitted
    # Naming a password and asking something else is not asking for it.
    other = "Your password has been reset. Anything else?"
    assert admit(source="chat", messages=[assistant(other), user(answer)]).admitted


@pytest.mark.parametrize(
    "question", ["你的 wifi 密码是多少？", "请把验证码发给我", "What is the API key for staging?"]
)
def test_every_way_of_asking_makes_the_answer_a_secret(question):
    result = admit(source="chat", messages=[assistant(question), user("记一下：A7b9C2d4")])
    assert (result.admitted, result.reason) == (False, "credential")


@pytest.mark.parametrize("key", SECRET_KEYS)
def test_a_memory_key_holding_a_secret_is_refused(key):
    assert find_key_secret(key) is not None


@pytest.mark.parametrize("key", PLAIN_KEYS)
def test_plain_memory_keys_are_kept(key):
    assert find_key_secret(key) is None


@pytest.mark.parametrize("run_id", SECRET_RUN_IDS)
def test_a_run_id_holding_a_phone_or_card_number_is_refused(run_id):
    problem = ref_problem(run_id)
    assert problem is not None and "identifier" in problem
    assert run_id not in problem


def test_plain_run_ids_are_kept():
    plain = ("run-42", "run-2024-12-03", "job:7f3a9c2e", "rq3c-ask-pin", "rq3c-ask_pin_zh")
    # "ask pin" is no "as … PIN": the value said to be a secret needs the word "as" itself.
    assert [ref_problem(r) for r in plain] == [None] * len(plain)


def test_metadata_values_are_judged_like_text():
    result = admit(
        source="chat",
        messages=[user("以后技术方案都用简体中文。")],
        fields={"note": "비밀번호는 Kiwi21Moss! 입니다"},
    )
    assert (result.admitted, result.reason) == (False, "credential")
