"""Secrets judged by what a text means and the value it carries.

A list of wordings is always one language or one disguise behind, so the shape checks of
``credentials`` are the fast first line and this module is the second:

1. a value that is a secret by its own structure is refused whatever surrounds it (``values``:
   a seed phrase, a WIF key, an AWS secret key, an SSN);
2. a text holding no value that is unlike ordinary language (``values.value_candidates``) is
   admitted here without more work — most texts, so most writes never pay for the model;
3. the word for a password, a code or a key, in any of the languages listed below, followed
   closely by such a value is refused (the cheap line: no model);
4. otherwise the bundled multilingual-e5-small reads the text and a small logistic head
   (``secret_head.npz``, trained by ``manage.py train_secret_head`` on
   ``memories/admission/data/secrets.jsonl``) says whether it talks about a credential, a
   code or a key; if it does, the value it carries makes it a secret.

Every check reads a few views of the text that undo one disguise each: emoji and symbols
between a keyword and its value dropped, small capitals and leetspeak made letters, words
spelled out joined, Chinese numerals made digits, a hex-encoded or rot13 keyword decoded.

``find_meant_secret(text, answers=asked_for(question))`` judges a user's answer to an assistant
turn that asked for a secret ("What password should I remember?" → "Remember it: …") or a
personal number ("What's your passport number?" → "561234567"); a question *about* one ("Which
password manager do you use?") or for a business's public line ("What's the restaurant's phone
number?") asks for nothing.
"""

from __future__ import annotations

import codecs
import re
import unicodedata
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Final

from memories.admission.credentials import _is_placeholder
from memories.admission.identifiers import business_line
from memories.admission.normalize import despace, fold, fold_confusables, map_chinese_numerals
from memories.admission.values import self_evident_secret, value_candidates

__all__ = [
    "HEAD_PATH",
    "asked_for",
    "find_meant_secret",
    "meaning_views",
    "talks_about_secret",
]

HEAD_PATH: Final = Path(__file__).with_name("secret_head.npz")

