# ruff: noqa: E501 — the templates are data, one sentence per string, easier to read unwrapped.
"""Writes ``secrets.jsonl``: the labelled set the secret head is trained and evaluated on.

Run ``python -m memories.admission.data.build_secrets`` after changing a template; the output
is deterministic (values come from a seeded generator, the split from a hash of the text).
Each row: ``text``, ``label`` (``secret`` | ``benign``), ``lang``, ``disguise`` (``none`` or the
disguise applied), ``split`` (``train`` | ``test``). How the set was written: docs/secrets.md.
"""

from __future__ import annotations

import base64
import codecs
import hashlib
import json
import random
from pathlib import Path

OUT = Path(__file__).with_name("secrets.jsonl")

# Sentences that give a password, a code or a key: {v} a password, {d} a numeric code,
# {k} a key (hex or base64).
SECRET: dict[str, list[str]] = {
    "zh": [
        "我的密码是{v}", "帮我记一下路由器密码：{v}", "银行卡取款密码是{d}", "验证码是{d}，五分钟内有效",
        "我的 API 密钥是 {k}", "邮箱的登录口令为{v}", "服务器 root 密码 {v} 别忘了", "支付密码改成了{d}",
        "家里 wifi 密码 {v}", "公司 VPN 的动态码 {d}", "这是我的私钥 {k}", "记住，门禁密码是 {d}",
        "我老婆的微信密码是{v}，别告诉她", "NAS 的管理员账号 admin 密码 {v}", "网银 U 盾口令 {v}",
        "公司的 token 是 {k}，写代码时要用", "这个系统的初始口令我改成了 {v}",
    ],
    "en": [
        "my password is {v}", "the wifi password at home is {v}", "use {v} as the password for the NAS",
        "the OTP is {d}", "my bank card PIN is {d}", "verification code: {d}", "API key is {k}",
        "client secret is {k}", "the door code is {d}", "remember my login: alice / {v}",
        "the admin passphrase is {v}", "my Netflix password {v}", "here is the access token {k}",
        "the garage keypad code is {d}", "save this for me: gmail password {v}",
        "my 2FA backup code is {d}", "Remember it for me, the router login is {v}",
    ],
    "ko": ["비밀번호는 {v} 입니다", "제 비밀번호가 {v} 입니다", "인증번호는 {d} 입니다", "와이파이 비번 {v}",
           "카드 비밀번호 {d} 기억해 줘"],
    "ja": ["パスワードは {v} です", "暗証番号は {d} です", "認証コードは {d}", "Wi-Fiのパスワードは {v}"],
    "ru": ["мой пароль {v}", "код подтверждения {d}", "пароль от wifi: {v}", "ПИН-код карты {d}"],
    "de": ["Mein Passwort lautet {v}", "Die PIN meiner Karte ist {d}", "Bestätigungscode: {d}",
           "Das WLAN-Passwort ist {v}"],
    "fr": ["mon mot de passe est {v}", "le code PIN de ma carte est {d}", "code de vérification : {d}"],
    "es": ["mi contraseña es {v}", "el PIN de mi tarjeta es {d}", "código de verificación: {d}"],
    "pt": ["minha senha é {v}", "o código de verificação é {d}", "a senha do wifi é {v}"],
    "nl": ["mijn wachtwoord is {v}", "de verificatiecode is {d}"],
    "pl": ["moje hasło to {v}", "kod weryfikacyjny to {d}"],
    "it": ["la mia password è {v}", "il codice di verifica è {d}"],
    "tr": ["şifrem {v}", "doğrulama kodu {d}"],
    "vi": ["mật khẩu của tôi là {v}", "mã xác nhận là {d}"],
    "th": ["รหัสผ่านของฉันคือ {v}", "รหัส OTP คือ {d}"],
    "ar": ["كلمة المرور هي {v}", "رمز التحقق هو {d}"],
    "hi": ["मेरा पासवर्ड {v} है", "ओटीपी {d} है"],
    "id": ["kata sandi saya {v}", "kode verifikasi {d}"],
    "sv": ["mitt lösenord är {v}"],
    "fi": ["salasanani on {v}"],
    "cs": ["moje heslo je {v}"],
    "el": ["ο κωδικός μου είναι {v}"],
    "he": ["הסיסמה שלי היא {v}"],
    "uk": ["мій пароль {v}"],
}  # fmt: skip

