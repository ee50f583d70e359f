"""Values: what a secret looks like once its words are gone.

Two questions, both cheap and without the model:

* ``self_evident_secret`` — a value that is a secret by its own structure, whatever is said
  around it: a BIP-39 seed phrase (the ``mnemonic`` package's word lists, every language it
  ships), a Bitcoin private key in WIF (base58check with the private-key version byte), an AWS
  secret access key standing alone, a US social security number (``python-stdnum``) beside its
  name or in its dashed form, a phone number written with its country code (``phonenumbers``).
* ``value_candidates`` — the tokens of a text that are not ordinary language: mixing letters
  with digits or symbols, a run of digits, a long high-entropy string. Only a text holding one
  is worth asking the model what it talks about (``meaning``); most texts hold none. What a key
  or a wallet shows the world is no candidate: a Bitcoin or Ethereum address, an SSH key's
  fingerprint, an OpenPGP key's ID or fingerprint (each by its checksum or its exact shape).
"""

from __future__ import annotations

import hashlib
import math
import re
from collections import Counter
from collections.abc import Callable
from functools import cache
from typing import Final

import phonenumbers
from mnemonic import Mnemonic
from stdnum.us import ssn

__all__ = ["self_evident_secret", "value_candidates"]

# --- BIP-39 seed phrases ------------------------------------------------------------------------

# A phrase is 12–24 words; wallets show them spaced, numbered ("1. abandon 2. ability …") or
# comma-separated. Twelve list words in a row do not happen in prose: the lists hold no "the",
# "a", "is", "of", "to".
_SEED_MIN_WORDS: Final = 12
_LATIN_WORD_RE: Final = re.compile(r"[^\W\d_]+")
# Chinese and Japanese lists are single characters or kana words, common in any sentence: only
# a run written the way wallets show them (separated by spaces) counts.
_SPACED_TOKEN_RE: Final = re.compile(r"\S+")


@cache
def _wordlists() -> tuple[tuple[str, frozenset[str], bool], ...]:
    lists = []
    for language in sorted(Mnemonic.list_languages()):
        words = frozenset(Mnemonic(language).wordlist)
        spaced_only = language.startswith("chinese") or language == "japanese"
        lists.append((language, words, spaced_only))
    return tuple(lists)


@cache
def _any_list_word() -> tuple[frozenset[str], frozenset[str]]:
    """Every word of every list read as Latin words, and of every list read spaced: one pass
    over a text tells whether any list could hold a long enough run."""
    latin = frozenset().union(*(words for _, words, spaced in _wordlists() if not spaced))
    spaced = frozenset().union(*(words for _, words, spaced in _wordlists() if spaced))
    return latin, spaced | latin


def _longest_run(tokens: list[str], words: frozenset[str]) -> int:
    best = run = 0
    for token in tokens:
        run = run + 1 if token in words else 0
        best = max(best, run)
    return best


def _is_seed_phrase(text: str) -> bool:
    if len(text) < 2 * _SEED_MIN_WORDS - 1:  # twelve characters and the spaces between
        return False
    lowered = text.lower()
    latin = _LATIN_WORD_RE.findall(lowered)
    # Numbering and punctuation between the words are dropped: "1.abandon 2.ability".
    spaced = [token.strip(".,;:、，。·-") for token in _SPACED_TOKEN_RE.findall(lowered)]
    spaced = [re.sub(r"^\d+[.)、:]?", "", token) for token in spaced]
    spaced = [token for token in spaced if token]
    any_latin, any_spaced = _any_list_word()
    if (
        _longest_run(latin, any_latin) < _SEED_MIN_WORDS
        and _longest_run(spaced, any_spaced) < _SEED_MIN_WORDS
    ):
        return False
    for _language, words, spaced_only in _wordlists():
        tokens = spaced if spaced_only else latin
        if len(tokens) >= _SEED_MIN_WORDS and _longest_run(tokens, words) >= _SEED_MIN_WORDS:
            return True
    return False