# The word for a password, a PIN, a one-time code, a key, in the languages users write in and
# the ones the bundled model reads best. Leetspeak letters are accepted inside the Latin words.
_A, _O, _S, _E, _I = "[a@4]", "[o0]", "[s$5]", "[e3]", "[i1!]"
# A short Latin word is one only between non-Latin characters, which may be Han, Kana or Hangul
# ("SIM卡PUK码", "SIMのPINコード", "PIN번호"): ``\b`` sees no edge between "的" and "PIN".
_LATIN_START, _LATIN_END = r"(?<![0-9a-z\u00c0-\u024f])", r"(?![0-9a-z\u00c0-\u024f])"
# What a code or a combination opens (English, Spanish, French, Portuguese, Italian, German,
# Dutch, Russian), and the words for the code itself. A phone's lock and a bank card open too:
# "unlock code", "código de desbloqueo", "код разблокировки", "the card code", "code de ma CB".
_OPENED: Final = (
    r"door|gate|garage|opener|safe|alarm|keypad|lock|padlock|locker|entry|entrance|unlock|card"
    r"|d[ée]verrouillage|desbloqueo|desbloqueio|sblocco|разблокировк\w*"
    r"|tarjeta|cart[aã]o|carta|carte|cb|bancomat|карт\w*"
    r"|puerta|port[oó]n|portal|alarma|caja\s+fuerte|candado|garaje|port[aã]o|porta|alarme|cofre"
    r"|cadeado|porte|portail|entr[ée]e|immeuble|coffre(?:-fort)?|cadenas|cancello|portone|allarme"
    r"|cassaforte|lucchetto|haust[üu]r|t[üu]r|tor|tresor|alarmanlage|schloss|zahlenschloss|deur"
    r"|poort|kluis|домофон\w*|двер\w*|подъезд\w*|сейф\w*|сигнализаци\w*|замк\w*|замок|ворот\w*"
)
_OPENED_COMPOUND: Final = (
    r"t[üu]r|haust[üu]r|tor|alarm|tresor|zugangs|entsperr|schloss|deur|poort|toegangs|kluis"
)
_CODE_WORD: Final = (
    r"code|c[oó]digo|codice|код|combination|combinaci[oó]n|combinaison|combinazione|combinação"
)
_SECRET_WORDS: Final = (
    rf"p{_A}{_S}{_S}(?:w{_O}rd|phr{_A}{_S}{_E}|c{_O}d{_E}|wd)|pwd|passwort|kennwort|geheimzahl"
    r"|mot\s+de\s+passe|contrase[nñ]a|senha|wachtwoord|has[lł]o|parola|şifre|sifre|segre[dt]o"
    r"|m[aậ]t\s+kh[aẩ]u|kata\s+sandi|lösenord|losenord|adgangskode|passord|salasana|heslo"
    r"|jelsz[oó]|κωδικ[οό]ς|συνθηματικ|пароль|паролі|סיסמ|كلمة\s+(?:المرور|السر)|رمز\s+عبور"
    r"|पासवर्ड|रहस्य|รหัสผ่าน|รหัส|パスワード|パスコード|ロック解除コード|暗証番号|暗號|暗号"
    r"|비밀번호|비번|암호|패스워드"
    r"|密\s*[码碼]|口\s*令|[验驗]\s*[证證]\s*[码碼]|校验码|动态码|取款码|解锁码|取件码|提货码|助记词|私钥|密钥|秘钥"
    r"|令牌"
    r"|認証コード|確認コード|인증\s*번호|код\s+подтверждения|пин(?:-код)?|bestätigungscode"
    r"|code\s+de\s+vérification|c[oó]digo\s+de\s+verifica\w*|codice\s+di\s+verifica"
    r"|doğrulama\s+kodu|mã\s+xác\s+nhận|kode\s+verifikasi|verificatiecode|kod\s+weryfikacyjny"
    r"|رمز\s+التحقق|ओटीपी|backup\s+code"
    # The Arabic "secret number" or "secret code" (a PIN); the Spanish "contra" (contraseña),
    # only as "la/mi contra" — "en contra de" is "against".
    r"|(?:الرقم|الرمز)\s+السري|رقم\s+التعريف\s+الشخصي|(?<!\w)(?:la|mi|tu|su)\s+contra(?!\w)"
    # A PIN said by what it does: "取钱的时候输 382917", "付款时输入 …".
    r"|(?:取钱|取款|提款|刷卡|付款|支付|开门|开锁|解锁)[^\n，。,.;；]{0,8}?(?:输入?|按)"
    # A SIM's PUK; a German bank's TAN (in capitals: "tan" is a colour); the Spanish "clave"
    # (not a "palabra clave", a keyword).
    rf"|{_LATIN_START}(?:pw|otp|pin|puk|2fa|totp|cvv|cvc|(?<!palabra\s)(?<!palabras\s)clave"
    r"|(?-i:(?:push|sms|chip|m)?TAN)"
    # The Mexican PIN (in capitals: "nip" is an English word).
    r"|(?-i:NIP|Nip))"
    rf"{_LATIN_END}|one[\s\-]?time\s+(?:pass)?code"
    r"|verification\s+code|security\s+code|auth(?:entication)?\s+code|access\s+code"
    # A key in other languages ("API-Schlüssel", "clé API", "APIキー"), a product's licence key.
    r"|api[\s_\-]?(?:key|schl[üu]ssel|キー|키)|(?:cl[ée]|clave|chiave|chave|ключ)\s+(?:d['’]\s*"
    r"|de\s+(?:la\s+)?|da\s+|della\s+)?api(?![a-z])|(?:privater?|geheimer?)\s+schl[üu]ssel"
    r"|(?:product|licen[cs]e|activation|registration|serial)\s+key|licen[cs]e\s+code"
    r"|produktschl[üu]ssel|lizenzschl[üu]ssel|cl[ée]\s+de\s+(?:produit|licence)"
    r"|clave\s+de\s+(?:producto|licencia)|プロダクトキー|ライセンスキー|产品密钥|激活码|注册码"
    r"|secret(?:\s+key)?|client[\s_\-]?secret|access[\s_\-]?key|private[\s_\-]?key"
    r"|seed(?:\s+phrase)?|recovery\s+(?:phrase|code|key)|mnemonic|(?<!\w)token"
    r"|wi[\s\-]?fi(?:\s+(?:key|code))?|wlan|wpa2?"
    # A code said to be the reader's, as a forwarded text message says it, the value right
    # after: "Your code is …", "votre code est …", "il tuo codice è …", "Ваш код: …" — not "tu
    # código postal es …", "your code for the project is …".
    r"|(?<!\w)(?:your|votre|ton|tu|su|seu|teu|tuo|suo|ihr|dein|ваш|твой)\s+"
    rf"(?:{_CODE_WORD})s?(?=\s*(?:(?:is|are|was|est|es|é|è|ist|lautet)\s|:|\d))"
    # What opens a door, a gate, a safe, an alarm, a phone or a card: "door code", "código de la
    # puerta", "Türcode", "Fahrradschloss-Code", "код от домофона", "the combination to my bike
    # lock"; Russian may name it in the genitive, without a preposition ("код разблокировки").
    rf"|(?<!\w)(?:{_OPENED})\s+(?:code|combination|combo)|门禁码|开门码|开锁码|门锁码|保险柜密码"
    rf"|(?<![^\W\d_])(?:[^\W\d_]*(?:haus|garagen|hof|einfahrts|fahrrad|zahlen))?"
    rf"(?:{_OPENED_COMPOUND})-?code\b|digicode|code\s+(?:alarme|portail|porte|immeuble)(?!\w)"
    rf"|(?:(?:{_CODE_WORD})\s+(?:(?:to|for|of|de|del|do|da|della|dell['’]|du|d['’]|für|der|des"
    r"|die|das|den|dem|zur|zum|von|от|для|van|voor|la|l['’]|el|the|my|our|your|mon|ma|mi|mia|mio"
    r"|il|di|open|opens|opening|unlock|öffnen|ouvrir|abrir|aprire|открыть)\s*){1,3}|код\s+)"
    rf"(?:\S+\s+)?(?:{_OPENED})(?!\w)"
)
_SECRET_WORD_RE: Final = re.compile(_SECRET_WORDS, re.IGNORECASE)
# What a secret's word may name instead of the secret, right after it: a manager, a policy, the
# network a Wi-Fi word names, a method ("password manager", "wifi network", "2FA method",
# "パスワードの管理", "密码管理器", "Passwort Manager").
_OTHER_THING: Final = (
    r"managers?|management|vaults?|keepers?|apps?|tools?|generators?|polic(?:y|ies)|rules?"
    r"|requirements?|length|strength|complexity|resets?|changes?|rotation|expiry|fields?|boxe?s?"
    r"|prompts?|pages?|screens?|forms?|networks?|names?|ssids?|routers?|signal|speed|connection"
    r"|methods?|hash(?:es|ing)?|pads?|readers?|limits?|budgets?|counts?|usage|feld|netz(?:werk)?"
    r"|richtlinien?|regeln?|verwaltung|管理|策略|规则|規則|长度|長度|强度|強度|名称|名稱|名字|网络|網路"
    r"|重置|マネージャー|ポリシー|名前|관리|정책|이름"
)
_NAMES_OTHER_THING_RE: Final = re.compile(
    rf"[\s\-_]*(?:の|的)?\s*(?:{_OTHER_THING})(?![a-z])", re.IGNORECASE
)
# Between the word and its value: a short stretch without a sentence end ("PIN for the card
# is", "비밀번호는", "de ma banque est").
_GAP_RE: Final = re.compile(r"[^\n。！？!?；;,，]{0,30}")
# Between the word and its value only what says "is": a verb, a separator, a particle, a
# possessive, "for the router" — "the OTP is 492889", "비밀번호는 …", "取款密码 8889" — not
# "password manager is 1Password" or "密码策略从 2024 年开始".
_CONNECTOR_RE: Final = re.compile(
    # A short inflection of an alphabetic word ("şifrem", "salasanani"), never Han: "密码管理器是"
    # is a password manager, not a password.
    r"(?:(?![\u3400-\u9fff])[^\W\d_]){0,3}"
    r"(?:\s|码|碼|:|=|-|\"|'|‘|“|「|«|»|是|为|為|は|는|은|이|가|の|です|is|was|are|sind|sont|son|são|sono"
    r"|:|#|no\.?|number|code|код|kod|kodu|código|codice|コード|코드|번호|lautet|ist|est|es|é|è|to"
    r"|är|on|je|είναι|היא|هي|هو|là|คือ|ของ\S*|adalah"
    r"|saya|mine|μου|שלי|của\s+tôi|我的|我|的|de|du|da|di|do|del|della|of|for|at|der|meiner"
    r"|meines"
    r"|(?:my|ma|mi|mon|minha|meu|mio|mia|mein|meine|meinem|meinen|la|le|el|o|il|the|a|an|your"
    r"|our|das|dem|den|die|les|los"
    r"|las|lo|het|di|de|da|do|du|of|del|della|dello|dell['’]|dei|delle|vom|от|для)"
    # … and what it determines, in one or two words: "for the weather service", "at my parents'
    # house" — the second no preposition ("del cajero en 2024" says when, not what).
    r"\s+\S+(?:\s+(?!(?:in|en|em|on|at|since|seit|depuis|desde|nel|im|am|dans|from|by|with"
    r"|until|bis|jusqu|hasta|até)(?!\w))\S+)?(?!\S)"
    # A brand named between the word and "is", in capitals: "mot de passe Gmail est", "password
    # Netflix è" — not a thing the word names instead ("Passwort Manager ist").
    rf"|(?!(?:{_OTHER_THING})(?![a-z]))(?-i:[A-Z][\w\-]*|i[A-Z][\w\-]*)(?!\S)"
    # Arabic: a word with "li-"/"bi-" (for, of) or the article ("لبطاقة الصراف الآلي").
    r"|[لب]\S+|ال\S+"
    # A preposition before what the password is for: "für das Büro", "à la maison", "per il".
    r"|für|pour|para|per|voor|för|à|au|na|dla"
    r"|sim|сим|карты|karte|carte|tarjeta|cartão|card|the|new|now|改成了?|改为了?|设为了?|设成了?|设置[为成]了?|换成了?|就是)*"
    r"\s*",
    re.IGNORECASE,
)
# A number followed by a unit is a rule or a count, not a code: "6 位", "12 characters".
_UNIT_AFTER_RE: Final = re.compile(
    r"\s*(?:位|个|個|次|天|年|月|日|号|號|岁|元|块|分钟|小时|秒|桁|円|回|년|월|일|자리|번|개|원|%"
    r"|digits?|characters?|chars?|days?|years?|times?|minutes?|hours?|seconds?|ziffern|zeichen"
    r"|caract"
    # The length of a program ("your code is 2000 lines long"), a price.
    r"|lines?|zeilen|lignes|l[íi]neas|righe|linhas|строк|bytes?|euros?|dollars?|€|\$|yen|руб)",
    re.IGNORECASE,
)

