"""Personal identifiers: ID numbers, phone numbers, bank accounts and cards, passports, e-mail.

Numbers are read the way ``normalize`` writes them back together: full-width digits folded,
zero-width characters dropped, Chinese numerals as digits, separators between digits collapsed;
traditional characters are read as simplified, so the labels are written in simplified script
and "身份證項目" is judged as "身份证项目".
A number next to its label (身份证, 手机号, 银行卡, ID card, phone…) is refused whatever its
checksum; a bare 18-digit number is refused when it has the structure of a resident ID (a real
province, a real birth date) even with a wrong check digit — a typo does not make it less
personal. Mobile numbers need a plausible grouping (3-4-4, digit by digit…) so a price range
such as "139.00 - 1234.56" is not read as a phone number. After a phone's label a landline
counts like a mobile, whatever its area code's length (``_is_personal_line``). A phone's label
owned by a business ("餐厅的订位电话", "Tony's Pizza phone number") names its public line, no
one's number (``business_line``), and one followed by a meeting's ("电话会议号") names the
meeting's. Labels are matched as written before their numerals become digits: 统一证号 is no
统1证号.

Other countries' numbers (``_ABROAD``) are read the same two ways. After a label in the
language of the text (IBAN aside, whose checksum is enough) a number of the identifier's shape
is refused — a few words may stand between ("Số tài khoản Vietcombank của tôi là …"); where
the label is also an ordinary word (SIN, PAN, "my social") ``python-stdnum`` must accept the
number too. Without a label only the shapes no order number, price or timestamp takes are
refused: an IBAN (mod 97 and its country's length), a Korean resident number (a birth date and
its check digit), a CPF as written (ddd.ddd.ddd-dd), an Emirates ID (784-year-…), a Hong Kong
ID with its check digit in parentheses, a French NIR as written, a codice fiscale, an American
Express number in its 4-6-5 groups, and Japanese, Korean and French mobiles as dialled.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime
from functools import cache
from typing import Final

import phonenumbers
from stdnum import iban
from stdnum.br import cpf
from stdnum.ca import sin
from stdnum.es import dni, nie
from stdnum.fr import nir
from stdnum.in_ import pan
from stdnum.it import codicefiscale
from stdnum.kr import rrn
from stdnum.us import ssn

from memories.admission.normalize import (
    DigitRun,
    decoded_base64,
    digit_runs,
    fold,
    map_chinese_numerals,
    visual_order,
)
from memories.language import script

__all__ = ["business_line", "find_sensitive_identifier"]

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
_MOBILE_LENGTH: Final = 11
_COUNTRY_CODES: Final = ("0086", "86")
# Characters that join the parts of a product code or file name: "SKU 138-1234-5678-A".
_CODE_JOINTS: Final = frozenset("-_./")
_AMEX_GROUPS: Final = (4, 6, 5)

# Labels: what the number next to them is, whatever its checksum. The number may follow
# within a few characters ("身份证号码是：…", "phone number: …").
_LABEL_GAP: Final = r"[^0-9A-Za-z]{0,12}?"
_ID_LABEL_RE: Final = re.compile(
    r"(?:身份证|证件号|公民身份号码|居民身份|id\s*card|id\s*(?:no|number)|identity\s*(?:card|number)"
    rf"|national\s*id){_LABEL_GAP}(?=\d)",
    re.IGNORECASE,
)
_PHONE_LABEL_RE: Final = re.compile(
    r"(?:手机|电话|联系方式|联络方式|微信号|mobile|cell\s*phone|cellphone|phone|tel)"
    rf"{_LABEL_GAP}(?:\+?86|0086)?{_LABEL_GAP}(?=\d)",
    re.IGNORECASE,
)
_CARD_LABEL_RE: Final = re.compile(
    r"(?:银行卡|卡号|信用卡|储蓄卡|借记卡|bank\s*card|card\s*(?:no|number)"
    rf"|credit\s*card|debit\s*card){_LABEL_GAP}(?=\d)",
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
    """The kind of the first personal identifier found (``"cn_resident_id"``, ``"cn_mobile"``,
    ``"bank_card"``, ``"iban"``, ``"bank_account"``, ``"passport"``, ``"phone_number"``, a
    country's ID such as ``"kr_resident_id"``, ``"email"``…), else None. Never the identifier.

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
    # Numerals first: 參 (3) is read before it becomes 参, which is no numeral. Labels keep
    # their characters (统一证号).
    numbers = _labels_as_written(
        script.simplified(map_chinese_numerals(folded)), script.simplified(folded)
    )
    kind = _labelled(numbers)
    if kind is not None:
        return kind
    if _has_iban(numbers):
        return "iban"
    kind = _labelled_abroad(numbers)
    if kind is not None:
        return kind
    runs = list(digit_runs(numbers))
    if any(_is_resident_id(run) for run in runs):
        return "cn_resident_id"
    if any(_is_mobile(run) for run in runs):
        return "cn_mobile"
    if any(_is_bank_card(run) for run in runs):
        return "bank_card"
    kind = _bare_abroad(numbers)
    if kind is not None:
        return kind
    if _has_email(folded):
        return "email"
    return None


def _labelled(text: str) -> str | None:
    for label, kind, sizes in (
        (_ID_LABEL_RE, "cn_resident_id", range(15, 19)),
        (_CARD_LABEL_RE, "bank_card", range(12, 20)),
    ):
        for match in label.finditer(text):
            run = next(digit_runs(text[match.end() :]), None)
            if run is not None and len(run.digits) in sizes and _standalone(run):
                return kind
    phone = _labelled_phone(text)
    if phone is not None:
        return phone
    if _PASSPORT_RE.search(text):
        return "passport"
    return None


def _labelled_phone(text: str) -> str | None:
    """A person's mainland number after a phone's label: a mobile's eleven digits whatever
    their prefix (the label says what they are, as a wrong check digit leaves an ID an ID), or
    a landline, whose length depends on its area code (010-6552 8890, 0755-2345 6789): the
    plan knows which are dialled. Not a business's line nor a meeting's number
    (``_names_no_persons_line``)."""
    for match in _PHONE_LABEL_RE.finditer(text):
        if _names_no_persons_line(text, match.start(), match.end()):
            continue
        run = next(digit_runs(text[match.end() :]), None)
        if run is None or not _standalone(run):
            continue
        if len(run.digits) == _MOBILE_LENGTH and run.digits.startswith("1"):
            return "cn_mobile"
        if _is_personal_line(run.digits, "CN"):
            return "phone_number"
    return None


# A business's or a place's own line, published for anyone to call: "the restaurant's phone
# number", "Tony's Pizza phone", "the phone number of that pizza place", "那家餐厅的订位电话",
# "酒店前台电话", "客服电话". A line's word only ("phone", "电话"), never a mobile's ("手机",
# "mobile", "cell"): a mobile is a person's, whoever they work for.
_LINE_WORD_RE: Final = re.compile(r"(?:tele)?phone(?![a-z])|tel\b|电话", re.IGNORECASE)
_BUSINESS: Final = (
    r"restaurants?|pizz(?:a|eria)|diner|caf[eé]|bistro|bakery|bar|pub|shop|store|hotel|hostel"
    r"|clinic|hospital|pharmacy|dentist|salon|gym|museum|theat(?:er|re)|cinema|airline"
    r"|hotline|helpline|customer\s+(?:service|support)|front\s+desk|reception|box\s+office"
)
_BUSINESS_ZH: Final = (
    r"餐厅|餐馆|饭店|饭馆|酒店|宾馆|酒楼|咖啡馆|店|商家|商场|超市|医院|诊所|药房|药店|前台|客服"
    r"|物业|营业厅|售后"
)
# Before the line's word, the business and at most one more word ("pizza place phone"), or in
# Chinese the business, then "的" and at most two characters ("餐厅的订位电话") or two characters
# of its own ("酒店前台电话") — not a clause about the user ("店里留的电话", "那家店留的电话").
_BUSINESS_BEFORE_RE: Final = re.compile(
    rf"(?:(?<![^\W\d_])(?:{_BUSINESS})s?(?:['’]s)?(?:\s+[A-Za-z]+)?\s*"
    rf"|(?:{_BUSINESS_ZH})(?:的[\u3400-\u9fff]{{0,2}}|[\u3400-\u9fff]{{0,2}}(?<!的)))\Z",
    re.IGNORECASE,
)
# A person's line whatever follows: "your phone number for the restaurant booking", "我的电话".
_PERSON_BEFORE_RE: Final = re.compile(
    r"(?:(?<![^\W\d_])(?:my|your|our|his|her|their)\s+(?:[A-Za-z]+\s+)?|[我你您他她]的?)\Z",
    re.IGNORECASE,
)
# After it, "of", "for" or "at" and at most three words before the business ("phone number of
# that pizza place") — not "your phone number so the restaurant can call you".
_BUSINESS_AFTER_RE: Final = re.compile(
    r"\S+(?:\s+(?:number|no\b\.?|line))?\s+(?:of|for|at)\s+(?:[A-Za-z]+(?:['’]s)?\s+){0,3}?"
    rf"(?:{_BUSINESS})s?(?![^\W\d_])",
    re.IGNORECASE,
)


def business_line(text: str, at: int) -> bool:
    """The phone's word at ``at`` names a business's or a place's public line: no personal
    number follows it, and an assistant asking for it asks for none (``meaning.asked_for``).
    Read in simplified characters, like every label here ("餐廳的訂位電話")."""
    text = script.simplified(text)
    if not _LINE_WORD_RE.match(text, at):
        return False
    before = text[max(0, at - 40) : at]
    if _PERSON_BEFORE_RE.search(before):
        return False
    return bool(_BUSINESS_BEFORE_RE.search(before) or _BUSINESS_AFTER_RE.match(text, at))


# A meeting's number named between a phone's word and the number: "电话会议号 …" (a conference
# call's), "电话入会：会议号 …" (joining by phone). Only Chinese: nothing but punctuation and
# short words ("is", "my") stands between an English phone's word and its number.
_MEETING: Final = "会议"


def _names_no_persons_line(text: str, label: int, number: int) -> bool:
    """The phone's word at ``label`` names no one's line in the number at ``number``: a
    business's (``business_line``) or a meeting's."""
    return business_line(text, label) or _MEETING in text[label:number]


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
    # 1-in-10 Luhn false positive. American Express prints its 15 digits as 4-6-5.
    digits, groups = run.digits, run.groups
    if not (15 <= len(digits) <= 19 and digits.isdigit() and _issuer_prefix(digits)):
        return False
    grouped = (
        len(groups) == 1
        or run.digit_by_digit
        or (groups[0] == 4 and all(size == 4 for size in groups[1:-1]) and groups[-1] <= 4)
        or (groups == _AMEX_GROUPS and digits[:2] in ("34", "37"))
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


# --- Other countries -----------------------------------------------------------------------------

# Between a label and its value, what says "is" (or "has") in the languages of the text:
# punctuation, short words ("is", "ist", "est", "é", "của tôi là", "мой", "number", "Reisepass
# hat die Nummer"), a particle or two in a script without spaces (は, 는, 字號是, الخاص). No digit:
# the first number after a label is the one it names. No end of a sentence ("." only inside "No."
# or "Nr.").
_CONNECTORS: Final = (
    r"is|are|was|were|ist|lautet|war|est|es|era|é|è|e|är|er|je|jest|là|la|le|el|il|lo|de|del"
    r"|di|do|da|du|des|der|die|das|den|at|on|in|en|em|to|for|für|pour|para|per|of|my|mi|mis|mio"
    r"|mia|mon|ma|mes|mein|meine|meu|minha|mijn|mój|moja|benim|saya|của|tôi|the|a|an|our|his"
    r"|her|their|your|no|nr|num|number|nummer|numéro|número|numero|numer|nomor|số|numaram"
    r"|numarası|numara|new|current|has|have|hat|tiene|tem"
    r"|personal|own|and|und|et|y|here|now|мой|моя|моё|мои|это|номер|в|на|у|для"
)
# Han, kana and Hangul: a label is glued to what follows it ("身分證字號是", "携帯番号は"), so up to
# four of them may follow it, ending before the value. Other scripts are spaced: a word of at
# most five letters ("в", "мой", "الخاص", "بي").
_CJK: Final = r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uac00-\ud7af]"
_SPACED_NON_LATIN: Final = (
    r"[^\W\d_A-Za-z\u00c0-\u024f\u1e00-\u1eff\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uac00-\ud7af]"
)
# Case matters only to the connectors: the character classes are compiled without case folding,
# which costs a second per process on the first call otherwise.
_GAP_UNIT: Final = (
    r"(?-i:[^\w\n.!;。！；]|\.(?![ \t]*(?:[A-Z]|$))"
    rf"|(?<![^\W\d_])(?i:{_CONNECTORS})(?![^\W\d_])"
    rf"|{_CJK}{{1,4}}(?!{_CJK})"
    rf"|(?<![^\W\d_]){_SPACED_NON_LATIN}{{1,5}}(?![^\W\d_]))"
)
# After a phone's label only that: almost any nine or ten digits are a mobile number somewhere,
# so "Phone case SKU 123456789" and "Contact ID 1234567890" name no phone.
_SHORT_GAP: Final = rf"{_GAP_UNIT}{{0,12}}?"
# After any other label, one word more: a bank's name ("счёт в Сбербанке …", "Số tài khoản
# Vietcombank của tôi là …", "Nomor rekening BCA saya …") — a name, not a word in lower case
# (Latin, Greek or Cyrillic): that is what the label describes, and the number is its own
# ("The identity card project 20241234", "passport renewal ticket …").
_LOWER_CASE: Final = r"a-z\u00df-\u00f6\u00f8-\u00ff\u03ac-\u03ce\u0430-\u045f"
_SAID_GAP: Final = (
    rf"{_SHORT_GAP}(?-i:(?<![^\W\d_])(?![{_LOWER_CASE}])[^\W\d_]+(?![^\W\d_]){_SHORT_GAP})?"
)
# A value as written: pieces holding a digit, joined by one or two separators ("D1234567",
# "3782-822463-10005", "(415) 867-5309", "1 85 05 78 006 084 91", "A123456(3)").
_PIECE: Final = r"[A-Za-z0-9()]*\d[A-Za-z0-9()]*"
_PIECE_SEPARATOR: Final = r"[ \t\-./·]{1,2}"
_VALUE: Final = rf"{_PIECE}(?:{_PIECE_SEPARATOR}{_PIECE}){{0,19}}"  # digit by digit at most
_PIECE_SEPARATOR_RE: Final = re.compile(_PIECE_SEPARATOR)


def _latin(words: str) -> str:
    """Latin words standing alone, no Latin letter on either side ("phones" is no "phone"):
    ``\\b`` sees no edge in "的PAN", between two word characters."""
    return rf"(?<![A-Za-z\u00c0-\u024f])(?:{words})(?![A-Za-z\u00c0-\u024f])"


def _acronym(words: str) -> str:
    """Capitals only: "SIN", "PAN" and "NIE" are words in lower case (sin, pan)."""
    return rf"(?-i:{_latin(words)})"


@dataclass(frozen=True)
class _Family:
    """One identifier read after its labels: what the value may be, and what it is called."""

    kind: str
    labels: str
    accepts: Callable[[str], bool]  # the value without separators, capitals
    value: str = _VALUE
    gap: str = _SAID_GAP
    # The label names the identifier only where the text speaks of what this holds (账号 is a
    # login as often as a bank account: 银行, 支行, 转账… make it one).
    context: re.Pattern[str] | None = None

    @property
    def pattern(self) -> re.Pattern[str]:
        return _family_pattern(self.labels, self.gap, self.value)


@cache
def _family_pattern(labels: str, gap: str, value: str) -> re.Pattern[str]:
    return re.compile(
        rf"(?:{labels}){gap}(?<![A-Za-z0-9])(?P<value>{value})(?![A-Za-z0-9])", re.IGNORECASE
    )


def _digits(*sizes: int) -> Callable[[str], bool]:
    return lambda value: value.isdigit() and len(value) in sizes


def _digits_between(low: int, high: int) -> Callable[[str], bool]:
    return lambda value: value.isdigit() and low <= len(value) <= high


def _is_date(value: str) -> bool:
    """YYYYMMDD: an expiry or issue date written without separators, not a document number."""
    if len(value) != 8 or not value.isdigit():
        return False
    try:
        date(int(value[:4]), int(value[4:6]), int(value[6:]))
    except ValueError:
        return False
    return True


def _document_number(low: int, high: int, most_letters: int) -> Callable[[str], bool]:
    """A passport's, a licence's or an ID card's number: letters and at least five digits
    ("C01X00T47", "CA12345AB", "D1234567"), not a date."""

    def accepts(value: str) -> bool:
        digits = sum(char.isdigit() for char in value)
        letters = len(value) - digits
        return (
            low <= len(value) <= high
            and value.isalnum()
            and digits >= 5
            and letters <= most_letters
            and not _is_date(value)
        )

    return accepts


# UK National Insurance numbers: two letters (not D, F, I, Q, U, V; O not second; some pairs never
# issued), six digits, A–D.
_NINO_RE: Final = r"[A-Z]{2}(?:[ ]?\d{2}){3}[ ]?[A-D]"
_NINO_UNUSED: Final = frozenset({"BG", "GB", "KN", "NK", "NT", "TN", "ZZ"})


def _is_nino(value: str) -> bool:
    if not re.fullmatch(r"[A-Z]{2}\d{6}[A-D]", value):
        return False
    return value[0] not in "DFIQUV" and value[1] not in "DFIOQUV" and value[:2] not in _NINO_UNUSED


# A Russian passport: series (two and two digits), then the number, "номер" or "№" between.
_RU_PASSPORT_RE: Final = r"\d{2}[ ]?\d{2}[\s,]*(?:(?:№|номер|н\.)\s*)?\d{6}"
# A Hong Kong ID: one or two letters, six digits, the check character (often in parentheses).
_HKID_RE: Final = re.compile(r"([A-Z]{1,2})(\d{6})([0-9A])")
_TW_ID_RE: Final = re.compile(r"[A-Z][1289]\d{8}")


def _is_hkid(value: str) -> bool:
    match = _HKID_RE.fullmatch(value)
    if match is None:
        return False
    letters, digits, check = match.groups()
    values = [36] * (2 - len(letters)) + [ord(char) - 55 for char in letters]
    values += [int(char) for char in digits]
    total = sum(v * w for v, w in zip(values, range(9, 1, -1), strict=True))
    expected = (11 - total % 11) % 11
    return check == ("A" if expected == 10 else str(expected))


_ID_CARD: Final = _document_number(6, 18, 4)
_PASSPORT: Final = _document_number(6, 10, 3)


def _is_id_card(value: str) -> bool:
    """A Taiwanese or Hong Kong ID, or any card number with letters and digits."""
    return bool(_TW_ID_RE.fullmatch(value)) or _is_hkid(value) or _ID_CARD(value)


def _is_es_document(value: str) -> bool:
    """A Spanish DNI or NIE with its letter, or an Argentine DNI (seven or eight digits)."""
    return bool(dni.is_valid(value) or nie.is_valid(value)) or _digits(7, 8)(value)


# Phone numbers after a phone's label: a person's line valid where it would be dialled
# (``_is_personal_line``); mainland numbers are read above.
_PHONE_REGIONS: Final = (
    "US", "GB", "JP", "KR", "FR", "DE", "RU", "ES", "IT", "BR", "IN", "VN", "MX", "CA", "AU",
    "NL", "PL", "TR", "SA", "AE", "ID", "TH", "TW", "HK", "SG", "PT", "AR", "UA", "CH", "AT",
    "BE", "SE", "PH", "MY", "EG", "IL", "CO", "CL", "NG", "ZA",
)  # fmt: skip
_MOBILE_TYPES: Final = frozenset(
    {
        phonenumbers.PhoneNumberType.MOBILE,
        phonenumbers.PhoneNumberType.FIXED_LINE_OR_MOBILE,  # the US and Canada do not tell
        phonenumbers.PhoneNumberType.PERSONAL_NUMBER,
    }
)


# A business's numbers: freephone (800), shared-cost (400), premium rates, one number for all
# of a company's offices.
_BUSINESS_TYPES: Final = frozenset(
    {
        phonenumbers.PhoneNumberType.TOLL_FREE,
        phonenumbers.PhoneNumberType.SHARED_COST,
        phonenumbers.PhoneNumberType.PREMIUM_RATE,
        phonenumbers.PhoneNumberType.UAN,
    }
)
# "phone number", "携帯番号", "전화 번호", "номер телефона" is read from its last word.
_PHONE_NUMBER_WORD: Final = (
    r"(?:\s*(?:number|no\b\.?|nummer|num[ée]ro|n[úu]mero|numero|番号|번호|号码?))?"
)


def _is_phone(value: str, regions: tuple[str, ...] = _PHONE_REGIONS) -> bool:
    return any(_is_personal_line(value, region) for region in regions)


def _line_type(value: str, region: str) -> int | None:
    """What ``value`` is in ``region``'s plan (a ``PhoneNumberType``), None when no valid number
    there."""
    if not value.isdigit() or not 7 <= len(value) <= 15:
        return None
    try:
        number = phonenumbers.parse(value, region)
    except phonenumbers.NumberParseException:
        return None
    return phonenumbers.number_type(number) if phonenumbers.is_valid_number(number) else None


def _is_personal_line(value: str, region: str) -> bool:
    """``value`` is a person's line in ``region``: a valid mobile, or a valid landline dialled
    with the region's trunk prefix (0…, Russia's 8…). A business's numbers (freephone, 400 and
    shared-cost lines, premium rates) are none. Without its trunk prefix a landline is not read:
    some plans (Germany's, Austria's) take almost any digits for one, and "400-820-8820" is a
    German landline to them."""
    line = _line_type(value, region)
    if line in _MOBILE_TYPES:
        return True
    if line != phonenumbers.PhoneNumberType.FIXED_LINE:
        return False
    metadata = phonenumbers.PhoneMetadata.metadata_for_region(region)
    trunk = (metadata.national_prefix if metadata is not None else None) or ""
    return bool(trunk) and value.startswith(trunk)


_BANK_CONTEXT_RE: Final = re.compile(
    r"银行|支行|分行|开户|工资|薪资|薪水|转账|转帐|汇款|收款|打款|报销|bank",
    re.IGNORECASE,
)

# In the order they are tried: a label read by two families names the first one's identifier.
_ABROAD: Final = (
    _Family(
        "bank_account",
        r"account\s*(?:no\b\.?|number|num\b|\#)|acct\b\.?(?:\s*(?:no\b\.?|number|\#))?"
        r"|(?:checking|savings|current|chequing|bank|deposit|salary)\s+account"
        r"(?:\s*(?:no\b\.?|number|\#))?"
        r"|kontonummer|konto-?nr\b\.?|(?:giro|spar|bank|gehalts)konto"
        r"|num[ée]ro\s+de\s+compte|n[°º]\s*de\s+compte|compte\s+(?:bancaire|courant)"
        + "|"
        + _acronym("RIB|CLABE|STK")
        + r"|n[úu]mero\s+de\s+(?:la\s+)?cuenta|cuenta\s+(?:bancaria|corriente|de\s+ahorros?)"
        r"|n[°º]\s*de\s+cuenta|n[úu]mero\s+da\s+conta|conta\s+(?:corrente|banc[áa]ria)"
        r"|numero\s+di\s+conto|conto\s+corrente|rekeningnummer|numer\s+(?:konta|rachunku)"
        r"|hesap\s+(?:numaras[ıi]|no)|nomor\s+rekening|no\.?\s*rek(?:ening)?\b"
        r"|s[ốo]\s+t[àa]i\s+kho[ảa]n|t[àa]i\s+kho[ảa]n\s+ng[âa]n\s+h[àa]ng"
        r"|银行账号|银行帐号|银行账户|银行帐户|收款账号|收款帐号|对公账号|开户账号|账户号码|帐户号码"
        r"|口座番号|계좌\s*번호"
        r"|رقم\s+(?:ال)?حساب|الحساب\s+البنكي",
        _digits_between(6, 23),
    ),
    # A Russian account has 20 digits; "счёт" alone is also a bill or a score.
    _Family("bank_account", r"сч[её]т\w*", _digits(20)),
    _Family(
        "bank_account", r"账号|帐号|账户|帐户", _digits_between(8, 23), context=_BANK_CONTEXT_RE
    ),
    _Family(
        "bank_card",
        r"amex|american\s+express|visa\s+card|master\s*card|carte\s+(?:bleue|bancaire|de\s+cr[ée]dit)"
        r"|num[ée]ro\s+de\s+(?:la\s+)?carte|tarjeta(?:\s+de\s+(?:cr[ée]dito|d[ée]bito))?"
        r"|n[úu]mero\s+de\s+(?:la\s+)?tarjeta|cart[ãa]o(?:\s+de\s+cr[ée]dito)?"
        r"|n[úu]mero\s+do\s+cart[ãa]o|kreditkarte(?:nnummer)?|kartennummer|carta\s+di\s+credito"
        r"|numero\s+(?:della\s+)?carta(?!\s+d)|カード番号|クレジットカード|카드\s*번호|신용\s*카드"
        r"|номер\s+карты|карт[аыу]|s[ốo]\s+th[ẻe]|th[ẻe]\s+(?:t[íi]n\s+d[ụu]ng|ng[âa]n\s+h[àa]ng)"
        r"|رقم\s+البطاقة|بطاقة\s+(?:ال)?ائتمان|kartu\s+kredit|nomor\s+kartu",
        _digits_between(13, 19),
    ),
    _Family(
        "us_ssn",
        r"social\s+security(?:\s+(?:number|no\b\.?|\#))?|"
        + _acronym("SSN")
        + r"|(?:my|his|her|their|your)\s+social(?!\s+(?:media|network|life|worker|club|skills?))"
        r"|n[úu]mero\s+de\s+seguro\s+social|社会安全号码?|社保号",
        lambda value: bool(ssn.is_valid(value)),
    ),
    _Family(
        "kr_resident_id",
        r"주민\s*등록\s*번호|주민\s*번호|住民登録番号|resident\s+registration\s+(?:number|no\b)|"
        + _acronym("RRN"),
        _digits(13),
    ),
    # 個人番号 as the simplified view reads it.
    _Family("jp_my_number", r"マイナンバー|个人番号|individual\s+number", _digits(12)),
    _Family(
        "gb_nino",
        r"national\s+insurance(?:\s+(?:number|no\b\.?))?|"
        + _acronym("NI\\s+(?:number|no|No)|NINO"),
        _is_nino,
        value=_NINO_RE,
    ),
    _Family(
        "ca_sin",
        _acronym("SIN") + r"|social\s+insurance\s+(?:number|no\b)"
        r"|num[ée]ro\s+d['’]\s*assurance\s+sociale",
        lambda value: bool(sin.is_valid(value)),
    ),
    _Family("in_aadhaar", r"aadhaa?r|आधार|" + _acronym("UIDAI"), _digits(12)),
    _Family(
        "in_pan",
        _acronym("PAN") + r"|permanent\s+account\s+number|पैन",
        lambda value: bool(pan.is_valid(value)),
    ),
    _Family(
        "es_dni",
        _acronym("DNI|NIE|NIF") + r"|documento\s+nacional\s+de\s+identidad",
        _is_es_document,
    ),
    _Family("br_cpf", _acronym("CPF") + r"|cadastro\s+de\s+pessoas?\s+f[íi]sicas?", _digits(11)),
    _Family(
        "fr_nir",
        r"num[ée]ro\s+de\s+s[ée]cu(?:rit[ée]\s+sociale)?|s[ée]curit[ée]\s+sociale|carte\s+vitale"
        r"|num[ée]ro\s+INSEE|" + _acronym("NIR"),
        lambda value: bool(re.fullmatch(r"[1-478]\d{4}(?:\d\d|2[AB])\d{6}(?:\d\d)?", value)),
    ),
    _Family(
        "de_tax_id",
        r"steuer[-\s]?id(?:entifikationsnummer)?|steuerliche\s+identifikationsnummer"
        r"|identifikationsnummer|" + _acronym("IdNr"),
        _digits(11),
    ),
    _Family("passport", r"паспорт\w*|серия", lambda value: True, value=_RU_PASSPORT_RE),
    _Family(
        "vn_citizen_id",
        _acronym("CCCD|CMND|CMT") + r"|c[ăa]n\s+c[ưu][ớo]c(?:\s+c[ôo]ng\s+d[âa]n)?"
        r"|ch[ứu]ng\s+minh\s+(?:nh[âa]n\s+d[âa]n|th[ưu])",
        _digits(9, 12),
    ),
    _Family(
        "ae_emirates_id",
        r"emirates\s+id|الهوية\s+الإماراتية",
        lambda value: _digits(15)(value) and value.startswith("784"),
    ),
    _Family(
        "id_card",
        r"身分证|统一证号|居留证|신분증"
        r"|hong\s+kong\s+id(?:entity)?(?:\s+card)?|id\s*card|identity\s+card"
        r"|national\s+id(?:entity)?(?:\s+(?:card|number|no\b))?"
        r"|carta\s+d['’]\s*identit[àa]|documento\s+d['’]\s*identit[àa]"
        r"|carte\s+d['’]\s*identit[ée]|num[ée]ro\s+d['’]\s*identit[ée]"
        r"|personalausweis(?:nummer)?|ausweisnummer|ausweis-?nr\b\.?"
        r"|documento\s+de\s+identidad|n[úu]mero\s+de\s+identidad|c[ée]dula"
        r"|carteira\s+de\s+identidade|cart[ãa]o\s+de\s+cidad[ãa]o|identiteitskaart"
        r"|dow[óo]d\s+osobist\w*|kimlik\s+(?:numaras[ıi]|no)|nomor\s+induk\s+kependudukan"
        r"|удостоверени\w+\s+личности|id-?карт\w*|رقم\s+الهوية|بطاقة\s+الهوية|الهوية\s+الوطنية",
        _is_id_card,
    ),
    # 身份证 is mainland China's word for its 18-digit resident ID (``_ID_LABEL_RE``): a number
    # of digits only after it is a project's or a ticket's ("身份证项目 20241234"). Hong Kong and
    # Taiwan write it (身份證) for an ID with letters: A123456789, A123456(3).
    _Family("id_card", r"身份证", lambda value: not value.isdigit() and _is_id_card(value)),
    # Capitals that are also other things' names (RG, NIK, DL, CIE 1931): a number of their own
    # document's shape only.
    _Family("id_card", _acronym("HKID"), _is_hkid),
    _Family(
        "id_card",
        _acronym("CIE"),
        lambda value: bool(re.fullmatch(r"[A-Z]{2}\d{5}[A-Z]{2}", value)),
    ),
    _Family("id_card", _acronym("RG"), lambda value: bool(re.fullmatch(r"\d{8,9}[0-9X]", value))),
    _Family("id_card", _acronym("KTP|NIK"), _digits(16)),
    _Family(
        "travel_permit",
        r"港澳通行证|通行证|回乡证|台胞证|入台证",
        lambda value: bool(re.fullmatch(r"[A-Z]{0,2}\d{7,10}", value)),
    ),
    _Family(
        "passport",
        r"护照|passport|パスポート|旅券|여권|reisepass(?:nummer)?|passnummer|pasaporte"
        r"|passeport|passaporto|passaporte|h[ộo]\s+chi[ếe]u|جواز\s+(?:ال)?سفر|paspor|pasaport"
        r"|paszport|paspoort",
        _PASSPORT,
    ),
    _Family(
        "driver_license",
        r"driver['’]?s?\s+licen[cs]e|driving\s+licen[cs]e|"
        + _acronym(r"DL\s*(?:\#|No|no|number)")
        + r"|f[üu]hrerschein(?:nummer)?|permis\s+de\s+conduire"
        r"|licencia\s+de\s+conduc(?:ir|ci[óo]n)|carn[eé]\s+de\s+conducir"
        r"|carteira\s+de\s+motorista|" + _acronym("CNH") + r"|patente\s+di\s+guida"
        # 運転免許証 as the simplified view reads it.
        r"|驾驶证|驾照|驾驶执照|运転免许(?:证)?(?:番号)?|운전\s*면허(?:증)?(?:\s*번호)?"
        r"|водительск\w+\s+(?:удостоверени\w+|прав\w*)|b[ằa]ng\s+l[áa]i(?:\s+xe)?",
        # Up to ten letters: a British licence starts with five of the surname ("MORGA657054SM9IJ").
        _document_number(5, 18, 10),
    ),
    _Family(
        "phone_number",
        "(?:"
        + _latin(
            r"phone|telephone|tel\.?|mobile|cell(?:\s*phone)?|cellphone|whats\s*app|contact"
            r"|call\s+me\s+(?:at|on)|text\s+me\s+(?:at|on)|portable|t[ée]l[ée]phone|t[ée]l\.?"
            r"|handy(?:nummer)?|telefon\w*|mobil(?:nummer)?|rufnummer|tel[ée]fono|m[óo]vil"
            r"|celular|telefone|telem[óo]vel|cellulare|s[ốo]\s+[đd]i[ệe]n\s+tho[ạa]i"
            r"|[đd]i[ệe]n\s+tho[ạa]i|sđt|telefoon(?:nummer)?|mobiel|kom[óo]rk\w*|ponsel|telepon"
            r"|nomor\s+hp"
        )
        # 携帯電話 as the simplified view reads it.
        + r"|携帯(?:电话)?|ケータイ|휴대\s*폰|핸드폰|휴대\s*전화|전화|연락처"
        r"|телефон\w*|мобильн\w*|сотов\w*|тел\.|هاتف\w*|جوال\w*|موبايل"
        r"|เบอร์(?:โทร)?|โทรศัพท์|फ़ोन|फोन|मोबाइल|手机)" + _PHONE_NUMBER_WORD,
        _is_phone,
        gap=_SHORT_GAP,
    ),
    # A line's word in Chinese (電話 in Japanese as the simplified view reads it): a mainland
    # 400 or 800 number after it is a business's, though India dials 800-820-8820 as a mobile
    # ("免费咨询电话 800-820-8820"). After a mobile's word (手机) it is still India's mobile.
    _Family(
        "phone_number",
        r"(?:电话|联系方式|联络方式)" + _PHONE_NUMBER_WORD,
        lambda value: _line_type(value, "CN") not in _BUSINESS_TYPES and _is_phone(value),
        gap=_SHORT_GAP,
    ),
)


@cache
def _any_label() -> re.Pattern[str]:
    """Every family's labels in one pattern: the text is scanned once, not once a family."""
    # A lookahead finds labels that overlap ("رقم الهوية الإماراتية": an ID card's label and,
    # one word on, the Emirates ID's).
    labels = "|".join(f"(?:{family.labels})" for family in _ABROAD)
    return re.compile(f"(?=({labels}))", re.IGNORECASE)


def _labels_as_written(numbers: str, words: str) -> str:
    """``numbers`` with each label of ``_ABROAD`` as ``words`` (the same text before its
    Chinese numerals became digits, of the same length) writes it: 统一证号, Taiwan's resident
    certificate, is no 统1证号. The number after a label is still read in digits."""
    if numbers == words:
        return numbers
    chars = list(numbers)
    for label in _any_label().finditer(words):
        start, end = label.span(1)
        chars[start:end] = words[start:end]
    return "".join(chars)


def _labelled_abroad(text: str) -> str | None:
    starts = [label.start() for label in _any_label().finditer(text)]
    if not starts:
        return None
    for family in _ABROAD:
        if family.context is not None and not family.context.search(text):
            continue
        for start in starts:
            match = family.pattern.match(text, start)
            if match is None or (
                family.kind == "phone_number"
                and _names_no_persons_line(text, start, match.start("value"))
            ):
                continue
            written = match.group("value")
            if _starts_with_a_date(written):
                continue  # "caduca el 15/04/2031", "the licence test is on 2025-06-12"
            if any(family.accepts(value) for value in _readings(written)):
                return family.kind
    return None


# A date as people write it: 2025-06-12, 15/04/2031, 12.03.2015, 4/15/31.
_DATE_WRITTEN_RE: Final = re.compile(
    r"(?:(?P<year>\d{4})[-/.](?P<a>\d{1,2})[-/.](?P<b>\d{1,2})"
    r"|(?P<c>\d{1,2})[-/.](?P<d>\d{1,2})[-/.](?:\d{4}|\d{2}))(?![\dA-Za-z])"
)


def _starts_with_a_date(written: str) -> bool:
    """A day and a month, in either order: "20-00-00" (a sort code) is no date."""
    match = _DATE_WRITTEN_RE.match(written)
    if match is None:
        return False
    parts = ("a", "b") if match.group("year") else ("c", "d")
    month, day = sorted(int(match.group(part)) for part in parts)
    return 1 <= month <= 12 and 1 <= day <= 31


def _readings(written: str) -> list[str]:
    """The value without separators, and each shorter reading that stops at a separator
    ("561234567 2031" may be a passport number and a year)."""
    pieces = _PIECE_SEPARATOR_RE.split(written)
    readings = []
    for end in range(len(pieces), 0, -1):
        joined = "".join(pieces[:end]).replace("(", "").replace(")", "")
        readings.append(joined.upper())
    return readings


# --- Without a label -----------------------------------------------------------------------------

# An IBAN: country, check digits, then the account in groups of four or run together. Its
# checksum (mod 97) and its country's length and format (``stdnum.iban``) are what make it one.
_IBAN_RE: Final = re.compile(
    r"(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?:[ \-]?[A-Z0-9]{4}){2,7}(?:[ \-]?[A-Z0-9]{1,4})?"
    r"(?![A-Za-z0-9])",
    re.IGNORECASE,
)
_SHORTEST_IBAN: Final = 15


def _has_iban(text: str) -> bool:
    for match in _IBAN_RE.finditer(text):
        compact = re.sub(r"[ \-]", "", match.group()).upper()
        # A word after the number may have been read as its last group ("… 7034 from").
        for end in range(len(compact), _SHORTEST_IBAN - 1, -1):
            if iban.is_valid(compact[:end]):
                return True
    return False


# Shapes that are an identifier by themselves, each with the check that keeps look-alikes out.
_KR_RRN_RE: Final = re.compile(r"(?<![\d\-])\d{6}[ ]?-[ ]?[1-8]\d{6}(?![\d\-])")
_CPF_RE: Final = re.compile(r"(?<![\d.\-])\d{3}\.\d{3}\.\d{3}-\d{2}(?![\d.\-])")
_EMIRATES_ID_RE: Final = re.compile(r"(?<![\d\-])784-(\d{4})-\d{7}-\d(?![\d\-])")
_HKID_WRITTEN_RE: Final = re.compile(r"(?<![A-Za-z0-9])([A-Z]{1,2}\d{6})\(([0-9A])\)")
_NIR_WRITTEN_RE: Final = re.compile(
    r"(?<!\d)(?<!\d )[1-478] \d{2} \d{2} (?:\d{2}|2[AB]) \d{3} \d{3} \d{2}(?!\d)"
)
_CODICE_FISCALE_RE: Final = re.compile(
    r"(?<![A-Za-z0-9])[A-Z]{6}\d{2}[A-Z]\d{2}[A-Z]\d{3}[A-Z](?![A-Za-z0-9])", re.IGNORECASE
)
# Mobiles as dialled at home: Japanese 070/080/090-xxxx-xxxx, Korean 010-xxxx-xxxx, French
# 06/07 in pairs. Mainland numbers are ``_is_mobile``'s; others need their label.
_NATIONAL_MOBILES: Final = (
    (re.compile(r"(?<![\d\-.])0[789]0-\d{4}-\d{4}(?![\d\-]|\.\d)"), "JP"),
    (re.compile(r"(?<![\d\-.])01[016789]-\d{3,4}-\d{4}(?![\d\-]|\.\d)"), "KR"),
    (re.compile(r"(?<![\d\-.])(?<!\d )0[67](?:[ .]\d{2}){4}(?![\d\-]|[ .]\d)"), "FR"),
)


def _bare_abroad(text: str) -> str | None:
    if any(rrn.is_valid(m.group(), allow_future=False) for m in _KR_RRN_RE.finditer(text)):
        return "kr_resident_id"
    if any(cpf.is_valid(match.group()) for match in _CPF_RE.finditer(text)):
        return "br_cpf"
    this_year = datetime.now(tz=UTC).year
    for match in _EMIRATES_ID_RE.finditer(text):
        if _OLDEST_BIRTH_YEAR <= int(match.group(1)) <= this_year:
            return "ae_emirates_id"
    if any(_is_hkid("".join(match.groups())) for match in _HKID_WRITTEN_RE.finditer(text)):
        return "id_card"
    if any(nir.is_valid(match.group()) for match in _NIR_WRITTEN_RE.finditer(text)):
        return "fr_nir"
    for match in _CODICE_FISCALE_RE.finditer(text):
        if codicefiscale.is_valid(match.group().upper()):
            return "it_tax_code"
    for pattern, region in _NATIONAL_MOBILES:
        if any(_is_phone(re.sub(r"\D", "", m.group()), (region,)) for m in pattern.finditer(text)):
            return "phone_number"
    return None
