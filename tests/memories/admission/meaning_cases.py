"""Secrets said in natural language, and what only looks like them.

Every ``SECRETS`` text was stored by an outside probe before admission judged meaning as well
as shape; every ``LOOK_ALIKES`` text talks about passwords, codes or keys without giving one and
must stay admitted. Values that a secret scanner would flag are assembled at run time.
"""

from __future__ import annotations

import base64
import codecs
import hashlib

from mnemonic import Mnemonic

from tests.memories.admission.fakes import j, with_luhn_digit

_B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


def _base58check(payload: bytes) -> str:
    data = payload + hashlib.sha256(hashlib.sha256(payload).digest()).digest()[:4]
    number = int.from_bytes(data, "big")
    out = ""
    while number:
        number, rest = divmod(number, 58)
        out = _B58[rest] + out
    return "1" * (len(data) - len(data.lstrip(b"\0"))) + out


def _seed(n: int) -> bytes:
    return hashlib.sha256(f"poco-memory-test-{n}".encode()).digest()


# A compressed-key WIF (K…/L…), a BIP-39 phrase of 12 and of 24 words, a base32 TOTP seed,
# an AWS-shaped 40-character secret key, a base64 client secret, a hex API key.
WIF_KEY = _base58check(b"\x80" + _seed(1) + b"\x01")
SEED_12 = Mnemonic("english").to_mnemonic(_seed(2)[:16])
SEED_24 = Mnemonic("english").to_mnemonic(_seed(3))
SEED_ZH = Mnemonic("chinese_simplified").to_mnemonic(_seed(4)[:16])
TOTP_SEED = base64.b32encode(_seed(5)[:20]).decode()
AWS_SECRET = base64.b64encode(_seed(6) + _seed(7)[:0]).decode()[:40].replace("+", "/")
CLIENT_SECRET = base64.b64encode(_seed(8)[:24]).decode()
HEX_KEY = _seed(9).hex()[:32]
SSN = j("536-", "90-", "4399")

# A password for a place or a thing, a preposition between the word and its value: the head
# alone refused these, the keyword line must read them.
PASSWORDS_FOR_A_PLACE: tuple[tuple[str, str], ...] = (
    ("de-password-for-office", "Das Passwort für das Büro ist Kiwi2024Moss!"),
    ("fr-password-at-home", "mon mot de passe à la maison est Lotus58Comet#"),
    ("it-password-for-wifi", "la password per il wifi di casa è Kiwi19Moss!"),
    ("nl-password-for-router", "het wachtwoord voor de router is Kiwi17Moss!"),
    ("es-password-for-bank", "mi contraseña para el banco es Kiwi15Moss!"),
    # Found by a probe over HTTP: a possessive and a noun, or a pronoun and a verb, between.
    ("it-password-of-my-computer", "La password del mio computer è girasole88."),
    ("pt-password-of-my-bank", "A senha do meu banco é tartaruga55."),
    ("de-password-for-my-laptop", "Das Kennwort für mein Laptop lautet Sonnenblume7."),
    ("zh-password-i-set", "服务器的 ssh 私钥密码我设成了 hello-world-2025，别忘了"),
    ("en-code-to-open-the-door", "btw the code to open the office door is 4471, remember it"),
)