# An assistant asking for a secret: the word, and a question or a request — with a question
# mark (Arabic has its own, "؟") or without one ("Wi-Fiのパスワードを教えてください。", "계좌번호
# 알려주시면 기억해둘게요").
_ASKING_RE: Final = re.compile(
    r"[?？؟]|\b(?:what|which|tell|give|send|share|type|enter|provide|remember|note|paste)\b"
    # Japanese 何 ("what"), not the Chinese 如何, 任何 ("how", "any").
    r"|告诉|提供|发给|发我|输入|记下|记住|是多少|是什么|多少|什么|教えて|聞かせて|(?<![如任为為几幾])何"
    r"|なに|ですか|ますか|ください|どうぞ|お願い|알려|말해|뭐|무엇|주세요"
    # The interrogatives, not the conjunctions ("qué", not "que": "te recuerdo que tu PIN…").
    r"|(?<!\w)(?:cu[aá]l|qué|quel(?:le)?|qual|wie\s+lautet|welche[nrs]?|dime|dimmi|dis-moi"
    r"|donne|какой|какая|какое|скажи|ما|ماذا|أعطني|là\s+gì|apa|berapa)(?!\w)",
    re.IGNORECASE,
)
# A question about a secret rather than for it: where it is kept, how or how often it changes,
# with what tool, what a network is called ("Wo bewahrst du dein
# WLAN-Passwort auf?", "How often do you change your passwords?", "你的密码一般用什么工具管理？",
# "What's your home wifi network called?"). "How about the PIN?" and "Wie lautet …?" ask for it.
_ASKS_ABOUT_RE: Final = re.compile(
    r"\b(?:where|how(?!\s+about)|whether|called|named|name\s+(?:of|on)|date)\b"
    # Whether one is used or had (a question that starts so: "What PIN do you use?" asks for
    # it), when it expires, whether it was reset or forgotten: "Do you use a PIN on your
    # phone?" is answered "Face ID mostly".
    r"|^\W*(?:(?:do|does|did)\s+(?:you|it|they)\s+(?:use|have|need)|(?:is|are)\s+there)\b"
    # ("… so you don't forget it" asks for it: only the past "forgot" is asked about).
    r"|\b(?:reset|rotat\w*|expir\w*|forgot(?:ten)?)\b"
    r"|有没有|用不用|过期|忘了吗|忘记了吗|重置|ありますか|使っていますか|있어요|있나요"
    r"|\bwhen\s+(?:do|did|does|should|will|would|was|were|is|are)\b"
    r"|(?<!\w)(?:wo|wohin|womit|wann|wie\s+(?:oft|lange|viele|sicher|verwaltest|speicherst"
    r"|bewahrst|merkst|änderst|heißt)|où|comment|quand|dónde|donde|cómo|cuándo|onde|como"
    r"|quando|dove|come|где|как|когда|чем)(?!\w)"
    r"|哪里|哪儿|在哪|怎么|如何|多久|多长时间|什么时候|用什么|什么工具|哪个软件|哪款|叫什么"
    r"|どこ|どう(?!ぞ)|何を使|いつ|어디|어떻게|언제",
    re.IGNORECASE,
)
# A code the bank or a service sent: "What code did the bank just text you?", "Did you get a code
# by SMS?" — a one-time code, though no secret's word names it.
_SENT_CODE: Final = (
    r"(?<!\w)code(?!\w)[^.?!\n]{0,30}?(?<!\w)(?:text(?:ed)?|sms|sent|send|e-?mail(?:ed)?"
    r"|got|get|received?)(?!\w)"
)
_ASKED_SECRET_RE: Final = re.compile(rf"{_SECRET_WORDS}|{_SENT_CODE}", re.IGNORECASE)
# A personal number an assistant may ask for (the shapes are ``identifiers``' to know; here the
# question says what the answer is): a passport, a social security or tax number, a bank
# account, a card, a national ID, a mobile number.
_IDENTIFIER_WORD_RE: Final = re.compile(
    r"passport|social\s+security|(?<![a-z])(?:ssn|sin\s+number|iban|cpf|cnpj|aadhaar)(?![a-z])"
    r"|national\s+(?:insurance|id)|id(?:entity)?\s+(?:card\s+)?number|tax\s+(?:id|number)"
    r"|(?:bank\s+)?account\s+(?:number|details)|routing\s+number|sort\s+code|card\s+number"
    r"|driver'?s?\s+licen[cs]e|licen[cs]e\s+number|(?:phone|mobile|cell)\s*(?:number|no\b|#)"
    r"|(?<![A-Za-z])(?-i:DNI|NIE|NIF|CURP|RFC|RG|PAN)(?![A-Za-z])"
    r"|s[ée]curit[ée]\s+sociale|(?<!\w)s[ée]cu(?!\w)|num[ée]ro\s+de\s+(?:compte|passeport"
    r"|carte|t[ée]l[ée]phone|portable)|n[uú]mero\s+de\s+(?:cuenta|pasaporte|tarjeta|seguro"
    r"|identidad|conta|passaporte|cart[aã]o|tel[ée]fono|telefone|celular|m[óo]vil)"
    r"|numero\s+di\s+(?:conto|passaporto|carta|telefono|cellulare)|codice\s+fiscale"
    r"|steuer-?id|steuernummer|kontonummer|sozialversicherungsnummer|ausweisnummer|passnummer"
    r"|handynummer|telefonnummer|номер\s+(?:паспорта|сч[её]та|карты|телефона)|паспорт|снилс"
    r"|(?<!\w)инн(?!\w)|رقم\s+(?:الحساب|جواز\s+السفر|الهوية|البطاقة|الهاتف)|آيبان|ايبان"
    r"|身份证|身份證|身分證|护照|護照|回乡证|回鄉證|通行证|通行證|银行卡|銀行卡|卡号|卡號|银行账号"
    r"|銀行帳號|社保号|手机号|手機號|マイナンバー|個人番号|口座番号|パスポート番号|旅券番号|携帯番号"
    r"|주민등록번호|주민번호|계좌번호|여권번호|외국인등록번호|휴대폰\s*번호|전화번호",
    re.IGNORECASE,
)

