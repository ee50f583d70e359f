"""Credentials: API keys, tokens, private keys, passwords — refused, never echoed.

detect-secrets' detectors and our own vendor shapes read every view ``normalize`` makes of the
text (folded, spelled-out words joined, chunked keys closed), so a key typed with zero-width
spaces or spaces between its characters is still a key. Passwords are found after
密码/口令/password/passwd/pw/pwd in any script: ASCII, Han ("密码是芝麻开门"), or spelled out.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
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

from memories.admission.normalize import (
    decoded_base64,
    despace,
    fold,
    fold_confusables,
    squeeze_keys,
    visual_order,
)
from memories.text import HAN

__all__ = ["find_credential"]

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
    (re.compile(r"(?<![A-Za-z0-9])hf_[A-Za-z0-9]{30,}"), "huggingface_token"),
    (re.compile(r"(?<![A-Za-z0-9])npm_[A-Za-z0-9]{36}(?![A-Za-z0-9])"), "npm_token"),
    # OpenRouter's keys carry their version in the prefix, whose dashes the bare ``sk-`` shape
    # above does not take ("OpenRouter key sk-or-v1-…").
    (
        re.compile(r"(?<![A-Za-z0-9])sk-or-v\d+-[0-9a-f]{64}(?![0-9a-f])"),
        "openrouter_api_key",
    ),
    # Google OAuth client secrets: "GOCSPX-" and 28 characters.
    (
        re.compile(r"(?<![A-Za-z0-9])GOCSPX-[A-Za-z0-9_\-]{24,32}(?![A-Za-z0-9_\-])"),
        "google_oauth_client_secret",
    ),
    # detect-secrets' Telegram detector wants the token alone on its line.
    (
        re.compile(
            r"(?<![0-9])[0-9]{8,10}:(?=[0-9A-Za-z_\-]*[a-z])(?=[0-9A-Za-z_\-]*[A-Z])"
            r"[0-9A-Za-z_\-]{33,35}(?![0-9A-Za-z_\-])"
        ),
        "telegram_bot_token",
    ),
)

# A Windows or Office product key (and many vendors' licence keys): five groups of five capitals
# and digits. A SKU or a placeholder may share the shape, but not with letters and digits mixed
# inside most groups ("VK7JG-NPHTM-C97JM-9MPGT-3V66T": four of five), which ``_is_product_key``
# asks for.
_PRODUCT_KEY_RE: Final = re.compile(
    r"(?<![A-Za-z0-9\-])[A-Z0-9]{5}(?:-[A-Z0-9]{5}){4}(?![A-Za-z0-9\-])"
)
_PRODUCT_KEY_MIXED_GROUPS: Final = 3


def _is_product_key(key: str) -> bool:
    mixed = sum(
        any(c.isdigit() for c in group) and any(c.isalpha() for c in group)
        for group in key.split("-")
    )
    return mixed >= _PRODUCT_KEY_MIXED_GROUPS


# An Ethereum (or any secp256k1) private key is 64 hex digits, with or without "0x" — the length
# of a SHA-256 digest or a transaction hash, which are public. It is a key where a wallet or an
# account names it ("MetaMask account 2: …", "my Ledger wallet key 0x…") and no hash, digest or
# transaction is named on the line. A public address is 40 hex digits: never this shape.
# "account" is a wallet's word only as the label of the key ("account 2:"): an "account service
# build <hash>" is a build.
_WALLET_WORD_RE: Final = re.compile(
    r"(?:metamask|wallet|private\s*key|priv\s*key|钱包|錢包|私钥|私鑰|ウォレット|秘密鍵"
    r"|지갑|개인\s*키|кошел[её]к|billetera|cartera|portefeuille|carteira|portafoglio"
    r"|account\s*#?\d*\s*(?:key\s*)?[:=])",
    re.IGNORECASE,
)
_HEX_KEY_RE: Final = re.compile(r"(?<![0-9A-Za-z])(?:0x)?[0-9a-fA-F]{64}(?![0-9A-Za-z])")
_HASH_WORD_RE: Final = re.compile(
    r"(?<![a-z])(?:tx|txid|txn|transaction|hash|digest|checksum|sha-?\d{3}|block|commit"
    r"|signature|sig|public|pubkey|fingerprint|build|image|artifact|release)(?![a-z])"
    r"|交易|哈希|区块|區塊|公钥|公鑰|签名",
    re.IGNORECASE,
)
# How far before the key its wallet may be named ("MetaMask account 2: ").
_WALLET_REACH: Final = 40


def _has_wallet_key(view: str) -> bool:
    for line in view.splitlines():
        for key in _HEX_KEY_RE.finditer(line):
            before = line[max(0, key.start() - _WALLET_REACH) : key.start()]
            if _WALLET_WORD_RE.search(before) and not _HASH_WORD_RE.search(line):
                return True
    return False


def _has_product_key(view: str) -> bool:
    return any(_is_product_key(match.group()) for match in _PRODUCT_KEY_RE.finditer(view))


# Shapes read by a function rather than one pattern: each needs a second look at the match.
_SHAPE_CHECKS: Final[tuple[tuple[Callable[[str], bool], str], ...]] = (
    (_has_product_key, "product_key"),
    (_has_wallet_key, "ethereum_private_key"),
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
    r"|(?<![A-Za-z0-9])(?:[A-Za-z0-9_\-]{0,40}[_\-])?(?:pwd|pass|pw))"
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
# "my password is hunter2", "the admin pw for staging is …": a value with a digit or symbol,
# or a word of letters that ends the clause ("is bluebird.", not "is required for login") and
# says nothing about the password (``_looks_like_word_value``).
_PASSWORD_NOUN: Final = (
    r"\b(?:password|passphrase|passcode|passwd|pwd|pw)"
    r"(?:\s+(?:for|of|on|to|at)\s+(?:(?:the|my|our|this|that|a|an|your)\s+)?[\w\-]+"
    r"(?:\s+[\w\-]+)?)?\s+(?:is|was)\s*:?\s*[\"']?"
)
_PASSWORD_IS_RE: Final = re.compile(
    rf"{_PASSWORD_NOUN}(?P<bare>(?=[A-Za-z]*[0-9!#$%&*+\-./:<=>?@^_~])[!#-&(-~]{{4,}})",
    re.IGNORECASE,
)
_PASSWORD_IS_WORD_RE: Final = re.compile(
    rf"{_PASSWORD_NOUN}(?P<bare>[A-Za-z]{{4,}})[\"']?(?=\s*(?:[,.;!?)]|$))",
    re.IGNORECASE | re.MULTILINE,
)
# Words that say what a password is like, not what it is ("the password is expired.").
_PASSWORD_PREDICATES: Final = frozenset(
    {
        "blank", "correct", "incorrect", "wrong", "right", "invalid", "valid", "weak", "strong",
        "secure", "insecure", "safe", "unsafe", "mandatory", "optional", "needed", "necessary",
        "missing", "empty", "unknown", "unset", "secret", "private", "personal", "mine", "yours",
        "ours", "theirs", "same", "different", "new", "old", "long", "short", "simple", "complex",
        "fine", "okay", "good", "bad", "temporary", "permanent", "default", "visible",
        "invisible", "there", "here", "gone", "lost", "common", "unique", "random", "obvious",
        "easy", "hard", "sensitive", "insensitive", "shared", "public", "known", "forgotten",
        "fixed", "none", "null", "nothing", "something",
    }
)  # fmt: skip


def _looks_like_word_value(value: str, _quoted: bool) -> bool:
    word = value.lower()
    if word in _PASSWORD_PREDICATES or word in _NOT_SECRET_VALUES:
        return False
    return not word.endswith(("ed", "ing", "ly", "able", "ible", "ive", "ful", "less", "ous"))


# Chinese statements: 密码是xxx / 密码：xxx / 口令为xxx / 密钥是xxx (NFKC turns ： into :).
_CN_VERB: Final = r"\s*(?:就是|改成了?|改为|设为|设成|设置为|设置成|换成了?|是|为|:|=)\s*"
_CN_VALUE: Final = r"(?:\"(?P<dq>[^\"\n]{2,64})\"|(?P<bare>[!#-&(-~]{4,}+))"
# 密码 / 密碼 / 口令 / 验证码, spaced out too ("密 码"); one-time codes and PINs.
_CN_PASSWORD_WORD: Final = r"(?:密\s*[码碼]|口\s*令|[验驗]\s*[证證]\s*[码碼])"
_CN_PASSWORD_RE: Final = re.compile(
    rf"(?:{_CN_PASSWORD_WORD}|password|passwd|pwd|pw|(?<![A-Za-z])(?:otp|pin)(?:\s*(?:码|code))?)"
    rf"{_CN_VERB}{_CN_VALUE}",
    re.IGNORECASE,
)
_CN_SECRET_RE: Final = re.compile(
    rf"(?:密钥|秘钥|私钥|令牌|授权码|api\s*key|apikey|token|secret){_CN_VERB}{_CN_VALUE}",
    re.IGNORECASE,
)
# A password in any script after the keyword and a verb: "密码是芝麻开门", "password is 芝麻开门".
# The value is a whole run of non-ASCII letters (2–16), so a sentence that merely talks about
# passwords ("密码是否需要定期更换") is judged by ``_looks_like_word_password`` below.
_NON_ASCII_WORD: Final = r"[^\x00-\x7f\s。、，！？；：…—（）【】《》「」]"
_WORD_PASSWORD_RE: Final = re.compile(
    rf"(?:{_CN_PASSWORD_WORD}|暗号|password|passwd|passphrase|pwd|pw)(?![A-Za-z0-9])\s*"
    r"(?:就是|改成了?|改为|设为|设成|设置为|设置成|换成了?|是|为|:|=|(?:is|was)(?![A-Za-z]))\s*"
    rf"(?P<bare>{_NON_ASCII_WORD}{{2,16}})(?!{_NON_ASCII_WORD})",
    re.IGNORECASE,
)
# How a Chinese sentence *about* a password goes on after 密码是/为: a question (是否, 什么,
# 多少), a rule (必填, 至少, 区分大小写), a description ending in 的/了 (是加密存储的).
_PREDICATE_STARTS: Final = frozenset(
    "否不没未什多几怎如由从在用被将要会能可应必需须指对错空每同相跟和与给让这那哪谁自随系默初临"
    "有无非很太挺最比更还也都只仅已正而但就才又再即并得去来以按通经该此其它他她我你您咱各某"
)
_PREDICATE_ENDS: Final = frozenset("的了吗呢吧啊么嘛")
_PREDICATE_WORDS: Final = (
    "加密", "解密", "存储", "保存", "存放", "明文", "密文", "哈希", "散列", "必填", "必须", "需要",
    "大小写", "敏感", "位", "字符", "字母", "数字", "符号", "长度", "过期", "有效", "失效", "正确",
    "错误", "一样", "相同", "不同", "设置", "修改", "重置", "找回", "忘", "验证", "生成", "随机",
    "默认", "初始", "统一", "分配", "管理", "策略", "规则", "要求", "复杂", "简单", "强度", "安全",
    "泄露", "短信", "邮件", "共享", "同一", "用户", "系统", "出厂", "格式", "组合",
)  # fmt: skip


def _looks_like_word_password(value: str, _quoted: bool) -> bool:
    if value[0] in _PREDICATE_STARTS or value[-1] in _PREDICATE_ENDS:
        return False
    return not any(word in value for word in _PREDICATE_WORDS)


# "账号 admin 密码 admin123", "密码hunter22", "passwd letmein2024": no verb, so only a value
# holding a digit counts.
_CN_PASSWORD_BARE_RE: Final = re.compile(
    rf"(?:{_CN_PASSWORD_WORD}\s*|(?<![A-Za-z])(?:password|passwd|pwd|pw)\s+)"
    r"(?P<bare>(?=[!#-&(-~]*\d)[!#-&(-~]{4,}+)",
    re.IGNORECASE,
)
# The word for password in other languages, a separator or verb, a value holding a digit or
# symbol: "пароль: hunter22", "Passwort ist hunter22", "パスワードは hunter22 です".
# A "?" or "." counts only inside the value: at its end it closes the sentence ("Wo bewahrst du
# dein WLAN-Passwort auf?" is a question, "auf?" no password).
_OTHER_PASSWORD_RE: Final = re.compile(
    r"(?:пароль|passwort|kennwort|パスワード|暗証番号|비밀번호|mot\s+de\s+passe|contrase[nñ]a"
    r"|senha|wachtwoord|hasło|haslo|parola)"
    r"\s*(?:[:=]|ist|は|est|es|é|is|是|:)?\s*"
    r"(?P<bare>(?=[!#-&(-~]*(?:[0-9!#$%&*+\-/:<=>@^_~]|[.?][!#-&(-~]))[!#-&(-~]{4,}+)",
    re.IGNORECASE,
)

# A login given as user and password after the word for it: "router login admin/hunter2xyz",
# "admin login admin / Vx7#pLm2Qz", "VPN 登录用 chenli / Hk7$wQ2z". The slash is tight on both
# sides or spaced on both and the user stands alone before it, so a path ("the login page is
# /admin") is neither; the password holds a digit or a symbol, so "login with admin/SSO" (two
# ways to sign in) and "Google / GitHub" are not logins.
_LOGIN_PAIR_RE: Final = re.compile(
    r"(?:(?<![A-Za-z])(?:log[\s\-]?in|logon|sign[\s\-]?in|creds|credentials)(?![A-Za-z])"
    r"|账号|帳號|登录|登陆|登入|ログイン|로그인|zugangsdaten|anmeldedaten|identifiants|credenziali"
    r"|credenciales|credenciais)"
    r"[^\n/]{0,30}?(?<![^\s:(])[A-Za-z0-9._@\-]{2,40}(?:/|\s+/\s+)"
    r"(?P<bare>(?=[!#-.0-~]*[0-9!#$%&*+\-:<=>?@^_~])[!#-.0-~]{4,64}+)(?!/)",
    re.IGNORECASE,
)


def _looks_like_login_password(value: str, quoted: bool) -> bool:
    value = value.rstrip(".,;:)")
    if not any(char.isdigit() or char in _LOGIN_SYMBOLS for char in value):
        return False
    if _SIGN_IN_METHOD_RE.match(value):
        return False
    return _looks_like_password(value, quoted)


_LOGIN_SYMBOLS: Final = frozenset("!#$%&*+-:<=>?@^_~")
# Ways to sign in, which "login with X/Y" may list: "TOTP/WebAuthn2", "email/password2fa".
_SIGN_IN_METHOD_RE: Final = re.compile(
    r"(?:totp|webauthn|sso|saml|oauth|oidc|ldap|kerberos|2fa|mfa|passkey|password|otp|fido|sms)",
    re.IGNORECASE,
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
        "password", "passwd", "pwd", "pw", "secret", "token", "passphrase",
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


# A token base64-encoded twice is still found; deeper nesting is not worth the scan.
_MAX_DECODE_DEPTH: Final = 2


def find_credential(text: str, *, _depth: int = 0) -> str | None:
    """Return the kind of the first credential found (e.g. ``"openai_api_key"``), else None.

    Never returns the secret itself.
    """
    if not text:
        return None
    for view in _views(text):
        kind = _find_in_view(view)
        if kind is not None:
            return kind
    if _depth < _MAX_DECODE_DEPTH:
        for decoded in decoded_base64(fold(text)):
            kind = find_credential(decoded, _depth=_depth + 1)
            if kind is not None:
                return kind
    return None


def _views(text: str) -> Iterator[str]:
    """The folded text, then (when they differ) spelled-out words joined, chunked keys closed,
    look-alike letters of labels made Latin and overridden runs in display order: each
    disguise is undone in a view of its own, so undoing one cannot hide another."""
    folded = fold(text)
    seen = {folded}
    yield folded
    confusables = fold_confusables(folded)
    shown = visual_order(text)
    for view in (
        despace(folded),
        squeeze_keys(folded),
        squeeze_keys(despace(folded)),
        confusables,
        despace(confusables),
        folded if shown == text else fold(shown),
    ):
        if view not in seen:
            seen.add(view)
            yield view


def _find_in_view(view: str) -> str | None:
    for window in _scan_windows(view):
        for plugin, kind in _DETECT_SECRETS_PLUGINS:
            if any(not _is_placeholder(value) for value in plugin.analyze_string(window)):
                return kind

    for pattern, kind in _VENDOR_PATTERNS:
        if pattern.search(view):
            return kind

    for check, kind in _SHAPE_CHECKS:
        if check(view):
            return kind

    for pattern, kind, accepts in _VALUE_CHECKS:
        for match in pattern.finditer(view):
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
    return quoted or not HAN.match(value)


def _looks_like_secret(value: str, _quoted: bool) -> bool:
    # token/secret/key are everyday words ("max_tokens=4096", "token 是按字符计费的"), so the
    # value must look random before the batch is refused.
    value = value.strip().rstrip(".,;")
    if len(value) < _MIN_SECRET_LENGTH or _is_placeholder(value) or value.isdigit():
        return False
    if HAN.search(value) or _PATH_VALUE_RE.fullmatch(value):
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
    (_PASSWORD_IS_WORD_RE, "password_assignment", _looks_like_word_value),
    (_SECRET_ASSIGNMENT_RE, "secret_assignment", _looks_like_secret),
    (_CN_PASSWORD_RE, "password_statement", _looks_like_password),
    (_CN_PASSWORD_BARE_RE, "password_statement", _looks_like_password),
    (_OTHER_PASSWORD_RE, "password_statement", _looks_like_password),
    (_WORD_PASSWORD_RE, "password_statement", _looks_like_word_password),
    (_CN_SECRET_RE, "secret_statement", _looks_like_secret),
    (_LOGIN_PAIR_RE, "login_password", _looks_like_login_password),
)
