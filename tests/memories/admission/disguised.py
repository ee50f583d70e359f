"""Disguised secrets and identifiers: every one must be refused, on every edge, never echoed.

The first group is what an outside probe found stored (14 of 32 forms); the rest are our own
variants of the same tricks. Each case names a ``secret``: a piece of the input that must never
appear in an answer, a page, a stored memory or the audit trail.

Values are assembled at run time (``j``) so secret scanners never see a literal credential.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass

from tests.memories.admission.fakes import j, resident_id_of, with_luhn_digit

RESIDENT_ID = resident_id_of("44030419900307231")  # 440304199003072312
WRONG_CHECK_ID = RESIDENT_ID[:17] + "0"  # region and birth date real, check digit wrong
MOBILE = "13912345678"
ZW = "\u200b"  # zero-width space
RLO, PDF = "\u202e", "\u202c"  # right-to-left override, pop directional formatting
GITHUB_TOKEN = j("ghp_", "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8")
CARD = with_luhn_digit("622202123456789012")
AWS_KEY = j("AKIA", "Z7Q4R2T8W3Y6U1P5")


@dataclass(frozen=True)
class Disguise:
    id: str
    text: str
    reason: str  # "credential" | "sensitive_identifier"
    secret: str  # a piece of the text no answer may echo


DISGUISED: tuple[Disguise, ...] = (
    # --- resident ID numbers --------------------------------------------------------------
    Disguise("id-with-spaces", "我的证件 440304 19900307 2312 记一下", "sensitive_identifier",
             "19900307"),
    Disguise("id-with-zero-width", f"备用号码 4403{ZW}0419{ZW}9003{ZW}0723{ZW}12",
             "sensitive_identifier", "0419"),
    Disguise("id-with-dashes", "号码 440304-19900307-2312", "sensitive_identifier",
             "440304-19900307"),
    Disguise("id-wrong-check-digit", f"这个号码 {WRONG_CHECK_ID} 先存着", "sensitive_identifier",
             WRONG_CHECK_ID),
    Disguise("id-full-width", "号码：４４０３０４１９９００３０７２３１２", "sensitive_identifier",
             "４４０３０４"),
    Disguise("id-chinese-numerals", "身份证号四四零三零四一九九零零三零七二三一二",
             "sensitive_identifier", "四四零三零四"),
    Disguise("id-labelled-bad-date", "身份证 110105199913451234 不要外传", "sensitive_identifier",
             "110105199913451234"),
    Disguise("id-labelled-english", "ID card number: 4403 0419 9003 0723 12",
             "sensitive_identifier", "4403 0419"),
    # --- mobile numbers -------------------------------------------------------------------
    Disguise("mobile-dots", "有事打 139.1234.5678", "sensitive_identifier", "1234.5678"),
    Disguise("mobile-digit-by-digit", "号码是 1 3 9 1 2 3 4 5 6 7 8", "sensitive_identifier",
             "1 3 9 1 2 3 4"),
    Disguise("mobile-chinese-numerals", "有事找我 一三九一二三四五六七八", "sensitive_identifier",
             "一三九一二三四"),
    Disguise("mobile-zero-width", f"联系我 139{ZW}1234{ZW}5678", "sensitive_identifier",
             f"1234{ZW}5678"),
    Disguise("mobile-financial-numerals", "号码壹叁玖壹贰叁肆伍陆柒捌", "sensitive_identifier",
             "壹叁玖壹贰叁肆"),
    Disguise("mobile-yao", "打幺三九 幺二三四 五六七八", "sensitive_identifier", "幺二三四"),
    Disguise("mobile-spaced-dashes", "电话 139 - 1234 - 5678", "sensitive_identifier",
             "1234 - 5678"),
    Disguise("mobile-full-width", "号码１３９－１２３４－５６７８", "sensitive_identifier",
             "１２３４－５６７８"),
    Disguise("mobile-country-code-zero-width", f"WhatsApp +86{ZW}139{ZW}1234{ZW}5678",
             "sensitive_identifier", f"1234{ZW}5678"),
    Disguise("mobile-ideographic-spaces", "号码 139\u30001234\u30005678", "sensitive_identifier",
             "1234\u30005678"),
    Disguise("mobile-labelled-any-prefix", "手机号 12012345678", "sensitive_identifier",
             "12012345678"),
    # --- bank cards and passports -----------------------------------------------------------
    Disguise("card-zero-width", f"卡 {CARD[:4]}{ZW}{CARD[4:8]}{ZW}{CARD[8:12]}{ZW}{CARD[12:]}",
             "sensitive_identifier", CARD[4:8]),
    Disguise("card-labelled-bad-luhn", "银行卡号 6222 0212 3456 7890 124", "sensitive_identifier",
             "3456 7890"),
    Disguise("passport-labelled", "护照号 E12345678 下周到期", "sensitive_identifier",
             "E12345678"),
    # --- e-mail addresses ------------------------------------------------------------------
    Disguise("email-plain", "报告发到 alice.wang@example.com", "sensitive_identifier",
             "alice.wang@"),
    Disguise("email-full-width", "邮箱 ａｌｉｃｅ＠ｅｘａｍｐｌｅ．ｃｏｍ", "sensitive_identifier",
             "ａｌｉｃｅ＠"),
    Disguise("email-at-dot-spelled", "write to alice [at] example [dot] com",
             "sensitive_identifier", "alice [at]"),
    Disguise("email-chinese-at", "邮件发 alice艾特example点com", "sensitive_identifier",
             "alice艾特"),
    Disguise("email-zero-width", f"邮箱 alice{ZW}@{ZW}example.com", "sensitive_identifier",
             f"alice{ZW}@"),
    # --- keys -------------------------------------------------------------------------------
    Disguise("aws-key-zero-width", ZW.join(AWS_KEY[i : i + 4] for i in range(0, 20, 4)),
             "credential", AWS_KEY[4:8]),
    Disguise("sk-key-spaced-groups", j("以后用 sk- proj- Ab3d Ef6h Ij9k ", "Lm2n Op5q Rs8t Uv1w"),
             "credential", "Ef6h Ij9k"),
    Disguise("sk-key-spaced-chars",
             j("key 是 s k - a 1 B 2 c 3 D 4 e 5 ", "F 6 g 7 H 8 i 9 J 0 k 1 L 2"),
             "credential", "a 1 B 2 c 3"),
    Disguise("github-token-zero-width",
             j("token ", "ghp_", f"A1b2C3d4{ZW}E5f6G7h8{ZW}I9j0K1l2{ZW}M3n4O5p6Q7r8"),
             "credential", "E5f6G7h8"),
    # --- passwords --------------------------------------------------------------------------
    Disguise("password-han", "我的密码是芝麻开门", "credential", "芝麻开门"),
    Disguise("password-han-kouling", "门禁口令是天王盖地虎，别忘了", "credential", "天王盖地虎"),
    Disguise("password-chinese-numerals", "银行卡密码是一二三四五六", "credential", "一二三四五六"),
    Disguise("pw-is", "my pw is hunter2024", "credential", "hunter2024"),
    Disguise("pwd-colon", j("pwd: ", "Tr0ub4dor"), "credential", "Tr0ub4dor"),
    Disguise("password-spaced-out", "密码是 h u n t e r 2 0 2 4", "credential", "h u n t e r"),
    Disguise("password-english-han-value", "the wifi password is 芝麻开门", "credential",
             "芝麻开门"),
    Disguise("password-cyrillic", "password: пароль2024", "credential", "пароль"),
    Disguise("password-full-width", "ｐａｓｓｗｏｒｄ ｉｓ ｈｕｎｔｅｒ２０２４", "credential",
             "ｈｕｎｔｅｒ"),
    Disguise("password-zero-width-keyword", f"密{ZW}码是 abc12345", "credential", "abc12345"),
    Disguise("password-dotted", "my password is h.u.n.t.e.r", "credential", "h.u.n.t.e.r"),
    # --- what a display shows but the characters do not say ----------------------------------
    # Stored logically as 8765-4321-931, displayed right to left as 139-1234-5678.
    Disguise("mobile-behind-rlo", f"有事打 {RLO}8765-4321-931{PDF} 找我", "sensitive_identifier",
             "8765-4321"),
    # An override left open runs to the end of the paragraph.
    Disguise("id-behind-open-rlo", f"号码 {RLO}{RESIDENT_ID[::-1]}", "sensitive_identifier",
             RESIDENT_ID[::-1][:8]),
    Disguise("password-behind-rlo", f"备忘 {RLO}{'pwd: Tr0ub4dor2024'[::-1]}{PDF}", "credential",
             "Tr0ub4dor2024"[::-1]),
    Disguise("password-cyrillic-label", "p\u0430ssword: Tr0ub4dor2024", "credential",
             "Tr0ub4dor2024"),
    Disguise("password-cyrillic-label-han-value", "\u0440\u0430ss\u0440hrase is 芝麻开门",
             "credential", "芝麻开门"),
    Disguise("api-key-greek-label", "\u03b1pi_key = Zq8Lw3Nv7Rt2Yx5K", "credential",
             "Zq8Lw3Nv7Rt2Yx5K"),
    Disguise("github-token-base64", f"备用 {base64.b64encode(GITHUB_TOKEN.encode()).decode()}",
             "credential", base64.b64encode(GITHUB_TOKEN.encode()).decode()[:24]),
    Disguise("password-base64", j("config ", base64.b64encode(b"password=hunter2024").decode()),
             "credential", base64.b64encode(b"password=hunter2024").decode()),
    Disguise("mobile-base64-urlsafe", "号码 " + base64.urlsafe_b64encode(b"phone 13912345678")
             .decode().rstrip("="), "sensitive_identifier",
             base64.urlsafe_b64encode(b"phone 13912345678").decode()[:12]),
)  # fmt: skip

# An ID number split over two messages of one ingest: harmless one by one, refused together.
SPLIT_ID_MESSAGES = ("我的证件号码是 4403041990", "03072312 帮我记住")