_SMALL_CAPITALS: Final = str.maketrans("ᴀʙᴄᴅᴇꜰɢʜɪᴊᴋʟᴍɴᴏᴘꞯʀꜱᴛᴜᴠᴡʏᴢ", "abcdefghijklmnopqrstuvwyz")
# A letter of a script other than Latin (not ASCII, Latin-1, Latin Extended-A/B or Latin
# Extended Additional): rot13 is a disguise of Latin-script text, which may carry accents.
_NOT_LATIN_LETTER_RE: Final = re.compile(r"(?![\u00c0-\u024f\u1e00-\u1eff])[^\W\d_\x00-\x7f]")
_HEX_RUN_RE: Final = re.compile(r"(?<![0-9A-Fa-f])(?:[0-9A-Fa-f]{2}){4,}(?![0-9A-Fa-f])")


# Emoji and pictographs (the usual ranges; ``_symbols_dropped`` then reads categories).
_SYMBOL_CHAR_RE: Final = re.compile("[\u2190-\u2bff\u3200-\u32ff\U0001f000-\U0001faff]")


def _symbols_dropped(text: str) -> str:
    """Emoji and other symbols (So, Sk) removed: "密码是🐶Kiwi…" reads "密码是Kiwi…"."""
    return "".join(
        char for char in text if char.isascii() or unicodedata.category(char) not in ("So", "Sk")
    )