# Where a text names a seed phrase, the phrase may be written as no wallet shows it: Chinese
# characters run together or glued to the label ("助记词：题曹觉…", "助记词是题 曹 …"), or a
# list word mistyped. Right after the label (and "是", "为", a colon): Han characters that are
# all list words and, whole, a valid phrase (its checksum holds: ordinary text after 助记词 is
# not one), or twelve spaced words; or, anywhere after it, twelve Latin words of which all but
# two are words of one list.
_SEED_LABEL_RE: Final = re.compile(
    r"助记词|助記詞|seed\s+(?:phrase|words)|wallet\s+seed|(?:recovery|backup|secret)\s+(?:phrase|words)"
    r"|mnemonic|wallet\s+words|シード|복구\s*구문",
    re.IGNORECASE,
)
_ALL_HAN_RE: Final = re.compile(r"^[\u3400-\u9fff]+$")
_SEED_LEAD_RE: Final = re.compile(r"^\s*(?:是|为|為|:|：|=|is)?\s*", re.IGNORECASE)
_SEED_END_RE: Final = re.compile(r"[，,。；;！!？?\n]")
_PHRASE_LENGTHS: Final = (24, 21, 18, 15, 12)
_MISTYPED_WORDS: Final = 2


@cache
def _chinese_mnemonics() -> tuple[tuple[Mnemonic, frozenset[str]], ...]:
    """The Chinese lists, each with its words (the checksum needs the ``Mnemonic``)."""
    return tuple(
        (Mnemonic(language), words)
        for language, words, _ in _wordlists()
        if language.startswith("chinese")
    )


def _labelled_seed_phrase(text: str) -> bool:
    label = _SEED_LABEL_RE.search(text)
    if label is None:
        return False
    after = text[label.end() :]
    spoken = _SEED_LEAD_RE.sub("", after, count=1)
    spaced = _SPACED_TOKEN_RE.findall(_SEED_END_RE.split(spoken)[0])
    if len(spaced) >= _SEED_MIN_WORDS and all(_ALL_HAN_RE.match(token) for token in spaced):
        return True
    for mnemonic, words in _chinese_mnemonics():
        run = ""
        for char in spoken:
            if char in words:
                run += char
            elif not char.isspace():
                break
        if len(run) in _PHRASE_LENGTHS and mnemonic.check(" ".join(run)):
            return True
    latin = _LATIN_WORD_RE.findall(after.lower())
    for _language, words, spaced_only in _wordlists():
        if spaced_only:
            continue
        for start in range(max(0, len(latin) - _SEED_MIN_WORDS + 1)):
            window = latin[start : start + _SEED_MIN_WORDS]
            if sum(word not in words for word in window) <= _MISTYPED_WORDS:
                return True
    return False


# --- Bitcoin WIF private keys --------------------------------------------------------------------

_B58: Final = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
_B58_INDEX: Final = {char: index for index, char in enumerate(_B58)}
# Mainnet 5…/K…/L…, testnet 9…/c…: 51 or 52 characters.
_WIF_RE: Final = re.compile(
    r"(?<![1-9A-HJ-NP-Za-km-z])[59KLc][1-9A-HJ-NP-Za-km-z]{50,51}(?![1-9A-HJ-NP-Za-km-z])"
)