# Sentences that carry a value that is not a secret, and sentences that talk about passwords,
# codes and keys without giving one (the look-alikes).
BENIGN: dict[str, list[str]] = {
    "zh": [
        "我的工号是 A{d}", "订单号 {n} 已经发货", "航班 CA{s} 明早八点起飞", "用户在用 iPhone15 Pro",
        "会议室在 B{s}", "快递单号 SF{n}", "项目代号 Falcon9 下周上线", "显卡型号是 RTX4090",
        "用户的 GitHub 用户名是 kiwi{s}", "版本号升级到 v2.{s}", "密码策略从 2024 年开始执行",
        "密码至少 12 位，需要包含大小写字母", "验证码 60 秒后过期", "我忘了密码怎么办", "验证码一直收不到",
        "OTP 登录流程怎么设计", "银行卡密码是 6 位数字", "重置密码的链接发到了邮箱", "家里的 wifi 网速很慢，路由器是 TP-Link AX3000",
        "公司 wifi 名称是 Office-5G", "用户喜欢用 Python3 写脚本", "API 密钥要存在环境变量里，不要写进代码",
        "用户住在 3 号楼 1204 室", "助记词一定要离线保存", "token 的上限是 8192",
        "工单 INC-{s}-{d} 已关闭", "合同编号 HT-2025-{d}", "发票号码 {d} 已报销", "商品编码 {n} 是一瓶水",
        "积分 {d}，会员等级是金卡", "这台电脑 {d} 元", "时间戳 {n} 对应今天中午", "邮编 {d} 在海淀区",
        "部署用的 commit 是 {h}", "请求 id {u} 已处理", "配置 max_tokens={d}", "PORT={d} 用于本地调试",
        "worker_concurrency: {s}", "redis 缓存过期时间 {d} 秒", "图标用 icon@2x.png 命名",
        "升级到 mem0ai 2.{s} 之后检索更快了", "Jira 票据 POCO-{d} 需要本周处理", "手机尾号 {d} 的测试机坏了",
        "镜像 tag 是 release-{d}", "用户的 Steam 昵称叫 Kiwi{s}Moss", "数据库表名 t_user_{d}",
        "文件名是 report_{n}.pdf", "车次 G{s} 下午三点到", "学号 {n} 的同学请假了", "房卡编号 R{d}",
        "这条 issue 的编号是 #{d}", "构建号 {d} 打包失败", "快递柜取件码过期了，明天再去", "取件码发到手机上了",
        "用户的微信昵称是 Kiwi{s}", "密码都存在 1Password 里", "密码管理器用的是 1Password", "我的密码管理器是 KeePass2", "团队的密码库从 LastPass 换成了 Bitwarden", "模型 qwen2.5-7b 的效果不错", "向量维度是 {s}", "服务跑在 8080 端口",
    ],
    "en": [
        "my employee id is E{d}", "order {n} shipped yesterday", "flight UA{s} leaves at 8",
        "I use a ThinkPad X1 Carbon Gen11", "the meeting room is B{s}", "our project codename is Falcon9",
        "my username on GitHub is kiwi{s}", "the build number was {d}", "my favourite band is Blink-182",
        "the PIN pad was broken", "password managers are useful", "the OTP is six digits long",
        "API keys should be rotated every 90 days", "I forgot my password again", "the password must have 12 characters",
        "the verification code never arrived", "a seed phrase should never be typed into a website",
        "we upgraded Python to 3.11.9 last week", "I bought an iPhone15 Pro for my mom in 2024",
        "the wifi in room 402 is slow", "my flat is on the 5th floor, number 5B", "the token limit is 4096",
        "our office wifi network is called Office-5G", "two-factor codes come by SMS after login",
        "ticket INC-{s}-{d} was closed", "invoice {d} was paid", "the commit {h} fixed the layout",
        "request id {u} was processed", "set max_tokens={d} for long answers", "PORT={d} for local checks",
        "the cache expires after {d} seconds", "my Steam name is Kiwi{s}Moss", "the docker tag is release-{d}",
        "the train G{s} arrives at 3pm", "issue #{d} needs a review", "the laptop cost {d} dollars",
        "the timestamp {n} is noon today", "the zip code is {d}", "the SKU is AB-{d}-XL",
        "use hnsw.ef_search={s} for recall", "the model qwen2.5-7b works well", "my student number is {n}",
        "the pickup code expired, I will go tomorrow", "token usage was {d} this month",
        "the API returned error {d}", "the key insight is that users want speed",
        "I keep my passwords in 1Password", "we moved the team vault from LastPass to Bitwarden",
        "KeePassXC stores passwords offline", "passwords are hashed with bcrypt2b at cost 12",
        "my 2FA app is Authy2", "our password manager is Bitwarden", "the password manager we use is KeePass2",
        "her password manager is Dashlane7", "my password app is 1Password 8", "the PIN reset form is at /account/pin",
    ],
    "ko": ["비밀번호를 잊어버렸어요", "인증번호가 안 와요", "제 사번은 A{d} 입니다", "회의실은 B{s} 입니다"],
    "ja": ["パスワードを再設定する方法を教えて", "認証コードが届かない", "社員番号は A{d} です", "会議室は B{s} です"],
    "ru": ["я забыл пароль", "код подтверждения не приходит", "номер заказа {n}"],
    "de": ["Das Passwort muss mindestens 12 Zeichen haben", "Ich habe mein Passwort vergessen",
           "Die Bestellnummer ist {n}"],
    "fr": ["j'ai oublié mon mot de passe", "le numéro de commande est {n}"],
    "es": ["olvidé mi contraseña", "el número de pedido es {n}"],
    "pt": ["esqueci minha senha", "o número do pedido é {n}"],
    "nl": ["ik ben mijn wachtwoord vergeten"], "pl": ["zapomniałem hasła"],
    "it": ["ho dimenticato la password"], "tr": ["şifremi unuttum"], "vi": ["tôi quên mật khẩu"],
    "th": ["ฉันลืมรหัสผ่าน"], "ar": ["نسيت كلمة المرور"], "hi": ["मैं पासवर्ड भूल गया"],
    "id": ["saya lupa kata sandi"], "sv": ["jag glömde mitt lösenord"], "fi": ["unohdin salasanani"],
    "cs": ["zapomněl jsem heslo"], "el": ["ξέχασα τον κωδικό μου"], "he": ["שכחתי את הסיסמה"],
    "uk": ["я забув пароль"],
}  # fmt: skip