_SPELLED_OUT_RE: Final = re.compile(r"(?<!\S)(?:[^\W\d_] ){3,}[^\W\d_](?![^\W\d_])")


def _letters_joined(text: str) -> str:
    """Letters typed one by one with spaces joined: "p a s s w o r d:" → "password:"."""
    return _SPELLED_OUT_RE.sub(lambda match: match.group().replace(" ", ""), text)


def _hex_decoded(text: str) -> str:
    """Hex runs that decode to printable ASCII words replaced by the words."""

    def decode(match: re.Match[str]) -> str:
        try:
            raw = bytes.fromhex(match.group()).decode("ascii")
        except ValueError:
            return match.group()
        return (
            raw
            if raw.isprintable() and sum(c.isalpha() for c in raw) >= len(raw) - 1
            else match.group()
        )

    return _HEX_RUN_RE.sub(decode, text)


def meaning_views(text: str) -> Iterator[str]:
    """The folded text, then each view that undoes one disguise (only those that differ)."""
    folded = fold(text)
    seen = {folded}
    yield folded
    small = folded.translate(_SMALL_CAPITALS)
    candidates = [
        _symbols_dropped(small) if _SYMBOL_CHAR_RE.search(small) else small,
        despace(small),
        _letters_joined(small),
        fold_confusables(small),
        map_chinese_numerals(small),
        _hex_decoded(small),
    ]
    # rot13 turns only ASCII letters and leaves accented ones as they are ("la mia password è"
    # → "yn zvn cnffjbeq è"), so it is tried on any text whose letters are all Latin; the first
    # Han, Kana, Hangul or Cyrillic letter ends the search and the text pays nothing more.
    if small.isascii() or not _NOT_LATIN_LETTER_RE.search(small):
        rot = codecs.encode(small, "rot13")
        if _SECRET_WORD_RE.search(rot):
            candidates.append(rot)
    for view in candidates:
        if view not in seen:
            seen.add(view)
            yield view


# A lock's combination is written like a date ("31-07-19"), and recovery codes in dashed groups
# of digits ("4829-1038"), which are ordinary language anywhere else: each is a value only where
# a combination or recovery (backup) codes are named.
_COMBINATION_WORD_RE: Final = re.compile(r"combina|kombination|\bcombo\b", re.IGNORECASE)
_COMBINATION_RE: Final = re.compile(r"(?<![\d\-/])\d{1,2}(?:[\-/ ]\d{1,2}){2,3}(?![\d\-/])")
_RECOVERY_WORD_RE: Final = re.compile(r"(?:recovery|backup)\s+codes?", re.IGNORECASE)
_RECOVERY_CODE_RE: Final = re.compile(r"(?<![\d\-])\d{4,5}-\d{4,5}(?![\d\-])")
# A card's security code has three or four digits, fewer than a value needs anywhere else.
_CARD_CODE_WORD_RE: Final = re.compile(r"\bcv[vcn]2?\b|安全码|卡验证码", re.IGNORECASE)
_CARD_CODE_RE: Final = re.compile(r"(?<![\d\-])\d{3,4}(?![\d\-])")
# A word in quotes after a secret's word is the value as typed ("contraseña es 'mariposa'"),
# letters alone or not.
_QUOTED_RE: Final = re.compile(r"['‘“«「\"]([^\s'’”»」\"]{4,40})['’”»」\"]")


# A code ending in a letter ("the door code is 4471B") reads like a size ("5kg", "4K") to the
# value check; after a secret's word it is the code.
_CODE_WITH_LETTER_RE: Final = re.compile(r"(?<![\w.\-])\d{3,8}[A-Za-z](?![\w.\-])")