# A SIM's PUK, a phone's unlock code, a card's code, a code sent "to you", an online-banking TAN:
# all of them were stored (no word of the keyword line named them, or a Latin word written
# against Han, Kana or Hangul was not read as a word).
CODES_OF_A_PHONE_OR_A_CARD: tuple[tuple[str, str], ...] = (
    ("en-puk", "SIM PUK code: 12345678"),
    ("en-puk-for-sim", "the PUK for my SIM is 83920174"),
    ("de-puk", "Die PUK lautet 12345678"),
    ("fr-puk", "code PUK : 12345678"),
    ("es-puk", "el PUK de la SIM es 12345678"),
    ("it-puk", "il PUK della SIM è 12345678"),
    ("ru-puk", "PUK-код сим-карты 12345678"),
    ("zh-puk", "SIM卡PUK码 12345678"),
    ("ko-puk", "PUK 코드: 12345678"),
    ("ja-pin-code", "SIMのPINコードは 4829"),
    ("zh-pin-latin", "银行卡PIN 4829"),
    ("ko-pin-latin", "유심 PIN번호는 4829"),
    ("en-unlock-code", "my phone unlock code is 258036"),
    ("de-unlock-code", "Entsperrcode vom Handy: 258036"),
    ("fr-unlock-code", "code de déverrouillage du téléphone : 258036"),
    ("es-unlock-code", "el código de desbloqueo del móvil es 258036"),
    ("pt-unlock-code", "o código de desbloqueio do celular é 258036"),
    ("it-unlock-code", "il codice di sblocco del telefono è 258036"),
    ("ru-unlock-code", "код разблокировки телефона 258036"),
    ("ja-unlock-code", "スマホのロック解除コードは 258036"),
    ("ja-passcode", "iPhoneのパスコードは 258036"),
    ("zh-unlock-code", "手机解锁码 2580"),
    ("en-card-code", "the card code is 4829"),
    ("it-card-code", "il codice della carta è 4829"),
    ("fr-card-code", "code de ma CB : 4829"),
    ("en-your-code", "Your code is 482913. Do not share it."),
    ("en-value-is-your-code", "G-482913 is your Google verification code."),
    ("de-your-code", "Ihr Code lautet 482913"),
    ("fr-your-code", "votre code est 482913"),
    ("es-your-code", "tu código es 482913"),
    ("pt-your-code", "seu código é 482913"),
    ("it-your-code", "il tuo codice è 482913"),
    ("ru-your-code", "Ваш код: 482913"),
    ("de-tan", "TAN: 482913"),
    ("de-bike-lock-code", "Fahrradschloss-Code 4829"),
    ("es-clave", "mi clave del banco es 4829"),
    ("pt-lock-secret", "o segredo do cadeado é 4829"),
    ("en-recovery-codes", "recovery codes: 4829-1038, 5521-9087, 7733-1290"),
    ("en-recovery-codes-are", "my GitHub recovery codes are a1b2c-3d4e5 f6g7h-8i9j0"),
)