def _base58check_payload(token: str) -> bytes | None:
    number = 0
    for char in token:
        number = number * 58 + _B58_INDEX[char]
    body = number.to_bytes((number.bit_length() + 7) // 8, "big")
    raw = b"\0" * (len(token) - len(token.lstrip("1"))) + body
    payload, checksum = raw[:-4], raw[-4:]
    if hashlib.sha256(hashlib.sha256(payload).digest()).digest()[:4] != checksum:
        return None
    return payload


def _is_wif(token: str) -> bool:
    payload = _base58check_payload(token)
    if payload is None or payload[:1] not in (b"\x80", b"\xef"):
        return False
    return len(payload) == 33 or (len(payload) == 34 and payload[-1:] == b"\x01")


# --- AWS secret access keys ----------------------------------------------------------------------

# 40 characters of base64's alphabet, standing alone. Commit hashes are 40 hex digits (one case,
# no "/"), so a key must mix both cases and digits and reach base64 entropy.
_AWS_SECRET_RE: Final = re.compile(r"(?<![A-Za-z0-9/+=])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])")
_AWS_MIN_ENTROPY: Final = 4.3


def _entropy(value: str) -> float:
    counts = Counter(value)
    return -sum(n / len(value) * math.log2(n / len(value)) for n in counts.values())


def _is_aws_secret(token: str) -> bool:
    has = (
        any(c.islower() for c in token)
        and any(c.isupper() for c in token)
        and any(c.isdigit() for c in token)
    )
    return has and _entropy(token) >= _AWS_MIN_ENTROPY


# --- US social security numbers ------------------------------------------------------------------

_SSN_DASHED_RE: Final = re.compile(r"(?<![\d-])\d{3}-\d{2}-\d{4}(?![\d-])")
_SSN_LABELLED_RE: Final = re.compile(
    r"(?:\bssn|social\s+security(?:\s+(?:number|no\.?|#))?|社会安全号|社保号)"
    r"\s*(?:is|was|:|#|no\.?|=|是|为)?\s*(?P<number>\d{3}[\s.\-]?\d{2}[\s.\-]?\d{4})(?!\d)",
    re.IGNORECASE,
)


def _is_ssn(number: str) -> bool:
    return bool(ssn.is_valid(re.sub(r"[\s.]", "-", number)))


# --- phone numbers in international form ---------------------------------------------------------


# ``identifiers`` reads Chinese mobile numbers by hand. A number written with its country code
# ("+44 20 7946 0958") is a phone number in any country: phonenumbers' metadata knows which
# are valid. Only the "+" form is read — without it, region-guessed matches flag contract
# numbers and SKUs (7 of 454 benign sentences when read as Chinese numbers).
def _has_international_phone(text: str) -> bool:
    if "+" not in text:
        return False
    matcher = phonenumbers.PhoneNumberMatcher(text, None, leniency=phonenumbers.Leniency.VALID)
    return any(True for _ in matcher)


def self_evident_secret(text: str) -> tuple[str, str] | None:
    """``(reason, kind)`` for a value that is a secret by its structure alone, else None."""
    if _is_seed_phrase(text) or _labelled_seed_phrase(text):
        return "credential", "seed_phrase"
    if any(_is_wif(match.group()) for match in _WIF_RE.finditer(text)):
        return "credential", "bitcoin_private_key"
    if any(_is_aws_secret(match.group()) for match in _AWS_SECRET_RE.finditer(text)):
        return "credential", "aws_secret_access_key"
    for match in _SSN_LABELLED_RE.finditer(text):
        if _is_ssn(match.group("number")):
            return "sensitive_identifier", "us_ssn"
    if any(_is_ssn(match.group()) for match in _SSN_DASHED_RE.finditer(text)):
        return "sensitive_identifier", "us_ssn"
    if _has_international_phone(text):
        return "sensitive_identifier", "phone_number"
    return None


# --- public identifiers of keys and wallets -------------------------------------------------------

# Where donations go and which key signed a release are worth remembering and are public by
# design; the head read "User's Bitcoin receiving address is bc1q…" as a secret. Each is cut out
# of the text before its tokens are judged, and only where its checksum or exact shape holds:
# a private key (a WIF, 64 hex digits) keeps its own checks.
_BASE58_ADDRESS_RE: Final = re.compile(
    r"(?<![1-9A-HJ-NP-Za-km-z])[13][1-9A-HJ-NP-Za-km-z]{25,34}(?![1-9A-HJ-NP-Za-km-z])"
)
_BECH32_ADDRESS_RE: Final = re.compile(
    r"(?<![0-9A-Za-z])(?:bc|tb)1[02-9ac-hj-np-z]{8,87}(?![0-9A-Za-z])", re.IGNORECASE
)
_BECH32_CHARSET: Final = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
_BECH32_GENERATOR: Final = (0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3)
_BECH32_CONSTANTS: Final = (1, 0x2BC830A3)  # bech32 (segwit v0), bech32m (taproot)
_PUBLIC_SHAPES_RE: Final = re.compile(
    r"(?<![0-9A-Za-z])0x[0-9a-fA-F]{40}(?![0-9A-Za-z])"  # an Ethereum address (a key has 64)
    r"|SHA256:[A-Za-z0-9+/]{43}=?"  # an SSH key's fingerprint, as ssh-keygen -l prints it
    r"|(?<![0-9A-Za-z:])(?:MD5:)?(?:[0-9a-fA-F]{2}:){15}[0-9a-fA-F]{2}(?![0-9A-Za-z:])"
)
# An OpenPGP key's ID (0x and 8 or 16 hex digits) or fingerprint (ten groups of four), where the
# text says it is one: a bare 0x… is as often a value.
_PGP_WORD_RE: Final = re.compile(r"key\s*id|fingerprint|gpg|pgp", re.IGNORECASE)
_PGP_ID_RE: Final = re.compile(
    r"(?<![0-9A-Za-z])(?:0x[0-9a-fA-F]{16}|0x[0-9a-fA-F]{8}|(?:[0-9A-F]{4}\s{1,2}){9}[0-9A-F]{4})"
    r"(?![0-9A-Za-z])"
)


def _is_bech32_address(token: str) -> bool:
    if token != token.lower() and token != token.upper():
        return False  # bech32 is one case throughout
    hrp, _, data = token.lower().rpartition("1")
    values = [ord(char) >> 5 for char in hrp] + [0] + [ord(char) & 31 for char in hrp]
    values += [_BECH32_CHARSET.index(char) for char in data]
    checksum = 1
    for value in values:
        top = checksum >> 25
        checksum = (checksum & 0x1FFFFFF) << 5 ^ value
        for bit, generator in enumerate(_BECH32_GENERATOR):
            if (top >> bit) & 1:
                checksum ^= generator
    return checksum in _BECH32_CONSTANTS


def _is_base58_address(token: str) -> bool:
    """A pay-to-public-key-hash (1…) or pay-to-script-hash (3…) address."""
    payload = _base58check_payload(token)
    return payload is not None and len(payload) == 21 and payload[:1] in (b"\x00", b"\x05")


def _without_public_ids(text: str) -> str:
    """``text`` with the public identifiers of keys and wallets blanked out."""

    def blank(check: Callable[[str], bool]) -> Callable[[re.Match[str]], str]:
        return lambda match: " " if check(match.group()) else match.group()

    text = _BECH32_ADDRESS_RE.sub(blank(_is_bech32_address), text)
    text = _BASE58_ADDRESS_RE.sub(blank(_is_base58_address), text)
    text = _PUBLIC_SHAPES_RE.sub(" ", text)
    if _PGP_WORD_RE.search(text):
        text = _PGP_ID_RE.sub(" ", text)
    return text


# --- values that are not ordinary language -------------------------------------------------------

# Tokens are split at "=" and ":" so an assignment's name and value are judged apart
# ("max_tokens=4096" is a name and a number).
_TOKEN_RE: Final = re.compile(r"[!-9;<>-~]+")
_DIGIT_RUN_RE: Final = re.compile(r"\d{4,}")
# "_", "-" and "." join the words of names (snake_case, kebab-case, file.names): not symbols.
_SYMBOLS: Final = frozenset("!#$%&*+/;<>?@^|~")
# What a version, a date, a time, a price, a size looks like: ordinary, even with digits.
_ORDINARY_RE: Final = re.compile(
    r"v?\d+(?:[.,:/\-]\d+)*(?:%|[a-z]{1,3})?"  # 3.11.9, 2024-12-03, 14:30, 5kg, 10%
    r"|[A-Za-z]{1,3}\d{1,3}"  # A4, H100, G7
    r"|\d{1,3}[A-Za-z]{1,3}",  # 4K, 5G, 3D
    re.IGNORECASE,
)
_MIN_HIGH_ENTROPY_LENGTH: Final = 16
_MIN_CANDIDATE_ENTROPY: Final = 3.5


def value_candidates(text: str) -> list[str]:
    """The tokens of ``text`` that are not ordinary language (cheap; no model)."""
    found: list[str] = []
    for match in _TOKEN_RE.finditer(_without_public_ids(text)):
        token = match.group().strip(".,;:!?\"'()[]{}")
        if len(token) < 4:
            continue
        if _ORDINARY_RE.fullmatch(token) and not _DIGIT_RUN_RE.fullmatch(token):
            continue
        letters = any(c.isalpha() for c in token)
        digits = any(c.isdigit() for c in token)
        symbols = any(c in _SYMBOLS for c in token)
        mixed = bool(_DIGIT_RUN_RE.search(token)) or (letters and (digits or symbols))
        random = (
            len(token) >= _MIN_HIGH_ENTROPY_LENGTH and _entropy(token) >= _MIN_CANDIDATE_ENTROPY
        )
        if mixed or random:
            found.append(token)
    return found