def _named_values(view: str) -> list[str]:
    """Values that are ordinary language anywhere else, where the word that names them is said:
    a combination, recovery codes, a card's code, a quoted word or a code ending in a letter
    after a secret's word."""
    found = _COMBINATION_RE.findall(view) if _COMBINATION_WORD_RE.search(view) else []
    if _RECOVERY_WORD_RE.search(view):
        found += _RECOVERY_CODE_RE.findall(view)
    if _CARD_CODE_WORD_RE.search(view):
        found += _CARD_CODE_RE.findall(view)
    if _SECRET_WORD_RE.search(view):
        found += [q for q in _QUOTED_RE.findall(view) if not _SECRET_WORD_RE.fullmatch(q)]
        found += _CODE_WITH_LETTER_RE.findall(view)
    return found


def _keyword_then_value(view: str, candidates: list[str]) -> bool:
    """The cheap line: a secret word, a connector, then one of the candidate values; or a
    value said to be one ("use Moss714Kiwi$ as the password", "把 4821 作为密码")."""
    values = candidates
    for word in _SECRET_WORD_RE.finditer(view):
        rest = view[word.end() :]
        gap = _GAP_RE.match(rest)
        reach = gap.end() if gap else 0
        for value in values:
            at = rest.find(value)
            if at < 0 or at > reach or not _CONNECTOR_RE.fullmatch(rest[:at]):
                continue
            if value.isdigit() and _UNIT_AFTER_RE.match(rest[at + len(value) :]):
                continue
            if _a_year(value, rest[:at]):
                continue  # "… is on the fridge since 2023": a date
            return True
    for value in values:
        at = view.find(value)
        if at < 0:
            continue
        end = at + len(value)
        if _SAID_AS_RE.match(view, end) or _SAID_IS_RE.match(view, end):
            return True
    return False


# After a value, what makes it the secret it names: "as the (admin) password", "作为路由器密码".
_SAID_AS_RE: Final = re.compile(
    r"\W{0,2}\s*(?:as(?![a-z])|作为|作為|当作|當作|当成)\s*(?:(?:the|my|your|our|a|an|its|his|her)\s+)?"
    rf"(?:[A-Za-z]+\s+|[\u4e00-\u9fff]{{1,4}}?)?(?:{_SECRET_WORDS})",
    re.IGNORECASE,
)
# … or, ending the clause, whose secret it is: "G-482913 is your Google verification code.",
# "4829 is my PIN" — not "1Password is my password manager", "1234 is a common PIN".
_SAID_IS_RE: Final = re.compile(
    r"\W{0,2}\s*(?:is|are)\s+(?:my|your|our)\s+(?:[A-Za-z]+\s+)?"
    rf"(?:{_SECRET_WORDS})\s*(?:[^\w\s]|$)",
    re.IGNORECASE,
)


# URLs (a password inside one is the connection-string check's) and inline data: not values.
_LINKS_RE: Final = re.compile(r"(?:[A-Za-z][A-Za-z0-9+.\-]*://|data:[\w/+.\-]+;base64,)\S*")
# "0x…" is how hex is written in code and on block explorers: an address, a key id, an error
# code (a private key in it is the keyword line's or ``credentials``' to find). A number after
# "#" is a ticket's, an order's, an issue's ("passport renewal ticket #20241234" was refused by
# the head; a code after its word is the keyword line's).
_ID_SHAPE_RE: Final = re.compile(
    r"#?\d+|[0-9a-f]{7,64}|[0-9A-F]{7,64}|[0-9a-fA-F]{8}(?:-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}"
    r"|0x[0-9a-fA-F]{6,64}"
    r"|(?:id|ID|Id)[:=#]\S+|\S*://\S*"
)


# One word with a digit or two before or after it: a product or a handle (KeePass2, 1Password,
# Python3). A password may look so too, but then only a secret's word before it says so.
_NAME_SHAPE_RE: Final = re.compile(r"[A-Za-z][a-z]+[A-Z]?[a-z]*\d{1,2}[a-z]?|\d{1,2}[A-Z]?[a-z]+")
# What code and configuration are named like: snake_case, kebab-case, CONSTANT_CASE, dotted
# names, camelCase words, timestamps, versions.
_CODE_NAME_RE: Final = re.compile(
    r"[A-Za-z][A-Za-z0-9]*(?:[_\-.][A-Za-z0-9]+)+|[a-z]+[A-Z][a-z]+\d*|\S*\.[a-z]{2,4}"
    r"|\d{4}-\d\d-\d\d[T ]\S*|v?\d+(?:\.\d+)+\S*|[A-Za-z0-9\-]+\(\d*\)?\S*|\S*[?&]\S*=\S*"
)
# A code of 4–8 digits is what a PIN or a one-time code is; longer runs are order numbers,
# timestamps, phone numbers (``identifiers``) and shorter ones are counts.
_CODE_SHAPE_RE: Final = re.compile(r"\d{4,8}")
# Capitals, then digits, then at most a few capitals or a plus: how devices are named.
_MODEL_SHAPE_RE: Final = re.compile(r"[A-Z]{1,5}-?\d{2,5}[A-Z]{0,3}\+?")
# A year after "in", "since", "en", "seit"…: a date ("el código de la tarjeta cambió en 2025").
_YEAR_RE: Final = re.compile(r"(?:19|20)\d\d")
_BEFORE_A_YEAR_RE: Final = re.compile(
    r"(?<!\w)(?:in|since|from|until|by|en|em|desde|depuis|seit|im|nel|dal|dall['’]|в|с|до)\s*$",
    re.IGNORECASE,
)