SECRETS: tuple[tuple[str, str], ...] = (
    # Natural phrasing in a language admission already names.
    ("ko-natural", "비밀번호는 Kiwi21Moss! 입니다"),
    ("ko-natural-ga", "제 비밀번호가 Kiwi83Moss! 입니다"),
    # The keyword spelled out, an emoji before the value.
    ("spelled-out", "p a s s w o r d: Kiwi02Moss!"),
    ("emoji-dog", "密码是🐶Kiwi58Moss!"),
    ("emoji-key", "密码：🔑Kiwi87Moss!"),
    ("emoji-sparkles", "口令为✨Kiwi103Moss"),
    # One-time codes and PINs.
    ("otp-is", "the OTP is 492889"),
    ("pin-is", "my bank card PIN is 4382"),
    ("verification-code", "verification code: 492890"),
    ("pin-chinese-numerals", "取款密码 八八八九"),
    # Keys and secrets that name themselves only in words.
    ("api-key-hex", f"API key is {HEX_KEY}"),
    ("client-secret-base64", f"client secret is {CLIENT_SECRET}"),
    ("totp-seed", f"my authenticator TOTP seed: {TOTP_SEED}"),
    ("seed-phrase-12", f"wallet backup words: {SEED_12}"),
    ("seed-phrase-24-bare", SEED_24),
    ("seed-phrase-zh", f"助记词 {SEED_ZH}"),
    # A Chinese phrase as users type it, not as wallets show it; a labelled phrase mistyped.
    ("seed-phrase-zh-alone", SEED_ZH),
    ("seed-phrase-zh-after-colon", f"我的钱包助记词：{SEED_ZH}，帮我记一下"),
    ("seed-phrase-zh-after-is", f"我的钱包助记词是{SEED_ZH}"),
    ("seed-phrase-zh-run-together", f"助记词{SEED_ZH.replace(' ', '')}"),
    (
        "seed-phrase-mistyped",
        "my wallet recovery phrase is apple river stone cloud tiger lamp ocean violet seven mango"
        " piano frost",
    ),
    ("wif-key", f"btc {WIF_KEY}"),
    ("wif-key-bare", WIF_KEY),
    ("aws-secret-alone", AWS_SECRET),
    ("ssn", f"my SSN is {SSN}"),
    ("ssn-bare", f"SSN {SSN.replace('-', ' ')}"),
    ("intl-phone", "call me at +44 20 7946 0958"),
    ("leetspeak", "p@ssw0rd: Kiwi44Moss!"),
    ("wifi-key", "wifi key is Kiwi300Moss"),
    ("wifi-zh", "家里 wifi 是 kiwi300moss"),
    # The word for password in more languages.
    ("ja", "私のパスワードは Kiwi11Moss! です"),
    ("ru", "мой пароль Kiwi12Moss!"),
    ("de", "Mein Passwort lautet Kiwi13Moss!"),
    ("fr", "mon mot de passe est Kiwi14Moss!"),
    ("es", "mi contraseña es Kiwi15Moss!"),
    ("pt", "minha senha é Kiwi16Moss!"),
    ("nl", "mijn wachtwoord is Kiwi17Moss!"),
    ("pl", "moje hasło to Kiwi18Moss!"),
    ("it", "la mia password è Kiwi19Moss!"),
    ("tr", "şifrem Kiwi20Moss!"),
    ("vi", "mật khẩu của tôi là Kiwi22Moss!"),
    ("th", "รหัสผ่านของฉันคือ Kiwi23Moss!"),
    ("ar", "كلمة المرور هي Kiwi24Moss!"),
    ("hi", "मेरा पासवर्ड Kiwi25Moss! है"),
    ("id", "kata sandi saya Kiwi26Moss!"),
    ("sv", "mitt lösenord är Kiwi27Moss!"),
    ("fi", "salasanani on Kiwi28Moss!"),
    ("cs", "moje heslo je Kiwi29Moss!"),
    ("el", "ο κωδικός μου είναι Kiwi31Moss!"),
    ("he", "הסיסמה שלי היא Kiwi32Moss!"),
    ("uk", "мій пароль Kiwi33Moss!"),
    ("zh-tw", "我的密碼是 Kiwi34Moss!"),
    # The keyword disguised: hex, rot13, small capitals.
    ("hex-keyword", f"{b'password'.hex()}: Kiwi35Moss!"),
    ("rot13", codecs.encode("my password is Kiwi36Moss!", "rot13")),
    ("small-capitals", "ᴘᴀssᴡᴏʀᴅ: Kiwi37Moss!"),
    # The value first, then what it is.
    ("en-value-as-password", "use Moss714Kiwi$ as the password for the NAS"),
    ("en-value-as-admin-password", "set Tiger552Moss@ as the admin password"),
    ("zh-value-as-password", "把 Lotus88Comet! 作为路由器密码"),
    # Door, gate, alarm and safe codes: the English "door code" was listed, the others were
    # stored (a bare number names no secret unless a code's word is said).
    ("es-door-code", "el código de la puerta es 482913"),
    ("fr-door-code", "le code de la porte est 4829"),
    ("fr-digicode", "digicode de l'immeuble : 4829"),
    ("de-door-code", "der Türcode ist 4829"),
    ("de-code-for-door", "der Code für die Haustür ist 4829"),
    ("pt-gate-code", "o código do portão é 4829"),
    ("it-gate-code", "il codice del cancello è 4829"),
    ("es-safe-combination", "la combinación de la caja fuerte es 31-07-19"),
    ("ru-intercom-code", "код от домофона 4829"),
    ("de-alarm-code", "Alarmcode: 4829"),
    ("fr-alarm-code", "code alarme 4829"),
    ("nl-door-code", "de deurcode is 4829"),
    ("en-safe-combination", "the safe combination is 31-07-19"),
    ("en-lock-combination", "the combination to my bike lock is 4829"),
    ("en-entry-code", "the entry code for the building is 4829"),
    ("en-code-to-door", "the code to the front door is 4829"),
    ("zh-door-opening-code", "车库门的开门码是 4829"),
    ("zh-lock-code", "门锁的开锁码是 4829"),
    *PASSWORDS_FOR_A_PLACE,
    # Found by a second probe over HTTP.
    ("zh-cvv", "信用卡的 CVV 是 372"),
    ("en-garage-opener-code", "our garage door opener code = 0915"),
    ("en-safe-combo", "the safe combo is 12-34-56"),
    ("de-geheimzahl", "Meine Geheimzahl ist 9182."),
    ("zh-pickup-code", "快递柜取件码 663201"),
    ("es-quoted-password", "Mi contraseña es 'mariposa' en minúsculas."),
    *CODES_OF_A_PHONE_OR_A_CARD,
)