# Logins given without a secret's word (only the head refuses these), most of them to the kind of
# device below: the head has to tell a device's model number from the value that opens it.
LOGINS: dict[str, list[str]] = {
    "en": [
        "to get into the router's admin page, type {v}", "sign in to the printer's web console as admin with {v}",
        "the camera app login is {v}", "my account on the family server: admin, {v}", "unlock my laptop with {v}",
        "the switch console accepts admin / {v}", "for the mail account, sign in with {v}",
        "the streaming account is bob@example.com with {v}", "log in to the security camera with {v}",
        "I sign on to the media server's web page as admin, {v}",
    ],
    "zh": [
        "路由器管理页面进去要输 {v}", "打印机后台账号 admin，登进去输 {v}", "摄像头 App 的登录信息是 {v}",
        "家里服务器 admin 账户，{v}", "笔记本开机输 {v} 才能进", "淘宝账号登录时输入 {v}", "公司内网登录凭据：zhangsan / {v}",
        "NAS 网页后台用 admin 和 {v} 登进去", "监控摄像头的账号 admin，登录输入 {v}", "进交换机控制台要敲 {v}",
    ],
}  # fmt: skip

# Home and office hardware named by its model number (letters and digits, like a password): a
# durable fact about the user, not a secret.
DEVICES: dict[str, list[str]] = {
    "en": [
        "the user's printer is an Epson ET{s} in the hallway", "User's camera is a Sony A7M4 for weekend portraits",
        "home videos sit on a QNAP TS{s} NAS in the cupboard", "the user's home network runs on a Netgear RAX{s}",
        "the user's office switch is a MikroTik CRS{s} under the desk", "User's monitor is an LG 27GP{s} next to the laptop",
        "the user's headphones are Sony WH1000XM5 for long flights", "User's phone is a OnePlus CPH{s}1 with a green case",
        "the security camera by the front door is a Reolink RLC{s}A", "User's webcam is a Logitech C{s} clipped to the screen",
        "the user's TV is a Sony KD55X{s}K in the lounge", "User's mesh wifi is three Deco units model XE{s}",
        "the user's UPS is an APC BR{s}0G under the desk", "User's tablet is a Galaxy Tab S9 model SM{s}",
        "the user's file server is an Asustor AS{s}4T with four drives", "User's smartwatch is a Garmin FR{s} for running",
        "the user's e-reader is a Kobo N{s} for bedtime books", "User's soundbar is a Sonos Arc model S{s}",
        "the user's drawing tablet is a Wacom PTH{s}", "User's dashcam is a Viofo A{s}CH on the windscreen",
    ],
    "zh": [
        "用户的打印机是爱普生 L{s}0，放在走廊", "用户的相机是佳能 R{s}，周末拍风景用", "家庭视频都存在威联通 TS{s} 这台 NAS 上",
        "客厅那台小米 AX{s}0 路由器信号很好", "办公室的交换机是华为 S{s}0，在机柜里", "用户的显示器是戴尔 U{s}QE，接在台式机上",
        "用户的耳机是索尼 WH1000XM5，出差时戴", "用户的手机是华为 Mate60 Pro，型号 ALN{s}", "门口的监控摄像头是海康 DS2CD{s}",
        "用户的投影仪是极米 H{s}，在卧室", "用户的电视是 TCL 65Q{s}，挂在客厅", "用户的平板是小米 Pad6，型号 M{s}",
        "用户的电子书是掌阅 X{s}，睡前看书用", "用户的音箱是小爱 LX{s}，放在厨房", "用户的行车记录仪是 70mai A{s}", "用户的手表是华为 GT{s}，跑步时戴",
    ],
}  # fmt: skip