def _strong(value: str, view: str) -> bool:
    """A value the model may judge: not an id's shape, a name's, or a number with its unit; a
    number only where a code's word is said (limits, prices and scores are numbers too)."""
    if _CODE_SHAPE_RE.fullmatch(value):
        at = view.find(value)
        if _a_year(value, view[:at]):
            return False
        return not _UNIT_AFTER_RE.match(view[at + len(value) :]) and _names_a_code(view)
    value = value.removesuffix("'s")
    if len(value) < 6 or "/" in value or _CODE_NAME_RE.fullmatch(value):
        return False
    if _CODE_WITH_LETTER_RE.fullmatch(value):  # a code after its word, the keyword line's
        return False
    if _MODEL_SHAPE_RE.fullmatch(value):  # a device's model number: DS920+, RTX4090, AX1800
        return False
    return not (_ID_SHAPE_RE.fullmatch(value) or _NAME_SHAPE_RE.fullmatch(value))


def _names_a_code(view: str) -> bool:
    """A secret's word other than "token" (whose numbers are limits: "token 的上限是 8192")."""
    return any(
        not word.group().lower().startswith("token") for word in _SECRET_WORD_RE.finditer(view)
    )


# A key's or a hash's algorithm names a kind of key, never one: "Ed25519 SSH keys over RSA 4096"
# (the head refused it), "secp256k1", "AES-256-GCM", "SHA-256".
_ALGORITHM_RE: Final = re.compile(
    r"(?:ed25519|ed448|x25519|x448|curve25519|secp\d{3}[kr]1|prime256v1|nistp\d{3}|p-?(?:256|384|521)"
    r"|rsa-?\d{3,5}|dsa-?\d{3,4}|ecdsa(?:-sha2)?(?:-nistp\d{3})?|aes-?\d{3}(?:-[a-z]{3})?"
    r"|sha-?\d{1,3}|sha3-\d{3}|blake2[bs]?(?:-\d+)?|chacha20(?:-poly1305)?|poly1305|hmac-sha-?\d+"
    r"|md5|argon2(?:id|i|d)?|pbkdf2(?:-sha\d+)?)",
    re.IGNORECASE,
)
# A Wi-Fi network's name (SSID) by its band: "Casa-5G", "TP-LINK_5G", "Home_2.4GHz".
_SSID_SHAPE_RE: Final = re.compile(r"\S+[_\-](?:2\.?4|5|6)G(?:hz)?(?:[_\-]\w+)?", re.IGNORECASE)


def _not_a_value(value: str) -> bool:
    """A placeholder, an environment reference, an algorithm's or a network's name."""
    if value.lower().startswith("data:"):  # an inline image, cut out as noise
        return True
    if _ALGORITHM_RE.fullmatch(value) or _SSID_SHAPE_RE.fullmatch(value):
        return True
    return _is_placeholder(value) or _is_placeholder(value.strip("<>${}%"))


_CLAUSE_RE: Final = re.compile(r"[^.。!！?？؟;；,，\n]+[.。!！?？؟;；,，]?")


# Parts of a clause joined by "and": "What's the Wi-Fi called and what's the password?" asks
# about one thing and for another, "Tell me your username and password" for both.
_AND_RE: Final = re.compile(r"\s+(?:and|but|und|aber|et|mais|y|pero|e|ma|и|но)\s+", re.IGNORECASE)


def _asks_for(
    clause: str, words: re.Pattern[str], *, names_other: Callable[[str, int], bool] | None = None
) -> bool:
    """The clause asks, and one part of it names what ``words`` name — itself, not a manager, a
    policy or a network it names ("password manager", "wifi network"), nor what
    ``names_other(part, start)`` says the word at ``start`` names instead — and is not a
    question about it ("where", "how often", "called")."""
    if not _ASKING_RE.search(clause):
        return False
    return any(
        not _ASKS_ABOUT_RE.search(part)
        and any(
            not _NAMES_OTHER_THING_RE.match(part, word.end())
            and not (names_other is not None and names_other(part, word.start()))
            for word in words.finditer(part)
        )
        for part in _AND_RE.split(clause)
    )


def asked_for(text: str) -> str | None:
    """What an assistant turn asks the user to give: ``"credential"`` (a password, a code, a
    key), ``"sensitive_identifier"`` (a passport, an account, a social security number…) or
    None. One clause must name it and ask for it ("What password should I remember?", "你的
    wifi 密码是多少？", "What's your passport number?"): not a clause that names it and another
    that asks something else ("Your password has been reset. Anything else?"), nor a question
    about it ("Which password manager do you use?", "Where do you keep your Wi-Fi password?"),
    nor one for a business's public line ("What's the restaurant's phone number?",
    ``identifiers.business_line``)."""
    clauses = [clause.group() for clause in _CLAUSE_RE.finditer(fold(text))]
    if any(_asks_for(clause, _ASKED_SECRET_RE) for clause in clauses):
        return "credential"
    if any(_asks_for(clause, _IDENTIFIER_WORD_RE, names_other=business_line) for clause in clauses):
        return "sensitive_identifier"
    return None