# Home and office hardware named by its model number: durable facts, none of them a secret,
# and none in the meaning head's training set.
DEVICES: tuple[tuple[str, str], ...] = (
    ("zh-nas", "用户家里的 NAS 是群晖 DS920+，用来备份照片。"),
    ("en-drone", "User's drone is a DJI Mavic3 for travel videos."),
    ("en-keyboard", "The user's keyboard is a Keychron K8Pro."),
    ("zh-gpu", "用户的显卡是 RTX4090，用来跑本地模型。"),
    ("en-laptop", "User's laptop is a ThinkPad X1C9 used for work."),
    # The head read these two as logins until devices (and logins without a secret's word) were
    # added to its set (docs/secrets.md, "Devices named by their model numbers").
    ("en-nas", "The user's home NAS is a Synology DS920+ used for photo backups."),
    ("en-router", "User's router is a TP-Link AX1800 in the study."),
)

LOOK_ALIKES: tuple[tuple[str, str], ...] = (
    # "tor" (a gate) ends "Motor": an engine's code is no door's.
    ("de-engine-code", "Der Motorcode ist 4829"),
    # A password manager is a product, a NAS's model number no secret.
    (
        "en-password-manager-on-nas",
        "The user's password manager is Bitwarden, self-hosted on a NAS DS920+.",
    ),
    ("zh-password-manager-on-nas", "我的密码管理器是 Bitwarden，部署在群晖 DS920+ 上。"),
    ("en-quoted-name", "The password field is labelled 'Kennwort' in the German UI."),
    (
        "zh-seed-kept-safe",
        "用户把助记词抄在纸上，锁在家里的保险柜里，从不拍照也不存在电脑上，出门旅行时也不带着它走。",
    ),
    (
        "en-seed-kept-safe",
        "The user keeps the seed phrase on paper in a safe at home and never types it anywhere.",
    ),
    ("en-seed-the-database", "We seed the database with test data for the demo next week."),
    ("zh-forgot", "我忘了密码怎么办"),
    ("en-pin-pad", "the PIN pad was broken"),
    ("zh-no-code", "验证码一直收不到"),
    ("en-managers", "password managers are useful"),
    ("zh-otp-design", "OTP 登录流程怎么设计"),
    ("en-otp-length", "the OTP is six digits long"),
    ("zh-pin-rule", "银行卡密码是 6 位数字"),
    ("en-api-key-rotate", "API keys should be rotated every 90 days"),
    ("zh-wifi-slow", "家里的 wifi 网速很慢，路由器是 TP-Link AX3000"),
    ("en-iphone", "I bought an iPhone15 Pro for my mom in 2024"),
    ("zh-order", "订单号 202312345678 已经发货"),
    ("en-version", "we upgraded Python to 3.11.9 last week"),
    ("ko-forgot", "비밀번호를 잊어버렸어요"),
    ("ja-reset", "パスワードを再設定する方法を教えて"),
    ("de-policy", "Das Passwort muss mindestens 12 Zeichen haben"),
    ("en-seed-talk", "a seed phrase should never be typed into a website"),
    # A code that opens nothing, or a door code talked about without being given.
    ("en-door-code-changed", "the door code was changed in 2023"),
    ("en-building-code", "the building code requires two exits"),
    ("es-postal-code", "el código postal es 28013"),
    ("fr-postal-code", "le code postal est 75001"),
    ("en-area-code", "the area code is 0592"),
    ("en-dress-code", "the dress code at the entrance is smart casual"),
    ("fr-highway-code", "le code de la route a changé en 2024"),
    ("de-door-animation", "der Code für die Tür-Animation liegt in door.js"),
    ("it-gate-code-updated", "il codice del cancello automatico è stato aggiornato nel 2022"),
    ("ru-intercom-code-changed", "код от домофона поменяли в 2023 году"),
    ("de-password-for-office-changed", "Das Passwort für das Büro wurde im März geändert"),
    # A PUK, an unlock code, a card's code or "your code" talked about, or a code of another kind.
    ("en-puk-where", "the PUK is printed on the SIM card holder"),
    ("en-puk-after-pin", "if you enter the wrong PIN three times you need the PUK code"),
    ("en-unlock-code-arrived", "the unlock code from the carrier arrived in 2023"),
    ("en-your-code-lines", "your code is 2000 lines long"),
    ("de-your-code-lines", "Ihr Code ist 2000 Zeilen lang"),
    ("en-your-code-review", "your code is ready for review"),
    ("en-your-order", "your order is 48291038"),
    ("en-error-code", "error code 4829 means the disk is full"),
    ("en-common-pin", "1234 is a common PIN"),
    ("en-password-manager", "1Password is my password manager"),
    ("en-passwords-are", "passwords are 12 characters minimum"),
    ("en-recovery-codes-since", "recovery codes are shown once since 2022"),
    ("es-key-to-success", "la clave del éxito es trabajar"),
    ("es-wifi-key-changed", "la clave del wifi cambió en 2023"),
    ("en-tan", "I got a tan in 2023"),
    ("fr-registration-card", "la carte grise date de 2019"),
    ("es-your-postal-code", "tu código postal es 28013"),
    ("fr-your-postal-code", "votre code postal est 75001"),
    ("es-your-customer-code", "su código de cliente es 48291038"),
    ("es-keyword", "palabra clave: Python3"),
    ("es-key-point-price", "la clave del asunto es el precio de 4829 euros"),
    # A year is a date, also where a code is named: the head refused the first two, the keyword
    # line the last two ("2023년", a year; "del cajero en", read as "del cajer" + "o en").
    ("es-card-code-changed", "el código de la tarjeta cambió en 2025"),
    ("it-wifi-password-changed", "la password del wifi è cambiata nel 2024"),
    ("ko-password-changed", "비밀번호는 2023년에 바꿨어요"),
    ("es-atm-key-changed", "cambié la clave del cajero en 2024"),
    ("en-sim-pin-length", "the SIM PIN is 4 digits"),
)