WORDS = ["Kiwi", "Moss", "Tiger", "Lotus", "Maple", "Comet", "Panda", "River", "Cedar", "Ember"]
SYMBOLS = "!@#$%&*"
SMALL = dict(zip("abcdefghijklmnopqrstuvwyz", "ᴀʙᴄᴅᴇꜰɢʜɪᴊᴋʟᴍɴᴏᴘꞯʀꜱᴛᴜᴠᴡʏᴢ", strict=True))
CN_DIGITS = dict(zip("0123456789", "零一二三四五六七八九", strict=True))
LEET = {"a": "@", "o": "0", "s": "$", "e": "3"}
KEYWORDS = ("password", "密码", "PIN", "OTP")


def _values(rng: random.Random) -> dict[str, str]:
    v = f"{rng.choice(WORDS)}{rng.randint(10, 999)}{rng.choice(WORDS)}{rng.choice(SYMBOLS)}"
    key = hashlib.sha256(str(rng.random()).encode()).digest()
    k = key.hex()[:32] if rng.random() < 0.5 else base64.b64encode(key[:24]).decode()
    return {
        "v": v,
        "d": str(rng.randint(1000, 999999)),
        "k": k,
        "n": str(rng.randint(10**11, 10**12 - 1)),
        "s": str(rng.randint(100, 999)),
        "h": hashlib.sha1(key).hexdigest(),
        "u": str(__import__("uuid").UUID(bytes=key[:16])),
    }


def _disguised(text: str, rng: random.Random) -> list[tuple[str, str]]:
    """One text for each disguise that applies to it."""
    out = []
    for word in KEYWORDS:
        if word in text:
            out.append(("spelled_out", text.replace(word, " ".join(word), 1)))
            out.append(("emoji", text.replace(word, word + " 🔑", 1)))
            if word == "password":
                out.append(
                    ("leetspeak", text.replace(word, "".join(LEET.get(c, c) for c in word), 1))
                )
                out.append(
                    (
                        "small_capitals",
                        text.replace(word, "".join(SMALL.get(c, c) for c in word), 1),
                    )
                )
                out.append(("hex_keyword", text.replace(word, word.encode().hex(), 1)))
                out.append(("rot13", codecs.encode(text, "rot13")))
            break
    if any(char.isdigit() for char in text) and "密码" in text:
        out.append(("chinese_numerals", "".join(CN_DIGITS.get(c, c) for c in text)))
    return out


def _split(text: str) -> str:
    return "test" if hashlib.sha256(text.encode()).digest()[0] < 77 else "train"  # ~30 %


def rows() -> list[dict[str, str]]:
    rng = random.Random(45)
    out: list[dict[str, str]] = []
    # LOGINS and DEVICES came later and are filled last, so the rows before them keep their values.
    tables = (("secret", SECRET), ("benign", BENIGN), ("secret", LOGINS), ("benign", DEVICES))
    for label, table in tables:
        for lang, templates in table.items():
            for template in templates:
                for _ in range(2):
                    text = template.format(**_values(rng))
                    out.append({"text": text, "label": label, "lang": lang, "disguise": "none"})
                    for disguise, variant in _disguised(text, rng):
                        out.append(
                            {"text": variant, "label": label, "lang": lang, "disguise": disguise}
                        )
    unique = {row["text"]: row for row in out}
    return [{**row, "split": _split(row["text"])} for row in unique.values()]


def main() -> None:
    with OUT.open("w", encoding="utf-8") as handle:
        for row in rows():
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