# What a user says instead of giving the secret asked for: a refusal, a delay, not knowing, a
# yes to being asked, a question back.
_NOT_GIVING_RE: Final = re.compile(
    r"[?？]|(?<![a-z'])(?:no|nope|not|don'?t|won'?t|rather|never|forgot|forget|later|why|sec"
    r"|second|moment|wait|hold|ok|okay|sure|fine|sorry|idk|yes|yeah|yep|thanks?)(?![a-z'])"
    r"|不|没|忘|稍等|等等|等下|待会|回头|为什么|干嘛|算了|好的|好|行|对|嗯|哦|可以|是的|谢",
    re.IGNORECASE,
)
# What may stand before the answer itself: "it's", "是", "Remember it:".
_ANSWER_LEAD_RE: Final = re.compile(
    r"^\W*(?:it'?s|it\s+is|that'?s|就是|是|叫|remember\s+it|记一下|记住)?\W*", re.IGNORECASE
)
_ANSWER_MAX_WORDS: Final = 5  # "correct horse battery staple"
_ANSWER_MAX_HAN: Final = 12  # "月亮湾的猫"


def _bare_answer(text: str) -> bool:
    """A reply that can only be what was asked for: a few words, no refusal, no question back
    ("correct horse battery staple", "月亮湾的猫", "是 sunflower")."""
    if _NOT_GIVING_RE.search(text):
        return False
    answer = _ANSWER_LEAD_RE.sub("", text.strip()).strip(" .。!！\"'“”「」")
    han = sum("\u3400" <= char <= "\u9fff" for char in answer)
    latin_words = len(re.findall(r"[^\W\d_\u3400-\u9fff]+|\d+", answer))
    return bool(answer) and han <= _ANSWER_MAX_HAN and latin_words <= _ANSWER_MAX_WORDS


def talks_about_secret(text: str) -> bool:
    """The head's judgement: does ``text`` talk about a credential, a code or a key?

    Without its weights file (before the first ``train_secret_head``) nothing is judged by
    meaning and only the cheap lines apply.
    """
    if not HEAD_PATH.exists():
        return False
    from memories.learned.heads import load_head
    from memories.learned.vectors import passage_vectors

    head = load_head(HEAD_PATH)
    return bool(head.decide(passage_vectors([text]))[0])


# A number in an answer, its digits grouped or not ("536 22 8714", "123.456.789-09", "8264-1937
# 5502-7781"): four digits or more. Alone in a text it is ordinary; as the answer to a request
# for a secret or a personal number it is what was asked for.
_ANSWER_NUMBER_RE: Final = re.compile(r"(?<!\d)\d(?:[ .\-/]?\d){3,}(?!\d)")


def _answer_numbers(view: str) -> list[str]:
    """The numbers of an answer, less a year said as one ("It expires in 2031")."""
    return [
        match.group()
        for match in _ANSWER_NUMBER_RE.finditer(view)
        if not _a_year(match.group(), view[: match.start()])
    ]


def _a_year(value: str, before: str) -> bool:
    """A year after "in", "since", "en"…: a date ("el código de la tarjeta cambió en 2025")."""
    return bool(_YEAR_RE.fullmatch(value) and _BEFORE_A_YEAR_RE.search(before))


def find_meant_secret(text: str, *, answers: str | None = None) -> tuple[str, str] | None:
    """``(reason, kind)`` when ``text`` is a secret by structure, by its words, or by its
    meaning and value. ``answers``: what an assistant turn asked the user for (``asked_for``),
    which this text answers — a value in it, or for a secret a few plain words, is that."""
    if not text:
        return None
    views = list(meaning_views(text))
    # Structure is read on the text as typed (folded): a seed phrase or a key is not disguised
    # by the tricks the other views undo.
    found = self_evident_secret(views[0])
    if found is not None:
        return found
    answers_request = answers == "credential"
    candidates_by_view = [
        (
            view,
            [
                value
                for value in value_candidates(_LINKS_RE.sub(" ", view))
                if not _not_a_value(value)
            ]
            + _named_values(view)
            + (_answer_numbers(view) if answers is not None else []),
        )
        for view in views
    ]
    if answers == "sensitive_identifier":
        # A personal number asked for and a number given: the question says what it is, the
        # shape need not (``identifiers`` knows only some countries' shapes).
        typed, values = candidates_by_view[0]
        if any(not _a_year(value, typed[: typed.find(value)]) for value in values):
            return "sensitive_identifier", "answer_to_identifier_request"
    if answers_request and _bare_answer(views[0]):
        # The secret asked for, given in plain words: no value shows it, the question does.
        return "credential", "answer_to_secret_request"
    if not any(candidates for _view, candidates in candidates_by_view):
        return None
    for view, candidates in candidates_by_view:
        if _keyword_then_value(view, candidates):
            return "credential", "secret_statement"
    if answers_request:
        return "credential", "answer_to_secret_request"
    # The model reads only texts holding a value an id cannot explain away: a number alone (a
    # price, a count, a limit), a UUID, a hex digest or a URL is a secret only after a secret's
    # word, above.
    if not any(_strong(value, view) for view, values in candidates_by_view for value in values):
        return None
    # One model call: the folded text, the way the stored memory's vector will read it.
    if talks_about_secret(fold(text)):
        return "credential", "secret_by_meaning"
    return None