# Found by a third probe over HTTP, all stored: a key after a noun phrase ("for the weather
# service") or the German word for it, a Wi-Fi password with no secret's word but what it opens,
# a PIN said by what it does, the Spanish "contra", the Mexican "NIP", the Arabic "secret
# number" (a PIN); and, from the notes of an earlier probe, a brand name between the word and
# its value and a door code ending in a letter.
THIRD_PROBE: tuple[tuple[str, str], ...] = (
    ("en-api-key-for-a-service", f"My API key for the weather service is {HEX_KEY}."),
    (
        "de-api-schluessel",
        f"Für alle künftigen Deployments bitte den API-Schlüssel {HEX_KEY} verwenden.",
    ),
    (
        "en-wifi-at-a-place",
        "The wifi at my parents' house is LaCasaAzul2019, network name Casa-5G.",
    ),
    ("zh-pin-by-use", "银行卡取钱的时候输 382917 就行"),
    ("es-contra", "Mi usuario es jlopez y la contra es Hk7$wQ2z"),
    ("es-mx-nip", "El NIP de mi tarjeta es 4829."),
    ("ar-secret-number", "الرقم السري لبطاقة الصراف الآلي هو 4829"),
    ("ar-password-of-the-router", "كلمة المرور الخاصة بالراوتر هي falcon-9-desert"),
    ("fr-brand-between", "Mon mot de passe Gmail est Soleil42x"),
    ("fr-brand-between-dashed", "Mon mot de passe Gmail est soleil-bleu-42"),
    ("it-brand-between", "La password Netflix è girasole88"),
    ("en-door-code-letter", "the door code is 4471B"),
    ("fr-door-code-letter", "le code de la porte est 4471B"),
)

