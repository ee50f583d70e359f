"""Personal identifiers: resident ID numbers, mobile numbers, bank cards, passports, e-mail.

Numbers are read the way ``normalize`` writes them back together: full-width digits folded,
zero-width characters dropped, Chinese numerals as digits, separators between digits collapsed.
A number next to its label (身份证, 手机号, 银行卡, ID card, phone…) is refused whatever its
checksum; a bare 18-digit number is refused when it has the structure of a resident ID (a real
province, a real birth date) even with a wrong check digit — a typo does not make it less
personal. Mobile numbers need a plausible grouping (3-4-4, digit by digit…) so a price range
such as "139.00 - 1234.56" is not read as a phone number.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime
from typing import Final

from memories.admission.normalize import (
    DigitRun,
    decoded_base64,
    digit_runs,
    fold,
    map_chinese_numerals,
    visual_order,
)

__all__ = ["find_sensitive_identifier"]

# GB/T 2260 province-level codes: the first two digits of a resident ID.
_PROVINCES: Final = frozenset(
    {
        "11", "12", "13", "14", "15", "21", "22", "23", "31", "32", "33", "34", "35", "36",
        "37", "41", "42", "43", "44", "45", "46", "50", "51", "52", "53", "54", "61", "62",
        "63", "64", "65", "71", "81", "82", "83", "91",
    }
)  # fmt: skip
_OLDEST_BIRTH_YEAR: Final = 1900

# How mobile numbers are grouped when written or read out: 13812345678, 138 1234 5678,
# 138-12345678, 1381234 5678. Digit by digit is accepted separately.
_MOBILE_GROUPS: Final = frozenset({(11,), (3, 4, 4), (3, 8), (7, 4)})
_MOBILE_RE: Final = re.compile(r"1[3-9]\d{9}")
_COUNTRY_CODES: Final = ("0086", "86")
# Characters that join the parts of a product code or file name: "SKU 138-1234-5678-A".
_CODE_JOINTS: Final = frozenset("-_./")

# Labels: what the number next to them is, whatever its checksum. The number may follow
# within a few characters ("身份证号码是：…", "phone number: …").
_LABEL_GAP: Final = r"[^0-9A-Za-z]{0,12}?"
_ID_LABEL_RE: Final = re.compile(
    r"(?:身份证|证件号|公民身份号码|居民身份|id\s*card|id\s*(?:no|number)|identity\s*(?:card|number)"
    rf"|national\s*id){_LABEL_GAP}(?=\d)",
    re.IGNORECASE,
)
_PHONE_LABEL_RE: Final = re.compile(
    r"(?:手机|电话|联系方式|微信号|mobile|cell\s*phone|cellphone|phone|tel)"
    rf"{_LABEL_GAP}(?:\+?86|0086)?{_LABEL_GAP}(?=\d)",
    re.IGNORECASE,
)
_CARD_LABEL_RE: Final = re.compile(
    r"(?:银行卡|卡号|信用卡|储蓄卡|借记卡|银行账号|银行账户|bank\s*card|card\s*(?:no|number)"
    rf"|credit\s*card|debit\s*card|account\s*(?:no|number)){_LABEL_GAP}(?=\d)",
    re.IGNORECASE,
)
_PASSPORT_RE: Final = re.compile(
    rf"(?:护照|passport){_LABEL_GAP}[A-Za-z]{{0,2}}\d{{7,9}}(?![0-9])", re.IGNORECASE
)

# Any e-mail address, also "alice [at] example [dot] com" and "alice艾特example点com".
_AT: Final = r"(?:@|\s*[\[({<]\s*at\s*[\])}>]\s*|\s+at\s+|\s*艾特\s*)"
_DOT: Final = r"(?:\.|\s*[\[({<]\s*dot\s*[\])}>]\s*|\s+dot\s+|\s*点\s*)"
_EMAIL_RE: Final = re.compile(
    rf"(?<![A-Za-z0-9._%+\-])[A-Za-z0-9][A-Za-z0-9._%+\-]{{0,63}}{_AT}"
    rf"[A-Za-z0-9](?:[A-Za-z0-9\-]{{0,62}}[A-Za-z0-9])?(?:{_DOT}[A-Za-z0-9\-]{{1,63}})*"
    rf"{_DOT}[A-Za-z]{{2,24}}(?![A-Za-z0-9])",
    re.IGNORECASE,
)
# "alice at example dot com" needs both spelled words, so "meet at noon" stays a sentence.
_SPELLED_AT_RE: Final = re.compile(r"\s+at\s+", re.IGNORECASE)
# "icon@2x.png" is an image at double resolution, not an address.
_RETINA_ASSET_RE: Final = re.compile(r"@\d(?:\.\d)?x\.", re.IGNORECASE)


def find_sensitive_identifier(text: str) -> str | None:
    """Return ``"cn_resident_id"``, ``"cn_mobile"``, ``"bank_card"``, ``"passport"`` or
    ``"email"`` for the first personal identifier found, else None. Never the identifier.

    The text is read as stored, as a right-to-left override displays it, and inside each
    base64 run that decodes to text.
    """
    if not text:
        return None
    shown = visual_order(text)
    views = [text] if shown == text else [text, shown]
    views.extend(decoded_base64(fold(text)))
    for view in views:
        kind = _find_in_view(view)
        if kind is not None:
            return kind
    return None


def _find_in_view(text: str) -> str | None:
    folded = fold(text)
    numbers = map_chinese_numerals(folded)
    kind = _labelled(numbers)
    if kind is not None:
        return kind
    runs = list(digit_runs(numbers))
    if any(_is_resident_id(run) for run in runs):
        return "cn_resident_id"
    if any(_is_mobile(run) for run in runs):
        return "cn_mobile"
    if any(_is_bank_card(run) for run in runs):
        return "bank_card"
    if _has_email(folded):
        return "email"
    return None


def _labelled(text: str) -> str | None:
    for label, kind, sizes in (
        (_ID_LABEL_RE, "cn_resident_id", range(15, 19)),
        (_PHONE_LABEL_RE, "cn_mobile", range(11, 12)),
        (_CARD_LABEL_RE, "bank_card", range(12, 20)),
    ):
        for match in label.finditer(text):
            run = next(digit_runs(text[match.end() :]), None)
            if run is not None and len(run.digits) in sizes and _standalone(run):
                return kind
    if _PASSPORT_RE.search(text):
        return "passport"
    return None


def _standalone(run: DigitRun) -> bool:
    """Not a part of a longer code: a version (v13812345678), a hex id, an SKU (A-…-5678-B)."""
    before, after = run.before[-1:], run.after[:1]
    if (before.isascii() and before.isalpha()) or (after.isascii() and after.isalnum()):
        return False
    joined_before = before in _CODE_JOINTS and _is_ascii_alnum(run.before[:1])
    joined_after = after in _CODE_JOINTS and _is_ascii_alnum(run.after[1:])
    return not (joined_before or joined_after)


def _is_ascii_alnum(char: str) -> bool:
    return char.isascii() and char.isalnum()


def _is_resident_id(run: DigitRun) -> bool:
    digits = run.digits
    if len(digits) != 18 or not digits[:17].isdigit() or not _standalone(run):
        return False
    if digits[:2] not in _PROVINCES:
        return False
    try:
        birth = date(int(digits[6:10]), int(digits[10:12]), int(digits[12:14]))
    except ValueError:
        return False
    # The check digit is not consulted: a valid region and birth date are personal enough.
    return birth.year >= _OLDEST_BIRTH_YEAR and birth <= datetime.now(tz=UTC).date()


def _is_mobile(run: DigitRun) -> bool:
    if not _standalone(run):
        return False
    digits, groups = run.digits, run.groups
    for code in _COUNTRY_CODES:
        if digits.startswith(code) and len(digits) == 11 + len(code):
            digits, groups = digits[len(code) :], _drop_digits(groups, len(code))
            break
    if not _MOBILE_RE.fullmatch(digits):
        return False
    return groups in _MOBILE_GROUPS or all(size == 1 for size in groups)


def _drop_digits(groups: tuple[int, ...], count: int) -> tuple[int, ...]:
    """The groups left after the first ``count`` digits (a country code) are taken away."""
    rest = list(groups)
    while count and rest:
        taken = min(count, rest[0])
        rest[0] -= taken
        count -= taken
        if rest[0] == 0:
            rest.pop(0)
    return tuple(rest)


def _is_bank_card(run: DigitRun) -> bool:
    # 15–19 digits (13-digit cards are no longer issued; EAN-13 barcodes are not cards), bare
    # or in groups of four, from a prefix issuers use: 3 (Amex, JCB), 4 (Visa), 5 (Mastercard),
    # 6 (UnionPay 62, Discover), 9 (domestic cards), 2221–2720 (Mastercard 2-series). That
    # keeps millisecond timestamps (1…) and date-led order numbers (2024…) from tripping the
    # 1-in-10 Luhn false positive.
    digits, groups = run.digits, run.groups
    if not (15 <= len(digits) <= 19 and digits.isdigit() and _issuer_prefix(digits)):
        return False
    grouped = (
        len(groups) == 1
        or run.digit_by_digit
        or (groups[0] == 4 and all(size == 4 for size in groups[1:-1]) and groups[-1] <= 4)
    )
    return grouped and _standalone(run) and _luhn_valid(digits)


def _issuer_prefix(digits: str) -> bool:
    return digits[0] in "34569" or 2221 <= int(digits[:4]) <= 2720


def _luhn_valid(digits: str) -> bool:
    total = 0
    for position, char in enumerate(reversed(digits)):
        value = int(char)
        if position % 2 == 1:
            value *= 2
            if value > 9:
                value -= 9
        total += value
    return total % 10 == 0


def _has_email(text: str) -> bool:
    for match in _EMAIL_RE.finditer(text):
        address = match.group()
        if _RETINA_ASSET_RE.search(address):
            continue
        if "@" in address or "艾特" in address or "[" in address or "(" in address:
            return True
        if _SPELLED_AT_RE.search(address) and re.search(r"\s+dot\s+", address, re.IGNORECASE):
            return True
    return False
