"""The gate: sources, roles, emptiness, quotes, result shape."""

from __future__ import annotations

import pytest

from memories.admission import (
    REJECTION_REASONS,
    AdmissionResult,
    Message,
    admit,
    admit_text,
)
from memories.admission.meaning import asked_for, find_meant_secret
from memories.text import normalize_quotes
from tests.memories.admission.fakes import OPENAI_PROJECT_KEY, assistant, resident_id_of, user
from tests.memories.admission.meaning_cases import (
    ASKED_FOR_A_BUSINESS_LINE,
    ASKED_FOR_AN_IDENTIFIER,
)

# --------------------------------------------------------------------------------------------
# Sources
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("source", ["pre_compact", "session_end", "PRE-COMPACT", " session_end "])
def test_snapshot_sources_are_refused(source):
    result = admit(source=source, messages=[user("用户偏好简体中文回答")])

    assert result.admitted is False
    assert result.reason == "snapshot_source"
    assert result.messages == ()


def test_session_state_source_is_refused():
    result = admit(source="session_state", messages=[user("用户偏好简体中文回答")])

    assert (result.admitted, result.reason, result.messages) == (False, "session_state", ())


@pytest.mark.parametrize("source", ["manage_add", "manage_update", "chat", "import"])
def test_ordinary_sources_are_admitted(source):
    result = admit(source=source, messages=[user("用户偏好简体中文回答")])

    assert result == AdmissionResult(
        admitted=True, messages=(user("用户偏好简体中文回答"),), reason=None
    )


# --------------------------------------------------------------------------------------------
# Roles and emptiness
# --------------------------------------------------------------------------------------------


def test_task_completed_with_user_and_assistant_is_admitted_in_order():
    result = admit(
        source="task_completed",
        messages=[user("以后所有报告统一使用 HTML"), assistant("已按 HTML 生成周报")],
    )

    assert result.admitted is True
    assert result.reason is None
    assert result.messages == (
        user("以后所有报告统一使用 HTML"),
        assistant("已按 HTML 生成周报"),
    )


@pytest.mark.parametrize(
    "messages",
    [
        [user("以后所有报告统一使用 HTML")],
        [assistant("已按 HTML 生成周报")],
        [user("以后所有报告统一使用 HTML"), assistant("$ npm run build")],
        [Message(role="system", content="你是助手"), assistant("已按 HTML 生成周报")],
    ],
    ids=["only-user", "only-assistant", "assistant-only-noise", "system-is-not-user"],
)
def test_task_completed_without_both_meaningful_roles_is_missing_role(messages):
    result = admit(source="task_completed", messages=messages)

    assert (result.admitted, result.reason, result.messages) == (False, "missing_role", ())


def test_task_completed_roles_are_matched_case_insensitively():
    result = admit(
        source="task_completed",
        messages=[Message(role="User", content="偏好中文"), Message("Assistant", "好的，已记录")],
    )

    assert result.admitted is True


@pytest.mark.parametrize("source", ["chat", "task_completed", "manage_add"])
def test_batch_with_only_noise_is_empty_after_cleaning(source):
    noise = "```\nprint(1)\n```\n2025-01-02 10:00:00 ERROR boom\nhttps://example.com/x"

    result = admit(source=source, messages=[user(noise), assistant("$ ls -la")])

    assert (result.admitted, result.reason, result.messages) == (
        False,
        "empty_after_cleaning",
        (),
    )


@pytest.mark.parametrize("content", ["好", "1", "。。。", "   "])
def test_fewer_than_two_letters_is_not_meaningful(content):
    assert admit(source="chat", messages=[user(content)]).reason == "empty_after_cleaning"


def test_two_letters_are_meaningful():
    assert admit(source="chat", messages=[user("OK")]).admitted is True


def test_meaningless_messages_are_left_out_of_an_admitted_batch():
    result = admit(source="chat", messages=[user("用户偏好简洁回答"), assistant("$ ls -la")])

    assert result.messages == (user("用户偏好简洁回答"),)


@pytest.mark.parametrize(
    "text",
    [
        "这次生成 HTML 报告",
        "今天下午 3 点临时把报告发给某某",
        "用户长期偏好通过邮件接收周报",
        "以后所有报告统一使用 HTML",
    ],
)
def test_admission_never_judges_whether_a_fact_is_worth_remembering(text):
    result = admit(source="chat", messages=[user(text)])

    assert result.admitted is True
    assert result.messages == (user(text),)