# What the third probe's secrets look like without being one: an algorithm's name, a password
# policy or manager, a network's name (SSID), a device's model number, a version, a ticket, a
# key or a code talked about.
THIRD_PROBE_LOOK_ALIKES: tuple[tuple[str, str], ...] = (
    ("en-ed25519", "User prefers Ed25519 SSH keys over RSA 4096."),
    ("en-ed25519-alone", "The SSH key on the build server is ED25519, added in 2024."),
    ("en-rsa-4096", "User prefers RSA-4096 keys for code signing."),
    ("en-curve", "The wallet signs with secp256k1 and the API key is hashed with SHA-256."),
    (
        "en-password-policy",
        "The company password policy requires 14 characters and rotation every 90 days.",
    ),
    (
        "en-password-manager-vault",
        "My password manager is 1Password; I keep the family vault there.",
    ),
    ("de-password-manager", "Mein Passwort Manager ist 1Password 8."),
    ("fr-password-manager", "Mon gestionnaire de mots de passe est KeePassXC 2.7.6."),
    ("en-ssid-fact", "Wi-Fi network name at home is Casa-5G and it runs on channel 36."),
    ("en-ssid-at-a-place", "The wifi at my parents' house is Casa-5G."),
    ("en-wifi-router-at-a-place", "The wifi router at my parents' house is a TP-Link AX1800."),
    ("en-router-model", "User's router is an ASUS RT-AX86U Pro."),
    ("en-version", "Release v2.14.0-rc.3 is scheduled for Thursday."),
    ("en-ticket", "Jira ticket PAY-10293 tracks the refund bug."),
    ("en-api-key-where", "The API key for the weather service is in Vault since 2024."),
    ("en-api-key-header", "The API key goes in the X-API-Key header."),
    ("de-api-schluessel-rotated", "Den API-Schlüssel rotieren wir seit 2023 jedes Quartal."),
    ("es-contra-against", "Votó en contra de la propuesta 2024B."),
    ("zh-withdraw-amount", "银行卡取钱的时候输 2000 块就行"),
    ("zh-withdraw-talk", "取钱的时候输错了三次密码，卡被吞了"),
    ("ar-pin-length", "الرقم السري يتكون من 4 أرقام"),
    ("en-door-code-talk", "the door code is on the fridge since 2023"),
    ("en-flat-number", "User lives in flat 4471B on the fourth floor."),
    ("en-windows-key-where", "User keeps the Windows license key in the Microsoft account."),
)

