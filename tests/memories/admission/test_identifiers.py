"""Personal identifiers: resident IDs, mobiles, bank cards."""

from __future__ import annotations

import pytest

from memories.admission import admit, find_sensitive_identifier
from tests.memories.admission.fakes import resident_id_of, user, with_luhn_digit

# Personal identifiers
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "resident_id",
    [resident_id_of("11010519491231002"), resident_id_of("44030420000229123")],
    ids=["check-char-X", "leap-day-numeric-check"],
)
def test_valid_resident_id_is_detected(resident_id):
    assert find_sensitive_identifier(f"身份证号 {resident_id}，请记录") == "cn_resident_id"


def test_resident_id_with_a_wrong_check_digit_is_still_an_id():
    # A real region and birth date are personal enough; a typo does not make them less so.
    valid = resident_id_of("11010519491231002")
    wrong = valid[:17] + ("1" if valid[17] != "1" else "2")

    assert find_sensitive_identifier(f"编号 {wrong}") == "cn_resident_id"


@pytest.mark.parametrize(
    "number",
    ["201105194912310021", "990105194912310021", "202411301234567890"],
    ids=["province-20", "province-99", "date-led-order-number"],
)
def test_eighteen_digits_without_a_real_province_are_not_an_id(number):
    assert find_sensitive_identifier(f"订单 {number}") is None


@pytest.mark.parametrize(
    "first_17",
    ["11010519901301123", "11010518501231002", "11010529991231002"],
    ids=["month-13", "born-before-1900", "born-in-the-future"],
)
def test_resident_id_with_implausible_birth_date_is_not_an_id(first_17):
    assert find_sensitive_identifier(resident_id_of(first_17)) is None


@pytest.mark.parametrize(
    "text",
    [
        "13812345678",
        "手机13812345678，晚上联系",
        "+86 138 1234 5678",
        "+86-13812345678",
        "(+86) 13912345678",
        "0086 15012345678",
        "138-1234-5678",
    ],
)
def test_mainland_mobile_numbers_are_detected(text):
    assert find_sensitive_identifier(text) == "cn_mobile"


@pytest.mark.parametrize(
    "text",
    ["913812345678", "138123456789", "12812345678", "1381234567", "版本 v13812345678"],
    ids=["digit-before", "digit-after", "second-digit-2", "ten-digits", "letter-before"],
)
def test_numbers_that_only_contain_a_mobile_shape_are_not_mobiles(text):
    assert find_sensitive_identifier(text) is None


@pytest.mark.parametrize(
    "card",
    [
        with_luhn_digit("622202123456789012"),
        "4111 1111 1111 1111",
        "5500-0000-0000-0004",
        "6222 0212 3456 7890 128",
    ],
    ids=["unionpay-19", "visa-grouped", "mastercard-dashed", "unionpay-grouped-19"],
)
def test_luhn_valid_bank_cards_are_detected(card):
    assert find_sensitive_identifier(f"卡号 {card}") == "bank_card"


@pytest.mark.parametrize(
    "number",
    ["4111 1111 1111 1112", "6222021234567890124", with_luhn_digit("173568960000")],
    ids=["visa-wrong-check", "unionpay-wrong-check", "ms-timestamp-luhn-valid"],
)
def test_numbers_failing_the_card_checks_are_not_bank_cards(number):
    assert find_sensitive_identifier(number) is None


def test_identifier_refuses_the_batch_without_echoing_it():
    result = admit(source="chat", messages=[user("我的手机是 13812345678，报告发这里")])

    assert (result.admitted, result.reason, result.messages) == (
        False,
        "sensitive_identifier",
        (),
    )
    assert result.detail == "message 0 (user) contains a personal identifier (cn_mobile)"


def test_full_width_digits_are_checked_like_ascii_digits():
    assert find_sensitive_identifier("电话１３８１２３４５６７８") == "cn_mobile"
