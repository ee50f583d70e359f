"""Deterministic admission layer — the hard safety gate before any LLM or embedding cost.

Seed 000 §4.1 (前置准入层) and seed 004 (what must never be remembered):

* snapshot sources (``pre_compact``, ``session_end``) and ``session_state`` are refused;
* a batch holding a credential or a personal identifier is refused whole, judged on the raw
  text, so a key hidden inside a code block still refuses the batch;
* stack traces, logs, shell commands, code, benchmark echo and injected session summaries are
  dropped line by line; absolute paths and URLs are cut out of the sentences that remain;
* ``task_completed`` must keep a meaningful user *and* assistant message;
* Chinese curly quotes become ASCII double quotes.

This layer judges safety only. Whether something is worth remembering ("这次", "长期",
"偏好"…) is Mem0's call, never a keyword rule here.

Everything is pure and deterministic: no Django, no database, no network, no logging. A refusal
is a value (``AdmissionResult.reason``), never an exception, and no refusal ever carries the
secret or identifier it found.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Final

from detect_secrets.filters.heuristic import is_templated_secret
from detect_secrets.plugins.aws import AWSKeyDetector
from detect_secrets.plugins.azure_storage_key import AzureStorageKeyDetector
from detect_secrets.plugins.base import BasePlugin
from detect_secrets.plugins.basic_auth import BasicAuthDetector
from detect_secrets.plugins.cloudant import CloudantDetector
from detect_secrets.plugins.discord import DiscordBotTokenDetector
from detect_secrets.plugins.github_token import GitHubTokenDetector
from detect_secrets.plugins.gitlab_token import GitLabTokenDetector
from detect_secrets.plugins.high_entropy_strings import Base64HighEntropyString
from detect_secrets.plugins.ibm_cloud_iam import IbmCloudIamDetector
from detect_secrets.plugins.ibm_cos_hmac import IbmCosHmacDetector
from detect_secrets.plugins.jwt import JwtTokenDetector
from detect_secrets.plugins.keyword import KeywordDetector
from detect_secrets.plugins.mailchimp import MailchimpDetector
from detect_secrets.plugins.npm import NpmDetector
from detect_secrets.plugins.openai import OpenAIDetector
from detect_secrets.plugins.private_key import PrivateKeyDetector
from detect_secrets.plugins.pypi_token import PypiTokenDetector
from detect_secrets.plugins.sendgrid import SendGridDetector
from detect_secrets.plugins.slack import SlackDetector
from detect_secrets.plugins.softlayer import SoftlayerDetector
from detect_secrets.plugins.square_oauth import SquareOAuthDetector
from detect_secrets.plugins.stripe import StripeDetector
from detect_secrets.plugins.telegram_token import TelegramBotTokenDetector
from detect_secrets.plugins.twilio import TwilioKeyDetector

from memories.text import normalize_quotes

__all__ = [
    "REJECTION_REASONS",
    "AdmissionResult",
    "Message",
    "admit",
    "admit_text",
    "clean_text",
    "find_credential",
    "find_sensitive_identifier",
    "normalize_quotes",
]


@dataclass(frozen=True)
class Message:
    role: str  # "user" | "assistant" | "system" | …
    content: str


@dataclass(frozen=True)
class AdmissionResult:
    admitted: bool
    messages: tuple[Message, ...]  # cleaned messages; empty when refused
    reason: str | None  # None when admitted; else one of REJECTION_REASONS
    detail: str = ""  # short explanation; never contains the secret or identifier itself


REJECTION_REASONS: Final = (
    "snapshot_source",
    "session_state",
    "credential",
    "sensitive_identifier",
    "missing_role",
    "empty_after_cleaning",
)

# seed 000 §4.1: 会话临时快照 and session_state never reach long-term memory.
_SNAPSHOT_SOURCES: Final = frozenset({"pre_compact", "session_end"})
_SESSION_STATE_SOURCE: Final = "session_state"
_TASK_COMPLETED_SOURCE: Final = "task_completed"

# --------------------------------------------------------------------------------------------
# Public entry points
# --------------------------------------------------------------------------------------------


def admit(*, source: str, messages: Sequence[Message]) -> AdmissionResult:
    """Run the deterministic gate over one candidate batch."""
    source_key = _normalize_source(source)
    if source_key in _SNAPSHOT_SOURCES:
        return _refuse("snapshot_source", f"source {source_key!r} is a transient session snapshot")
    if source_key == _SESSION_STATE_SOURCE:
        return _refuse("session_state", "session state is never stored as long-term memory")

    # Rule 7: judge the raw text, before cleaning can hide anything.
    for index, message in enumerate(messages):
        kind = find_credential(message.content)
        if kind is not None:
            return _refuse(
                "credential",
                f"message {index} ({_role_label(message.role)}) contains a credential ({kind})",
            )
    for index, message in enumerate(messages):
        kind = find_sensitive_identifier(message.content)
        if kind is not None:
            return _refuse(
                "sensitive_identifier",
                f"message {index} ({_role_label(message.role)}) contains a personal "
                f"identifier ({kind})",
            )

    cleaned = tuple(
        Message(role=message.role, content=content)
        for message in messages
        if _is_meaningful(content := clean_text(normalize_quotes(message.content)))
    )
    if not cleaned:
        return _refuse("empty_after_cleaning", "nothing meaningful is left after removing noise")

    if source_key == _TASK_COMPLETED_SOURCE:
        roles = {_normalize_role(message.role) for message in cleaned}
        missing = [role for role in ("user", "assistant") if role not in roles]
        if missing:
            return _refuse(
                "missing_role",
                "task_completed needs a meaningful user and assistant message; missing: "
                + ", ".join(missing),
            )

    return AdmissionResult(admitted=True, messages=cleaned, reason=None)


def admit_text(*, source: str, text: str) -> AdmissionResult:
    """Gate one explicit fact (manage add/update): same checks and cleaning, role ``user``."""
    return admit(source=source, messages=(Message(role="user", content=text),))


def _refuse(reason: str, detail: str) -> AdmissionResult:
    return AdmissionResult(admitted=False, messages=(), reason=reason, detail=detail)


def _normalize_source(source: str) -> str:
    return source.strip().lower().replace("-", "_")


def _normalize_role(role: str) -> str:
    return role.strip().lower()


def _role_label(role: str) -> str:
    # The role is caller-supplied text; keep the detail short and free of message content.
    label = _normalize_role(role)
    return label if re.fullmatch(r"[a-z_]{1,20}", label) else "unknown role"


def _is_meaningful(text: str) -> bool:
    """Meaningful = at least two letters or Han characters (seed 000 §4.1, task_completed)."""
    count = 0
    for char in text:
        if char.isalpha():
            count += 1
            if count >= 2:
                return True
    return False


# --------------------------------------------------------------------------------------------
# Quotes
# --------------------------------------------------------------------------------------------

# --------------------------------------------------------------------------------------------
# Credentials
# --------------------------------------------------------------------------------------------

_HAN: Final = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_HAN_RE: Final = re.compile(f"[{_HAN}]")

# detect-secrets' own detectors, used through their pure ``analyze_string`` (no global settings,
# no verification requests, thread-safe). Left out on purpose:
# * the high-entropy plugins: on free text they flag commit hashes, UUIDs and build ids; their
#   entropy measure is used below only for values that follow a secret keyword;
# * IPPublicDetector: a public IP address is not a credential;
# * ArtifactoryDetector: its ``AP[0-9A-F]…`` password shape matches CamelCase words.
_DETECT_SECRETS_PLUGINS: Final[tuple[tuple[BasePlugin, str], ...]] = (
    (PrivateKeyDetector(), "private_key"),
    (OpenAIDetector(), "openai_api_key"),
    (GitHubTokenDetector(), "github_token"),
    (GitLabTokenDetector(), "gitlab_token"),
    (AWSKeyDetector(), "aws_access_key"),
    (SlackDetector(), "slack_token"),
    (StripeDetector(), "stripe_secret_key"),
    (JwtTokenDetector(), "jwt"),
    (BasicAuthDetector(), "connection_string_password"),
    (AzureStorageKeyDetector(), "azure_storage_key"),
    (CloudantDetector(), "cloudant_credential"),
    (DiscordBotTokenDetector(), "discord_bot_token"),
    (IbmCloudIamDetector(), "ibm_cloud_iam_key"),
    (IbmCosHmacDetector(), "ibm_cos_hmac_key"),
    (MailchimpDetector(), "mailchimp_api_key"),
    (NpmDetector(), "npm_token"),
    (PypiTokenDetector(), "pypi_token"),
    (SendGridDetector(), "sendgrid_api_key"),
    (SoftlayerDetector(), "softlayer_credential"),
    (SquareOAuthDetector(), "square_oauth_secret"),
    (TelegramBotTokenDetector(), "telegram_bot_token"),
    (TwilioKeyDetector(), "twilio_key"),
    # Quotes-required keyword assignments: password = "…", "secret": "…".
    (KeywordDetector(), "secret_keyword_assignment"),
)

# Vendor shapes detect-secrets 1.5.0 does not know, or knows only in an older format.
_VENDOR_PATTERNS: Final[tuple[tuple[re.Pattern[str], str], ...]] = (
    (re.compile(r"-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----"), "private_key"),
    (
        re.compile(r"(?<![A-Za-z0-9])sk-ant-(?:[a-z]+\d{2}-)?[A-Za-z0-9_\-]{20,}"),
        "anthropic_api_key",
    ),
    (
        re.compile(r"(?<![A-Za-z0-9])sk-(?:proj|svcacct|admin|None)-[A-Za-z0-9_\-]{20,}"),
        "openai_api_key",
    ),
    # Legacy OpenAI keys and the many OpenAI-compatible vendors (DeepSeek, Moonshot…) that
    # share the bare ``sk-<alnum>`` shape; the digit check below keeps "sk-learn"-style words out.
    (
        re.compile(r"(?<![A-Za-z0-9_\-])sk-(?=[A-Za-z]*\d)[A-Za-z0-9]{20,}(?![A-Za-z0-9])"),
        "openai_api_key",
    ),
    (re.compile(r"github_pat_[A-Za-z0-9_]{22,}"), "github_token"),
    (re.compile(r"(?<![A-Za-z0-9])gh[pousr]_[A-Za-z0-9]{30,}"), "github_token"),
    (re.compile(r"(?<![A-Za-z0-9])glpat-[A-Za-z0-9_\-]{20,}"), "gitlab_token"),
    (
        re.compile(r"(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}(?![0-9A-Z])"),
        "aws_access_key",
    ),
    (
        re.compile(
            r"aws_?secret_?access_?key[\"']?\s*(?:=|:|=>)\s*[\"']?[A-Za-z0-9/+=]{40}",
            re.IGNORECASE,
        ),
        "aws_secret_access_key",
    ),
    (re.compile(r"AIza[0-9A-Za-z\-_]{35}"), "google_api_key"),
    (re.compile(r"(?<![A-Za-z0-9])xox[baprs]-[A-Za-z0-9\-]{10,}"), "slack_token"),
    (re.compile(r"(?<![A-Za-z0-9])(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}"), "stripe_secret_key"),
    (
        re.compile(r"eyJ[A-Za-z0-9_\-]{8,}={0,2}\.eyJ[A-Za-z0-9_\-]{8,}={0,2}\.[A-Za-z0-9_\-]{8,}"),
        "jwt",
    ),
)

# "Authorization: Bearer <token>" and bare "Bearer <token>".
_BEARER_RE: Final = re.compile(r"\bbearer\s+(?P<value>[A-Za-z0-9\-._~+/]{16,}=*)", re.IGNORECASE)
_AUTH_HEADER_RE: Final = re.compile(
    r"\bauthorization\s*[:=]\s*(?:basic|token|bot|digest)\s+(?P<value>[A-Za-z0-9+/=._\-]{8,})",
    re.IGNORECASE,
)

# scheme://[user]:password@host — covers ``redis://:pass@`` which BasicAuthDetector misses.
_CONNECTION_STRING_RE: Final = re.compile(
    r"(?<![A-Za-z0-9])[A-Za-z][A-Za-z0-9+.\-]{0,30}://[^\s:/@]{0,100}:(?P<value>[^\s@/]{1,200})@[^\s@]"
)

# key=value / key: value / "key": "value" assignments.
# Key prefixes are bounded ({0,40}) so a long run of word characters cannot make the scan
# quadratic.
_PASSWORD_KEY: Final = (
    r"(?:[A-Za-z0-9_\-]{0,40}(?:password|passwd|passphrase|passcode)"
    r"|(?<![A-Za-z0-9])(?:[A-Za-z0-9_\-]{0,40}[_\-])?(?:pwd|pass))"
)
_SECRET_KEY: Final = (
    r"(?<![A-Za-z0-9])(?:[A-Za-z0-9_\-]{0,40}[_\-])?"
    r"(?:secret|token|api[_\-]?key|apikey|access[_\-]?key|secret[_\-]?key|private[_\-]?key"
    r"|auth[_\-]?key|client[_\-]?secret|credentials?)"
)
_ASSIGN: Final = r"[\"']?\s*(?:=>|:=|=|:|\uff1a)\s*"
# Bare values are spelled as a positive ASCII class: a negated class with a non-ASCII range
# misbehaves under IGNORECASE ("s" case-folds to "ſ", U+017F).
_VALUE: Final = (
    r"(?:\"(?P<dq>[^\"\n]{1,200})\"|'(?P<sq>[^'\n]{1,200})'"
    r"|(?P<bare>[!#$%&(*+\-./0-9:=?@A-Z\[\\^_a-z{|~]{1,200}))"
)
_PASSWORD_ASSIGNMENT_RE: Final = re.compile(
    rf"{_PASSWORD_KEY}s?(?![A-Za-z0-9]){_ASSIGN}{_VALUE}", re.IGNORECASE
)
_SECRET_ASSIGNMENT_RE: Final = re.compile(
    rf"{_SECRET_KEY}s?(?![A-Za-z0-9]){_ASSIGN}{_VALUE}", re.IGNORECASE
)
# "my password is hunter2" — only values with a digit or symbol, so "is required" passes.
_PASSWORD_IS_RE: Final = re.compile(
    r"\b(?:password|passphrase|passcode)\s+(?:is|was)\s*:?\s*[\"']?"
    r"(?P<bare>(?=[A-Za-z]*[0-9!#$%&*+\-./:<=>?@^_~])[!#-&(-~]{4,})",
    re.IGNORECASE,
)

# Chinese statements: 密码是xxx / 密码：xxx / 口令为xxx / 密钥是xxx (NFKC turns ： into :).
_CN_VERB: Final = r"\s*(?:就是|改成|改为|设为|设置为|换成|是|为|:|=)\s*"
_CN_VALUE: Final = r"(?:\"(?P<dq>[^\"\n]{2,64})\"|(?P<bare>[!#-&(-~]{4,}+))"
_CN_PASSWORD_RE: Final = re.compile(
    rf"(?:密码|口令|验证码|password|passwd|pwd){_CN_VERB}{_CN_VALUE}", re.IGNORECASE
)
_CN_SECRET_RE: Final = re.compile(
    rf"(?:密钥|秘钥|私钥|令牌|授权码|api\s*key|apikey|token|secret){_CN_VERB}{_CN_VALUE}",
    re.IGNORECASE,
)
# "账号 admin 密码 admin123": no verb, so only a value holding a digit counts.
_CN_PASSWORD_BARE_RE: Final = re.compile(
    r"(?:密码|口令)\s+(?P<bare>(?=[!#-&(-~]*\d)[!#-&(-~]{4,}+)"
)

# Values that follow a keyword but are not secrets: type annotations, schema words, hashing
# algorithm names ("密码是 SHA256 加密的") and masks.
_NOT_SECRET_VALUES: Final = frozenset(
    {
        "any", "bool", "boolean", "bytes", "char", "empty", "false", "int", "integer", "nil",
        "none", "null", "number", "object", "optional", "redacted", "required", "str",
        "string", "text", "true", "undefined", "varchar", "hidden", "masked",
        "md5", "sha1", "sha256", "sha512", "bcrypt", "scrypt", "argon2", "argon2id", "pbkdf2",
        "aes", "rsa", "hmac", "base64", "hash", "hashed", "plaintext",
    }
)  # fmt: skip
_MASK_RE: Final = re.compile(r"[xX*•·.\-_#?]+")
# Documentation placeholders: your-api-key-here, YOUR_TOKEN, <replace-me>, sk-xxxx, abc***.
_PLACEHOLDER_RE: Final = re.compile(
    r"your[_\-].*|.*[_\-]here|.*placeholder.*|.*replace[_\-]?me.*|.*(?:x{4}|X{4}|\*{3}).*",
    re.IGNORECASE,
)
_ENV_REFERENCE_RE: Final = re.compile(
    r"(?:\$[A-Za-z_][A-Za-z0-9_]*|\$\{[^}]*\}?|%[A-Za-z_][A-Za-z0-9_]*%|os\.environ\b.*"
    r"|env\(.*\))"
)
_PATH_VALUE_RE: Final = re.compile(r"(?:/|~/)[\w./\-]*")
_WINDOW: Final = 1024
_WINDOW_OVERLAP: Final = 256
_ENTROPY: Final = Base64HighEntropyString()
# Values after token/secret/key keywords must look random: eight characters give a maximal
# entropy of log2(8) = 3.0 bits, the same floor detect-secrets uses for hex strings.
_MIN_SECRET_LENGTH: Final = 8
_MIN_SECRET_ENTROPY: Final = 3.0


def find_credential(text: str) -> str | None:
    """Return the kind of the first credential found (e.g. ``"openai_api_key"``), else None.

    Never returns the secret itself.
    """
    if not text:
        return None
    # NFKC folds full-width forms (ｓｋ－…, ＝, ：) so IME input cannot slip past the patterns.
    folded = unicodedata.normalize("NFKC", normalize_quotes(text))

    for window in _scan_windows(folded):
        for plugin, kind in _DETECT_SECRETS_PLUGINS:
            if any(not _is_placeholder(value) for value in plugin.analyze_string(window)):
                return kind

    for pattern, kind in _VENDOR_PATTERNS:
        if pattern.search(folded):
            return kind

    for pattern, kind, accepts in _VALUE_CHECKS:
        for match in pattern.finditer(folded):
            if accepts(*_matched_value(match)):
                return kind
    return None


def _scan_windows(text: str) -> Iterator[str]:
    """Lines, with very long lines cut into overlapping windows.

    Some detect-secrets patterns (OpenAI's ``sk-[…]*…T3BlbkFJ``) are quadratic on one long
    line; windows bound that cost while the overlap keeps any key shorter than it whole.
    """
    for line in text.splitlines():
        if len(line) <= _WINDOW:
            yield line
            continue
        for start in range(0, len(line) - _WINDOW_OVERLAP, _WINDOW - _WINDOW_OVERLAP):
            yield line[start : start + _WINDOW]


def _matched_value(match: re.Match[str]) -> tuple[str, bool]:
    """The captured value and whether it was quoted."""
    groups = match.groupdict()
    for name in ("value", "dq", "sq", "bare"):
        value = groups.get(name)
        if value:
            return value, name in ("dq", "sq")
    return "", False


def _is_placeholder(value: str) -> bool:
    stripped = value.strip().strip("\"'`")
    if not stripped or is_templated_secret(stripped):
        return True
    return bool(
        stripped.lower() in _NOT_SECRET_VALUES
        or _MASK_RE.fullmatch(stripped)
        or _ENV_REFERENCE_RE.fullmatch(stripped)
        or _PLACEHOLDER_RE.fullmatch(stripped)
        or stripped.startswith("{{")
    )


def _looks_like_password(value: str, quoted: bool) -> bool:
    # Passwords are often short and low-entropy ("123456"), so any real value counts; a quoted
    # value may even be Chinese (密码是"芝麻开门").
    value = value.strip().rstrip(".,;")
    if len(value) < 3 or _is_placeholder(value) or _PATH_VALUE_RE.fullmatch(value):
        return False
    return quoted or not _HAN_RE.match(value)


def _looks_like_secret(value: str, _quoted: bool) -> bool:
    # token/secret/key are everyday words ("max_tokens=4096", "token 是按字符计费的"), so the
    # value must look random before the batch is refused.
    value = value.strip().rstrip(".,;")
    if len(value) < _MIN_SECRET_LENGTH or _is_placeholder(value) or value.isdigit():
        return False
    if _HAN_RE.search(value) or _PATH_VALUE_RE.fullmatch(value):
        return False
    has_letter = any(char.isascii() and char.isalpha() for char in value)
    has_digit = any(char.isdigit() for char in value)
    return (has_letter and has_digit) or (
        _ENTROPY.calculate_shannon_entropy(value) >= _MIN_SECRET_ENTROPY
    )


# Keyword-anchored patterns whose captured value must still pass a plausibility check.
_VALUE_CHECKS: Final[tuple[tuple[re.Pattern[str], str, Callable[[str, bool], bool]], ...]] = (
    (_AUTH_HEADER_RE, "authorization_header", _looks_like_secret),
    (_BEARER_RE, "bearer_token", _looks_like_secret),
    (_CONNECTION_STRING_RE, "connection_string_password", _looks_like_password),
    (_PASSWORD_ASSIGNMENT_RE, "password_assignment", _looks_like_password),
    (_PASSWORD_IS_RE, "password_assignment", _looks_like_password),
    (_SECRET_ASSIGNMENT_RE, "secret_assignment", _looks_like_secret),
    (_CN_PASSWORD_RE, "password_statement", _looks_like_password),
    (_CN_PASSWORD_BARE_RE, "password_statement", _looks_like_password),
    (_CN_SECRET_RE, "secret_statement", _looks_like_secret),
)


# --------------------------------------------------------------------------------------------
# Personal identifiers
# --------------------------------------------------------------------------------------------

_RESIDENT_ID_RE: Final = re.compile(r"(?<![0-9A-Za-z])[1-8]\d{16}[0-9Xx](?![0-9A-Za-z])")
_RESIDENT_ID_WEIGHTS: Final = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
_RESIDENT_ID_CHECK_CHARS: Final = "10X98765432"  # ISO 7064 MOD 11-2, GB 11643-1999
_OLDEST_BIRTH_YEAR: Final = 1900

_MOBILE_RE: Final = re.compile(
    r"(?<![0-9A-Za-z+])"
    r"(?:(?:\+|00)86[\s\-]?|\(\+?86\)\s?)?"
    r"1[3-9]\d[\s\-]?\d{4}[\s\-]?\d{4}"
    r"(?![0-9A-Za-z])"
)
# 13–19 digits, bare or in groups of four. The first digit must be one issuers use (2–6 for
# card networks incl. UnionPay 62, 9 for domestic-only cards), which keeps 13-digit
# millisecond timestamps (1…) and other ids from tripping the 1-in-10 Luhn false positive.
_BANK_CARD_RE: Final = re.compile(
    r"(?<![0-9A-Za-z])[2-69](?:\d{12,18}|\d{3}(?:[ \-]\d{4}){2,3}(?:[ \-]\d{1,4})?)(?![0-9A-Za-z])"
)


def find_sensitive_identifier(text: str) -> str | None:
    """Return ``"cn_resident_id"``, ``"cn_mobile"`` or ``"bank_card"``, else None."""
    if not text:
        return None
    folded = unicodedata.normalize("NFKC", text)  # full-width digits from Chinese IMEs
    if any(_is_resident_id(match.group()) for match in _RESIDENT_ID_RE.finditer(folded)):
        return "cn_resident_id"
    if _MOBILE_RE.search(folded):
        return "cn_mobile"
    for match in _BANK_CARD_RE.finditer(folded):
        digits = re.sub(r"\D", "", match.group())
        if 13 <= len(digits) <= 19 and _luhn_valid(digits):
            return "bank_card"
    return None


def _is_resident_id(candidate: str) -> bool:
    body, check = candidate[:17], candidate[17].upper()
    total = sum(
        int(digit) * weight for digit, weight in zip(body, _RESIDENT_ID_WEIGHTS, strict=True)
    )
    if _RESIDENT_ID_CHECK_CHARS[total % 11] != check:
        return False
    try:
        birth = date(int(body[6:10]), int(body[10:12]), int(body[12:14]))
    except ValueError:
        return False
    return birth.year >= _OLDEST_BIRTH_YEAR and birth <= datetime.now(tz=UTC).date()


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


# --------------------------------------------------------------------------------------------
# Noise removal
# --------------------------------------------------------------------------------------------

# Injected summaries wrapped in tags: removed whole, or to the end when never closed.
_SUMMARY_TAG_RE: Final = re.compile(
    r"<(?P<tag>system[_\-]reminder"
    r"|(?:[\w\-]{0,40}[_\-])?(?:session|conversation|context|chat)[_\-](?:[\w\-]{0,40}[_\-])?"
    r"summary)"
    r"\b[^>]*>.*?(?:</(?P=tag)\s*>|\Z)",
    re.IGNORECASE | re.DOTALL,
)
_SUMMARY_HEADING_RE: Final = re.compile(
    r"^\s*(?P<hashes>#{1,6})\s*(?:"
    r"(?:previous\s+|prior\s+)?(?:session|conversation|context|chat)\s+summary"
    r"|(?:之前|此前|历史|上次|上一次)?(?:的)?(?:会话|对话|上下文)摘要)",
    re.IGNORECASE,
)
_SUMMARY_MARKER_RE: Final = re.compile(
    r"^\s*(?:"
    r"\[(?:previous\s+)?(?:session|conversation|context|chat)\s+summary\]"
    r"|【(?:会话|对话|上下文|历史会话)摘要】"
    r"|(?:历史)?(?:会话|对话|上下文)摘要\s*[:：]"
    r"|以下是(?:之前|此前|先前|上一次|上次|历史)?的?(?:会话|对话)(?:内容)?的?摘要"
    r"|this session is being continued from a previous conversation"
    r"|summary of (?:the )?previous (?:session|conversation)"
    r")",
    re.IGNORECASE,
)
_MARKDOWN_HEADING_RE: Final = re.compile(r"^\s*(#{1,6})\s")
_FENCE_RE: Final = re.compile(r"^\s*(?P<fence>`{3,}|~{3,})")

# Stack traces.
_PY_TRACEBACK_RE: Final = re.compile(r"^\s*Traceback \(most recent call last\):?")
_PY_CHAINED_RE: Final = re.compile(
    r"^\s*(?:During handling of the above exception|The above exception was the direct cause)"
)
_PY_EXCEPTION_LINE_RE: Final = re.compile(r"^[A-Za-z_][\w.]*(?::|$)")
_GO_DUMP_START_RE: Final = re.compile(r"^(?:goroutine \d+ \[[^\]]*\]:|panic: )")
_TRACE_LINE_RES: Final = (
    re.compile(r'^\s*File "[^"]+", line \d+'),
    re.compile(r"^\s*at\s+[\w$.<>/\[\]]+\((?:[\w$.\-]+:\d+|Native Method|Unknown Source)\)\s*$"),
    re.compile(r"^\s*at\s+(?:async\s+)?(?:new\s+)?(?:[^\s()]+\s+)?\(?[^\s()]+:\d+:\d+\)?\s*$"),
    re.compile(r"^\s*\.\.\. \d+ (?:more|common frames omitted)"),
    re.compile(r"^\s*Caused by: "),
    re.compile(r'^\s*Exception in thread "'),
    re.compile(r"^\s*(?:[a-z_$][\w$]*\.)+[A-Z][\w$]*(?:Exception|Error|Throwable)\b"),
    re.compile(r"^\s*(?:Uncaught\s+)?[A-Z]\w*(?:Error|Exception)(?:\s*\[\w+\])?:\s"),
    re.compile(r"^\s*\S+\.go:\d+(?: \+0x[0-9a-f]+)?\s*$"),
    re.compile(r"^exit status \d+\s*$"),
)

# Logs.
_LEVEL: Final = r"(?:TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|ERR|FATAL|CRITICAL|SEVERE|PANIC)"
_TIMESTAMP: Final = (
    r"\[?\d{4}[-/.]\d{1,2}[-/.]\d{1,2}[T ]\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?"
    r"(?:Z|[+\-]\d{2}:?\d{2})?\]?"
)
_LOG_LINE_RES: Final = (
    re.compile(rf"^\s*{_TIMESTAMP}.{{0,60}}?\b{_LEVEL}\b"),
    re.compile(r"^\s*\[?\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}"),  # seconds precision alone
    re.compile(rf"^\s*\[{_LEVEL}\]"),
    re.compile(rf"^\s*{_LEVEL}(?:\s*[:|\]]|\s+-\s)"),
    re.compile(rf"^\s*\d{{2}}:\d{{2}}:\d{{2}}(?:[.,]\d+)?\s+\[?{_LEVEL}\b"),
    re.compile(r"^\s*[A-Z][a-z]{2}\s+\d{1,2} \d{2}:\d{2}:\d{2} \S+ \S+?(?:\[\d+\])?:"),  # syslog
    re.compile(r"^\s*[IWEF]\d{4} \d{2}:\d{2}:\d{2}"),  # glog
    re.compile(r"^\s*\d{1,3}(?:\.\d{1,3}){3} - \S+ \[\d{2}/\w{3}/\d{4}:"),  # access log
)

# Shell prompts and commands.
_PROMPT_RES: Final = (
    re.compile(r"^\s*(?:\([\w.\-]+\)\s*)?[$❯➜]\s+[A-Za-z./~]"),
    re.compile(r"^\s*(?:\([\w.\-]+\)\s*)?[\w.\-]+@[\w.\-]+(?::[^\s#$%]*)?\s*[#$%](?:\s|$)"),
    re.compile(r"^\s*PS [A-Za-z]:\\[^>]*>"),
    re.compile(r"^\s*[A-Za-z]:\\[^>\s]*>\s*\S"),
)
_REPL_RE: Final = re.compile(r"^\s*>>>(?:\s|$)")
_REPL_CONTINUATION_RE: Final = re.compile(r"^\s*\.\.\.(?:\s|$)")
# Commands are matched case-sensitively (sentences start with a capital) and only when no Han
# character precedes the first quote or comment: "git 提交信息用中文" is a preference.
_COMMAND_RE: Final = re.compile(
    r"^\s*(?:"
    r"sudo\s+\S"
    r"|(?:pip3?|pipx)\s+(?:install|uninstall|freeze|list|show|download|wheel)\b"
    r"|(?:uv|poetry|conda|pdm|rye)\s+(?:pip|run|sync|add|remove|lock|install|create|activate)\b"
    r"|python(?:3(?:\.\d+)?)?\s+(?:-[mcVu]|\S+\.py\b)"
    r"|(?:npm|pnpm|yarn|bun)\s+(?:install|i|ci|run|test|start|build|add|remove|publish|init"
    r"|exec|dlx|x)\b"
    r"|npx\s+\S"
    r"|node\s+\S+\.(?:m?js|cjs|ts)\b"
    r"|git\s+(?:clone|pull|push|commit|checkout|switch|add|status|log|diff|merge|rebase|fetch"
    r"|reset|stash|branch|tag|init|remote|cherry-pick|revert|show|config|restore|bisect|blame"
    r"|submodule|rm|mv|clean)\b"
    r"|docker(?:-compose)?\s+(?:run|build|ps|exec|pull|push|compose|images|logs|stop|start"
    r"|restart|rm|rmi|network|volume|login|tag|inspect|up|down|system|buildx)\b"
    r"|go\s+(?:run|build|test|get|mod|install|vet|fmt|env|version|generate)\b"
    r"|cargo\s+(?:build|run|test|add|install|check|clippy|fmt|new)\b"
    r"|(?:kubectl|helm|terraform|ansible(?:-playbook)?|systemctl|journalctl|brew|apt|apt-get"
    r"|yum|dnf|apk|psql|redis-cli|mongosh|ssh|scp|rsync|wget|curl|chmod|chown|mkdir|grep"
    r"|sed|awk|ruff|pytest|mypy|mvn|gradle|gcc|javac|nohup|wrk|locust|tmux|crontab|openssl"
    r"|nginx|supervisorctl|pm2|ab)(?:\s+\S|\s*$)"
    r"|(?:cd|ls|cat|rm|mv|cp|ln|touch|tail|head|less|source|kill|pkill|du|df|chmod|tar|unzip"
    r"|zip|find|echo|export|mysql|java|make)\s+(?:-{1,2}\w|[./~$\\]|[A-Z_][A-Z0-9_]*=)"
    r"|make(?:\s+[\w\-]+)?\s*$"
    r"|\./\S+"
    r")"
)

# Benchmark / load-test echo (wrk, ab, locust, hey, redis-benchmark…), only on Han-free lines.
_BENCHMARK_RES: Final = (
    re.compile(
        r"(?:Requests/sec|Transfer/sec|Requests per second|Time per request|Transfer rate"
        r"|Concurrency Level|Complete requests|Failed requests|Time taken for tests"
        r"|Total transferred|HTML transferred|Document (?:Path|Length)|Server (?:Software"
        r"|Hostname|Port)|Connection Times|Percentage of the requests served|This is ApacheBench"
        r"|Thread Stats|Latency Distribution|Req/Sec|Socket errors|Non-2xx or 3xx responses"
        r"|Response time percentiles|requests in \d|threads and \d+ connections"
        r"|Summary:|Status code distribution|Response time histogram)",
        re.IGNORECASE,
    ),
    re.compile(r"^\s*Running \d+\w* test @"),
    re.compile(r"^\s*Benchmarking \S+"),
    re.compile(r"^\s*Latency\s*(?::|\s[\d.])"),
    re.compile(r"\bops/s(?:ec)?\b"),
    re.compile(r"^\s*(?:Type\s+Name|Aggregated|Name\s+# reqs)"),
    re.compile(
        r"^\s*(?:p\d{2}(?:\.\d+)?|P\d{2}(?:\.\d+)?|\d{2}(?:\.\d+)?%|\d{2}(?:th|%ile))"
        r"\s*[:=]?\s*[\d.]+\s*(?:ns|us|µs|ms|s|m)?\b"
    ),
)
_NUMBER_TOKEN_RE: Final = re.compile(r"\d+(?:[.,]\d+)*%?")

# Indented code: Han-free (outside string literals) and shaped like a statement.
_INDENTED_RE: Final = re.compile(r"^(?:\t| {4,})\S")
_LIST_ITEM_RE: Final = re.compile(r"^\s*(?:[-*+•]|\d+[.)])\s")
_CODE_SHAPE_RE: Final = re.compile(
    r"(?:[;{}]\s*$|:\s*$|\)\s*$|\s==?\s|->|=>|\w\(|^\s*(?:def|class|return|import|from|if|elif"
    r"|else|for|while|try|except|finally|with|raise|yield|pass|break|continue|const|let|var"
    r"|function|public|private|protected|static|func|package|fn|pub|use|async|await|throw"
    r"|print|#include|@\w+)\b)"
)
_STRING_LITERAL_RE: Final = re.compile(r"\"[^\"]*\"|'[^']*'")

# URLs and absolute paths inside sentences.
_URL_RE: Final = re.compile(
    rf"(?:(?:https?|ftp|wss?|file)://|www\.)[^\s<>\"'`{_HAN}\u3000-\u303f\uff00-\uffef]+",
    re.IGNORECASE,
)
_URL_TRAILING: Final = ".,;:!?)]}'"
_WINDOWS_PATH_RE: Final = re.compile(
    r"(?<![A-Za-z0-9])(?:[A-Za-z]:\\|\\\\[\w.\-]+\\)"
    r"(?:[^\\/:*?\"<>|\s，。；：！？、（）]+\\)*"
    r"(?:[^\\/:*?\"<>|\s，。；：！？、（）]*?\.[A-Za-z0-9]{1,8}(?![A-Za-z0-9])|[\w.\-]*)"
)
_UNIX_PATH_RE: Final = re.compile(
    r"(?<![A-Za-z0-9_.:/~\-])"
    r"(?:~/(?:[A-Za-z0-9_.@+%\-]+/)*|/(?:[A-Za-z0-9_.@+%\-]+/)+)"
    r"(?:[^\\/:*?\"<>|\s，。；：！？、（）]*?\.[A-Za-z0-9]{1,8}(?![A-Za-z0-9])"
    r"|[A-Za-z0-9_.@+%\-]*)"
)
_GAP: Final = "\x00"
# "我在 /home/a/b.py 中发现…" → "我发现…": the 在…中 frame dies with the path it framed.
_EMPTY_FRAME_RE: Final = re.compile(
    rf"(?:在|于|从)[ \t]*{_GAP}(?:[ \t]*{_GAP})*[ \t]*(?:里面|之中|中|里|内)(?![文国心间断])"
)
# "（见 https://… ）" → "": an aside that only pointed at the removed link goes with it.
_EMPTY_ASIDE_RE: Final = re.compile(
    rf"[（(][ \t]*(?:见|参见|详见|参考|来源|链接|地址|see|ref|via|source)?[ \t]*[:：]?"
    rf"[ \t]*{_GAP}(?:[ \t]*{_GAP})*[ \t]*[）)]",
    re.IGNORECASE,
)
_GAP_RUN_RE: Final = re.compile(rf"[ \t]{{0,8}}{_GAP}(?:[ \t]*{_GAP})*[ \t]*")
# Quotes only when directly adjacent: '"林清" "飞书"' must not lose its inner quote pair.
_EMPTY_BRACKETS_RE: Final = re.compile(r"\(\s*\)|（\s*）|\[\s*\]|【\s*】|<\s*>|《\s*》|\"\"|``")
_OPENERS: Final = "([{<\"'`"
_CLOSERS: Final = ")]}>\"'`,.;:!?"
_SPACE_BEFORE_CJK_PUNCT_RE: Final = re.compile(r"[ \t]+(?=[，。；：！？、）】》])")
_MULTI_SPACE_RE: Final = re.compile(r"(?<=\S)[ \t]{2,}")
_BLANK_RUN_RE: Final = re.compile(r"\n{3,}")


def clean_text(text: str) -> str:
    """Drop technical noise line by line and cut paths/URLs out of the surviving sentences."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = _SUMMARY_TAG_RE.sub("", text)
    kept = [_strip_paths_and_urls(line) for line in _drop_noise_lines(text.split("\n"))]
    joined = "\n".join(line.rstrip() for line in kept if line is not None)
    return _BLANK_RUN_RE.sub("\n\n", joined).strip("\n").strip()


def _drop_noise_lines(lines: list[str]) -> list[str]:
    kept: list[str] = []
    fence: str | None = None
    mode: str | None = None  # "traceback" | "go_dump" | "summary_para" | "summary_heading"
    summary_level = 0
    summary_started = False
    previous_was_repl = False

    for line in lines:
        stripped = line.strip()

        if fence is not None:
            if stripped.startswith(fence[0] * len(fence)) and not stripped.strip(fence[0]):
                fence = None
            continue

        if mode == "summary_heading":
            heading = _MARKDOWN_HEADING_RE.match(line)
            if heading is None or len(heading.group(1)) > summary_level:
                continue
            mode = None
        elif mode == "summary_para":
            if stripped:
                summary_started = True
                continue
            if summary_started:
                mode = None
            continue
        elif mode == "traceback":
            if not stripped:
                mode = None
            elif line[0].isspace() or _PY_CHAINED_RE.match(line) or _PY_TRACEBACK_RE.match(line):
                continue
            else:
                mode = None
                if _PY_EXCEPTION_LINE_RE.match(line):
                    continue
        elif mode == "go_dump":
            # A goroutine dump is Han-free; it ends at a blank line or at prose.
            if stripped and (line[0].isspace() or not _HAN_RE.search(line)):
                continue
            mode = None

        fence_match = _FENCE_RE.match(line)
        if fence_match:
            marker = fence_match.group("fence")
            rest = stripped[len(marker) :]
            if marker[0] not in rest:  # a one-line ```code``` block needs no state
                fence = marker
            previous_was_repl = False
            continue

        heading = _SUMMARY_HEADING_RE.match(line)
        if heading:
            mode, summary_level = "summary_heading", len(heading.group("hashes"))
            continue
        if _SUMMARY_MARKER_RE.match(line):
            mode, summary_started = "summary_para", False
            continue
        if _PY_TRACEBACK_RE.match(line):
            mode = "traceback"
            continue
        if _GO_DUMP_START_RE.match(line):
            mode = "go_dump"
            continue

        if _REPL_RE.match(line) or (previous_was_repl and _REPL_CONTINUATION_RE.match(line)):
            previous_was_repl = True
            continue
        previous_was_repl = False

        if stripped and _is_noise_line(line):
            continue
        kept.append(line)
    return kept


def _is_noise_line(line: str) -> bool:
    if any(pattern.search(line) for pattern in _TRACE_LINE_RES):
        return True
    if any(pattern.search(line) for pattern in _LOG_LINE_RES):
        return True
    if any(pattern.search(line) for pattern in _PROMPT_RES):
        return True
    if _COMMAND_RE.match(line) and not _HAN_RE.search(_command_head(line)):
        return True
    has_han = bool(_HAN_RE.search(line))
    if not has_han and (
        any(pattern.search(line) for pattern in _BENCHMARK_RES) or _is_numeric_row(line)
    ):
        return True
    return _is_indented_code(line)


def _command_head(line: str) -> str:
    """The part of a command line before its first quote or trailing comment."""
    return re.split(r"[\"'`]|\s#\s", line, maxsplit=1)[0]


def _is_numeric_row(line: str) -> bool:
    """Han-free table rows made mostly of numbers (percentile tables, locust rows…)."""
    numbers = _NUMBER_TOKEN_RE.findall(line)
    if len(numbers) < 3:
        return False
    visible = [char for char in line if not char.isspace()]
    letters = sum(char.isalpha() for char in visible)
    return letters * 3 <= len(visible)


def _is_indented_code(line: str) -> bool:
    if not _INDENTED_RE.match(line) or _LIST_ITEM_RE.match(line):
        return False
    if _HAN_RE.search(_STRING_LITERAL_RE.sub("", line)):
        return False
    return bool(_CODE_SHAPE_RE.search(line))


def _strip_paths_and_urls(line: str) -> str | None:
    """Cut URLs and absolute paths out of a sentence; None when nothing readable is left."""
    marked = _URL_RE.sub(_url_gap, line)
    marked = _WINDOWS_PATH_RE.sub(_GAP, marked)
    marked = _UNIX_PATH_RE.sub(_GAP, marked)
    if _GAP not in marked:
        return line

    indent = marked[: len(marked) - len(marked.lstrip())]
    body = _EMPTY_FRAME_RE.sub(_GAP, marked.lstrip())
    body = _EMPTY_ASIDE_RE.sub(_GAP, body)
    body = _GAP_RUN_RE.sub(_join_gap, body)
    body = _EMPTY_BRACKETS_RE.sub("", body)
    body = _SPACE_BEFORE_CJK_PUNCT_RE.sub("", body)
    body = _MULTI_SPACE_RE.sub(" ", body).strip()
    if not any(char.isalnum() for char in body):
        return None
    return indent + body


def _url_gap(match: re.Match[str]) -> str:
    url = match.group()
    trimmed = url.rstrip(_URL_TRAILING)
    return _GAP + url[len(trimmed) :]


def _join_gap(match: re.Match[str]) -> str:
    """Rejoin the text around a removed span.

    Chinese needs no space ("日志保存在目录下"); Latin text keeps one ("see for details"),
    except next to brackets, quotes and punctuation.
    """
    source = match.string
    before = source[match.start() - 1] if match.start() > 0 else ""
    after = source[match.end()] if match.end() < len(source) else ""
    if not before or not after or _GAP in (before, after):
        return ""
    if _is_cjk(before) or _is_cjk(after) or before in _OPENERS or after in _CLOSERS:
        return ""
    return " "


def _is_cjk(char: str) -> bool:
    return bool(_HAN_RE.match(char)) or "\u3000" <= char <= "\u303f" or "\uff00" <= char <= "\uffef"