# An assistant asks for a secret; the user's answer is the secret.
ASKED = ("What password should I remember for your router?", "Remember it: Kiwi201Moss!")
ASKED_ZH = ("你家路由器的密码要我帮你记下来吗？", "记一下：Kiwi202Moss!")
# The answer is the secret in plain words, or comes a turn later (found by a probe over HTTP:
# each was "no_effect", never "rejected").
ANSWERED_IN_WORDS: tuple[tuple[str, ...], ...] = (
    ("What's your home Wi-Fi password?", "correct horse battery staple"),
    ("你家 wifi 密码是多少？我帮你记下来", "月亮湾的猫"),
    ("邮箱密码是什么？", "是 sunflower"),
    ("What's the database password?", "one sec", "ok", "it's dolphin-7-river"),
)
# The same, asked in more languages and ways (a third probe: each was "no_effect", nothing
# refused it): Japanese without a question mark, Arabic with its own ("؟"), backup codes in
# dashed groups of digits, the Mexican NIP, a code the bank texted.
ASKED_IN_MORE_WAYS: tuple[tuple[str, ...], ...] = (
    ("Wi-Fiのパスワードを教えてください。", "Sakura2024!です"),
    # "do you use" asks for the PIN here ("Which password manager do you use?" names a manager).
    ("What PIN do you use for your debit card? I'll remind you when you forget.", "4829"),
    ("ما هي كلمة المرور الخاصة بالراوتر؟", "falcon-9-desert"),
    ("ما هي كلمة المرور الخاصة بالراوتر؟", "falcon-9-desert، وسأستخدمها دائمًا."),
    ("Can you paste the 2FA backup codes so I don't lose them?", "8264-1937 5502-7781 3390-1146"),
    ("¿Cuál es el NIP de tu tarjeta?", "es el 4829"),
    ("¿Cuál es el NIP de tu tarjeta?", "Es el 4829, el mismo de siempre."),
    ("What code did the bank just text you?", "582019"),
    ("Did you get a code by SMS?", "yes, 582019"),
    ("What's the licence key for your Office install?", "Remember it: QX9-7731-LKM2"),
    ("Wie lautet dein WLAN-Passwort?", "Sonnenblume77"),
    # One part of the question asks about a thing, the other for the secret.
    ("What's the Wi-Fi called and what's the password?", "correct horse battery staple"),
    ("Tell me your username and password", "lily and sunflower"),
    ("Какой пароль от почты?", "ромашка1987"),
    ("현관 비밀번호가 뭐예요?", "1379에 별표요"),
)

# Questions *about* a secret, not for it: which manager, where it is kept, how often it changes,
# what the network is called. The answers are ordinary (the third probe found the first five
# refused: every clause that named a secret was read as asking for it).
ASKED_ABOUT: tuple[tuple[str, ...], ...] = (
    ("Which password manager do you use?", "1Password, the family plan."),
    ("パスワードの管理には何を使っていますか？", "Bitwardenを使っています。"),
    ("你的密码一般用什么工具管理？", "用 1Password，全家共享。"),
    ("Wo bewahrst du dein WLAN-Passwort auf?", "Auf einem Zettel am Kühlschrank."),
    ("What's your home wifi network called?", "Casa-5G, the 2.4 GHz one is Casa."),
    ("What's the name of your wifi?", "Casa-5G"),
    ("你家 wifi 叫什么名字？", "Casa-5G"),
    ("Do you use a password manager?", "Yes, Bitwarden, self-hosted."),
    ("How often do you change your passwords?", "Every three months, when the reminder pops up."),
    ("Où ranges-tu tes mots de passe ?", "Dans KeePassXC, synchronisé avec Nextcloud."),
    (
        "How long should passwords be in your company's policy?",
        "At least 14 characters, rotated every 90 days.",
    ),
    ("What's your preferred 2FA method?", "A YubiKey 5C NFC, with TOTP as backup."),
    ("¿Dónde guardas tus contraseñas?", "En Bitwarden desde 2021."),
    # Whether one is used, when it expires: "What PIN do you use?" asks, "Do you use a PIN?" not.
    ("Do you use a PIN on your phone?", "Face ID mostly."),
    ("When does your passport expire?", "In May 2031."),
    ("What's your passport's expiry date?", "May 2031"),
    ("What's your order number?", "It's 4471829, from IKEA."),
    ("你的航班号是多少？", "MU5101，明天早上八点。"),
    ("¿Cuál es tu código postal?", "28013, en Madrid."),
    ("What ticket tracks the refund bug?", "PAY-10293, I'm the owner."),
)