# --------------------------------------------------------------------------------------------
# Answers to an assistant's request
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("turns", ASKED_FOR_AN_IDENTIFIER, ids=lambda turns: turns[0])
def test_an_answer_to_a_request_for_a_personal_number_is_an_identifier(turns):
    question, answer = turns
    # The answer alone is no identifier the shape checks know in every case; the question says
    # what it is.
    result = admit(source="chat", messages=[assistant(question), user(answer)])

    assert (result.admitted, result.reason) == (False, "sensitive_identifier")
    assert answer not in result.detail
    # Refused by the question even where no shape check knows the number.
    assert asked_for(question) == "sensitive_identifier"
    assert find_meant_secret(answer, answers="sensitive_identifier") == (
        "sensitive_identifier",
        "answer_to_identifier_request",
    )


@pytest.mark.parametrize("turns", ASKED_FOR_A_BUSINESS_LINE, ids=lambda turns: turns[0])
def test_a_businesss_public_line_asked_for_is_no_personal_number(turns):
    question, answer = turns
    result = admit(source="chat", messages=[assistant(question), user(answer)])

    assert (result.admitted, result.reason) == (True, None)
    assert asked_for(question) is None


def test_a_request_is_judged_on_the_turn_that_answers_it_only():
    # The same number, said before the question or by the assistant, answers nothing.
    question, answer = "What's your passport number for the booking?", "561234567"
    before = admit(source="chat", messages=[user(answer), assistant(question)])
    told = admit(source="chat", messages=[assistant(question), assistant(answer)])

    assert (before.admitted, told.admitted) == (True, True)


# --------------------------------------------------------------------------------------------
# Quotes
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("用户习惯让“林清”审阅", '用户习惯让"林清"审阅'),
        ("沟通统一用「飞书」", '沟通统一用"飞书"'),
        ("标题叫『周报』", '标题叫"周报"'),
    ],
)
def test_normalize_quotes_turns_chinese_quotes_into_ascii(text, expected):
    assert normalize_quotes(text) == expected


def test_normalize_quotes_keeps_apostrophes():
    assert normalize_quotes("don’t use PDF") == "don’t use PDF"


def test_admitted_messages_keep_the_quotes_as_typed():
    result = admit(source="chat", messages=[user("审阅人是“林清”，沟通用「飞书」")])

    assert result.messages == (user("审阅人是“林清”，沟通用「飞书」"),)


def test_cleaning_keeps_the_typed_quotes_around_what_it_removes():
    result = admit_text(source="manage", text="“周报”模板见 https://wiki.example.com/w 「页面」")

    assert result.text == "“周报”模板见「页面」"


# --------------------------------------------------------------------------------------------
# Explicit facts and result shape
# --------------------------------------------------------------------------------------------


def test_admit_text_wraps_one_fact_as_a_user_message():
    result = admit_text(source="manage_add", text="用户偏好“结论先行”的周报")

    assert result == AdmissionResult(
        admitted=True, messages=(user("用户偏好“结论先行”的周报"),), reason=None
    )


def test_admit_text_applies_the_same_cleaning():
    result = admit_text(source="manage_update", text="周报模板见 https://wiki.example.com/w 页面")

    assert result.messages == (user("周报模板见页面"),)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        (f"用户的 key 是 {OPENAI_PROJECT_KEY}", "credential"),
        ("用户手机号 13812345678", "sensitive_identifier"),
        ("$ rm -rf /tmp/x", "empty_after_cleaning"),
        # What cleaning takes out (its own gap mark, a path) must not join a secret that the
        # raw text split: the text as stored is judged too.
        ("我的密\x00码是芝麻开门", "credential"),
        ("客户电话 139\x001234\x005678 要记住", "sensitive_identifier"),
        ("我的密 /tmp/x 码是芝麻开门", "credential"),
    ],
)
def test_admit_text_refuses_like_admit(text, reason):
    result = admit_text(source="manage_add", text=text)

    assert (result.admitted, result.reason, result.messages) == (False, reason, ())


@pytest.mark.parametrize(
    ("source", "messages"),
    [
        ("pre_compact", [user("偏好中文")]),
        ("session_state", [user("偏好中文")]),
        ("chat", [user(f"key {OPENAI_PROJECT_KEY}")]),
        ("chat", [user("身份证 " + resident_id_of("11010519491231002"))]),
        ("task_completed", [user("偏好中文")]),
        ("chat", [user("$ ls")]),
    ],
)
def test_every_refusal_is_a_known_reason_not_an_exception(source, messages):
    result = admit(source=source, messages=messages)

    assert result.reason in REJECTION_REASONS
    assert result.admitted is False
    assert result.messages == ()
    assert result.detail


def test_rejection_reasons_are_the_published_set():
    assert REJECTION_REASONS == (
        "snapshot_source",
        "session_state",
        "credential",
        "sensitive_identifier",
        "missing_role",
        "empty_after_cleaning",
        "technical_noise",
    )