# An assistant asks for a personal number (a passport, an account, a social security number…):
# an answer holding a number is a personal identifier, whatever its shape (the third probe: each
# was "no_effect", and with "keep it for all future bookings" it was stored).
ASKED_FOR_AN_IDENTIFIER: tuple[tuple[str, ...], ...] = (
    ("¿Cuál es tu número de cuenta para la transferencia?", "ES91 2100 0418 4502 0005 1332"),
    (
        "¿Cuál es tu número de cuenta para la transferencia?",
        "Es ES91 2100 0418 4502 0005 1332, úsala siempre para mis reembolsos.",
    ),
    ("Qual é o seu CPF para eu preencher o cadastro?", "123.456.789-09"),
    ("What's your passport number for the booking?", "561234567"),
    (
        "What's your passport number for the booking?",
        "561234567 — keep it for all future bookings.",
    ),
    ("What is your social security number?", "536 22 8714"),
    ("계좌번호 알려주시면 기억해둘게요", "신한 110-123-456789"),
    ("マイナンバーを教えていただけますか？", "123456789018"),
    ("What are the sort code and account number for the refund?", "20-00-00, 55779911"),
    ("Tu veux que je garde ton numéro de sécurité sociale ?", "oui : 1 85 05 78 006 084 91"),
    ("你的回乡证号码是多少？", "H12345678"),
    ("What's your mobile number?", "0171 2345678"),
    ("你的手机号是多少？", "13812345678"),
    ("What's your phone number so the restaurant can call you?", "(415) 555-0134"),
)
# A business's or a place's public line asked for: no personal number (a probe over HTTP found
# these refused).
ASKED_FOR_A_BUSINESS_LINE: tuple[tuple[str, ...], ...] = (
    ("那家餐厅的订位电话是多少？", "021-6288 1234"),
    ("What's the number of that pizza place?", "It's (415) 555-0134, Tony's Pizza."),
    ("What's the phone number of that pizza place?", "It's (415) 555-0134, Tony's Pizza."),
    ("What's the restaurant's phone number?", "(415) 555-0134"),
)

# What a user says instead of giving it: a refusal, a delay, a question back, something else.
NOT_GIVEN: tuple[tuple[str, ...], ...] = (
    ("What's your home Wi-Fi password?", "I'd rather not say."),
    ("你家 wifi 密码是多少？", "我不告诉你"),
    ("你家 wifi 密码是多少？", "忘了，回头再看"),
    ("What's the database password?", "Why do you need it?"),
    ("What's the database password?", "one sec"),
    (
        "What's your home Wi-Fi password?",
        "Never mind that. I am moving to Berlin next month and need a new router.",
    ),
    ("What's the database password?", "no", "OK. Which city do you live in?", "Hangzhou"),
    ("Do you want me to remember your PIN?", "No, never store my PIN. I prefer paying by phone."),
    # A request for a number answered with words, or with a year.
    ("What's your passport number for the booking?", "I'll look it up tonight."),
    ("What's your passport number for the booking?", "It expires in 2031, I need a new one."),
    # An Arabic question of its own closes the request like any other.
    ("What's the database password?", "no", "حسنًا. في أي مدينة تعيش؟", "Hangzhou 2024"),
)
# An assistant asks something ordinary; the user's answer keeps a value that is not a secret.
NOT_ASKED = ("Which phone model do you use?", "Remember it: iPhone15 Pro")

# Memory keys and run ids that carry a secret or an identifier.
SECRET_KEYS = ("wifi.kiwi300moss", "secret.abc123def456")
PLAIN_KEYS = ("device.iphone15", "preference.answer_language", "wifi.ssid")
SECRET_RUN_IDS = ("run-13912345678", f"job_{with_luhn_digit('622202123456789012')}")
