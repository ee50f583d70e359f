"""Questions about one of the user's own attributes: "What editor do I use?", "我在哪家公司上班",
"我是做什么工作的", "Where do I live?".

Such a question asks for the value of a ``memory_key`` (``memories.engine.extraction.keys``),
and its words are often not the memory's: "用户用 Neovim 写代码" says no 编辑器 and no "editor",
so e5 put "What editor do I use?" under its floor (a question in the other language) or behind a
memory that shares 写 and 用 ("用户是后端工程师，主要写 Go"). Here the question is read: when it
asks about an attribute of the user's (``asked_attribute``), the memories among the second
model's nearest that hold it (``Attribute.holds``) are its evidence, first, in that order —
through the same door as a list asked for (``memories.recall.listing``, ``fuse(listed=…)``).

**What holds an attribute.** A memory whose wording the key's rule reads as that key's value
(``keys.propose_key``), the rule every ingest keys a fact with: a state dated in a past year
("用户去年在阿里工作") or about someone else ("用户的姐姐住在深圳") holds none, so the current
employer comes before last year's. For the editor and the programming language, a memory about
the user that names one (an editor's or a language's name, "用户是 Java 后端工程师") holds it too.

**The user's things, and how they get to work.** No key holds the user's car, computer, phone,
tablet, watch or pets, where they grew up, or the way to work, yet they are what a user asks
across languages most often ("我开的是什么车" of "User drives a white Tesla Model 3", "How do I
get to work?" of "用户每天坐地铁上下班"), and e5's cosine across languages left them under its
floor. Each is read like an attribute (``THING_CAR`` …, ``PROFILE_HOMETOWN``, ``HABIT_COMMUTE``),
and a memory about the user that names one holds it: a car driven or owned, by its word or maker
(not 自行车, a car maker that employs the user, or "drives me mad"); the device itself for a
computer, phone or tablet (``software.COMPUTER`` …: a model, a brand said of it, "用户的手机是…" —
not its operating system: "用户做 iOS 开发" says nothing of the phone); a watch worn (not "likes
to watch films"); an animal kept (not "allergic to cats"); where the user grew up or was born
(not where they live: that is the home city's key); a commute, or a way of travelling to work
or the office.

**Tight on purpose.** The question must ask (什么 / 哪 / what / which / where …) or name the
user's own ("Set up my editor config for a new laptop", "我的时区"), be about the user
(我 / 用户 / I / my / the user, never someone else of theirs: "我姐姐住在哪个城市") and name the
attribute in its own words. A scope with no memory holding it gets no evidence from here, so the
question is answered, or not, as before.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from memories.engine.extraction import keys
from memories.selectors import software
from memories.types import ChannelHit

# The user as a Chinese question's subject, not a possessor ("我的设计团队在哪个城市" asks about
# the team): 我 or 用户, then a few characters before the attribute's words.
_ME = r"(?:我|用户)(?!们|的)[^，,。？?]{0,4}?"
# The user's own thing of a kind, asked for: "我用的什么电脑", "我的手机是什么型号", "What laptop
# do I use?", "my phone" (a task about it: "帮我清理一下我的电脑").
_THING_ZH = r"(?:我|用户)(?!们)(?:的|用的?|在用的?|现在用的?)[^，,。？?]{{0,4}}?(?:{})"
_THING_EN = (
    r"\b(?:what|which) (?:kind of |type of |make of |brand of |model of )?(?:{0})s? "
    r"do(?:es)? (?:i|the user)\b|\b(?:my|the user's) (?:{0})\b(?! number| bill| plan| case)"
)
# The keys of what no memory key holds: a thing of the user's, a habit.
THING_CAR = "thing.car"
THING_COMPUTER = "thing.computer"
THING_PHONE = "thing.phone"
THING_TABLET = "thing.tablet"
THING_WATCH = "thing.watch"
THING_PET = "thing.pet"
PROFILE_HOMETOWN = "profile.hometown"
PROFILE_MANAGER = "profile.manager"
PROFILE_EDUCATION = "profile.education"
HABIT_COMMUTE = "habit.commute"
# Each attribute: its key, then the words a question names it with (Chinese, English).
_ASKED: tuple[tuple[str, str, str], ...] = (
    ("preference.editor", r"编辑器|\bIDE\b", r"\b(?:code |text )?editor\b|\bIDE\b"),
    (
        "profile.employer",
        _ME + r"(?:在哪(?:里|儿)?(?:工作|上班|任职|高就)|在(?:哪|什么)(?:家|个)?(?:公司|单位))|"
        r"(?:我|用户)的(?:公司|单位|东家)(?:是|叫)(?:哪|什么)",
        r"\bwhere do(?:es)? (?:i|the user) work\b|\bwhich company do(?:es)? (?:i|the user)\b|"
        r"\bwho do(?:es)? (?:i|the user) work for\b|\b(?:my|the user's) employer\b",
    ),
    (
        "profile.home_city",
        _ME + r"(?:住(?:在)?(?:哪|什么地方)|家在哪|在哪个城市(?:住|生活|定居)?(?:呢|啊)?\W*$|"
        r"常驻(?:在)?哪)",
        r"\bwhere do(?:es)? (?:i|the user) live\b|\bwhere (?:am i|is the user) based\b|"
        r"\b(?:which|what) city do(?:es)? (?:i|the user) live\b",
    ),
    ("profile.time_zone", r"(?:我|用户)的?时区", r"\b(?:my|the user's) time ?zone\b"),
    (
        "profile.role",
        _ME + r"(?:做|干)(?:什么|啥)(?:工作|职业|的)|"
        r"(?:我|用户)的?(?:职位|岗位|职业)(?:是)?(?:什么|啥)",
        r"\bwhat do(?:es)? (?:i|the user) do for (?:a )?(?:living|work)\b|"
        r"\bwhat(?:'s| is) (?:my|the user's) (?:job|job title|role|profession|occupation)\b",
    ),
    (
        "profile.programming_language",
        r"编程语言|(?:什么|哪种|哪门)语言(?:写|编程|开发)|"
        r"(?:写|编程|开发|用)(?:用)?(?:什么|哪种|哪门)语言",
        r"\bprogramming languages?\b|"
        r"\b(?:what|which) languages? do(?:es)? (?:i|the user) (?:code|program|write|develop)\b",
    ),
    (
        "profile.diet",
        _ME + r"(?:吃素|是素食|饮食习惯)|(?:我|用户)的饮食",
        r"\b(?:my|the user's) diet\b|\b(?:am i|is the user) (?:a )?(?:vegetarian|vegan)\b",
    ),
    # The things the user has and how they get to work: no key holds them (below, ``_NAMED``).
    (
        THING_CAR,
        _ME + r"(?:开|驾驶|有)的?(?:是)?(?:什么|哪|啥)[^，,。？?]{0,5}车|"
        r"(?:我|用户)的(?:车|汽车|座驾)(?:是)?(?:什么|哪|啥)",
        _THING_EN.format(r"car") + r"|\bwhat do(?:es)? (?:i|the user) drive\b",
    ),
    (
        THING_COMPUTER,
        _THING_ZH.format(r"电脑|笔记本|台式机"),
        _THING_EN.format(r"laptop|computer|pc|desktop"),
    ),
    (THING_PHONE, _THING_ZH.format(r"手机(?!号|费|套餐|卡|壳)"), _THING_EN.format(r"phone")),
    (THING_TABLET, _THING_ZH.format(r"平板"), _THING_EN.format(r"tablet")),
    (
        THING_WATCH,
        _ME + r"戴[^，,。？?]{0,8}?(?:手表|腕表|手环)|" + _THING_ZH.format(r"手表|腕表|手环"),
        _THING_EN.format(r"(?:smart ?)?watch"),
    ),
    (
        THING_PET,
        _ME + r"养(?:了|的|着)?(?:是)?(?:什么|哪|啥|几)|(?:我|用户)(?:家)?的?宠物",
        r"\bpets?\b|\b(?:what|which) (?:kind of |type of |breed of )?"
        r"(?:animal|dog|cat|bird|fish)s? do(?:es)? (?:i|the user) (?:have|keep|own)\b",
    ),
    (
        PROFILE_HOMETOWN,
        r"(?:我|用户)的?(?:老家|家乡|故乡)|(?:我|用户)(?:是)?(?:哪里|哪儿|什么地方)人|"
        + _ME
        + r"(?:在)?(?:哪|什么地方)[^，,。？?]{0,3}(?:长大|出生)|"
        r"(?:我|用户)(?:出生|长大)(?:在|于)?(?:哪|什么地方)",
        r"\b(?:my|the user's) home ?town\b|\bwhere did (?:i|the user) grow up\b|"
        r"\b(?:which|what) (?:city|town|place) did (?:i|the user) grow up in\b|"
        r"\bwhere (?:was|were) (?:i|the user) born\b|"
        r"\bwhere (?:am i|is the user) (?:originally )?from\b",
    ),
    (
        PROFILE_MANAGER,
        r"(?:我|用户)的(?:直属)?(?:上级|领导|老板|主管|经理|leader)(?:是)?(?:谁|叫什么|哪位)|"
        r"(?:我|用户)(?:向|跟|给)谁汇报|谁是(?:我|用户)的(?:直属)?(?:上级|领导|老板|主管|经理)",
        r"\b(?:who is|who's) (?:my|the user's) (?:direct |line )?(?:manager|boss|supervisor|"
        r"team lead|lead)\b|\bwho do(?:es)? (?:i|the user) report to\b|"
        r"\b(?:my|the user's) (?:direct |line )?(?:manager|boss|supervisor)\b",
    ),
    (
        PROFILE_EDUCATION,
        r"(?:我|用户)[^，,。？?]{0,4}?(?:最高)?(?:学历|学位)|"
        r"(?:我|用户)[^，,。？?]{0,4}?(?:专业|本科|研究生|硕士|博士)(?:是|学的是|读的是|学的|读的)?(?:什么|哪)|"
        r"(?:我|用户)[^，,。？?]{0,3}?(?:学|读)的?(?:是)?(?:什么|哪个|啥)专业|"
        r"(?:我|用户)(?:是)?(?:从)?(?:哪|哪个|哪所)(?:大学|学校|院校)毕业",
        r"\b(?:my|the user's) (?:highest )?(?:degree|major|education|alma mater)\b|"
        r"\bwhat did (?:i|the user) (?:study|major in)\b|"
        r"\bwhere did (?:i|the user) (?:study|go to (?:university|college)|graduate)\b|"
        r"\b(?:which|what) (?:university|college) did (?:i|the user)\b",
    ),
    (
        HABIT_COMMUTE,
        _ME + r"(?:每天)?(?:怎么|如何|怎样|靠什么)(?:去|来)?(?:上班|上下班|通勤|去公司)|"
        r"(?:我|用户)的?(?:每天)?(?:上下班|通勤)(?:方式)?(?:是)?(?:怎么|什么|如何|坐|用)",
        r"\bhow do(?:es)? (?:i|the user) (?:get|go|travel|commute) to (?:work|the office)\b|"
        r"\b(?:my|the user's) commute\b|\bhow do(?:es)? (?:i|the user) commute\b",
    ),
)
# Each attribute's key with its words compiled, the Chinese as written, the English in any case.
_ASKED_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (key, re.compile(f"{chinese}|(?i:{english})")) for key, chinese, english in _ASKED
)
# A question asks: a question word, or a question mark.
_ASKS = re.compile(
    r"什么|哪|啥|吗|几|多少|谁|怎么|[?？]|"
    r"\b(?:what|which|where|who|how|do|does|am|is|are)\b",
    re.IGNORECASE,
)
# Or a task about the user's own one ("Set up my editor config for a new laptop").
_MINE = re.compile(r"\bmy\b|我的", re.IGNORECASE)
# About the user, in the question's own words.
_ABOUT_THE_USER = re.compile(r"我(?!们)|用户|\b(?:i|my|me|the user)\b", re.IGNORECASE)
# What names an editor or a programming language in a memory (the key rules' own lists, whole
# words; Go, R and C only capitalised, as names: "go to", "a c…" are no language).
_EDITOR_NAMED = re.compile(rf"(?<![\w+#]){keys.EDITORS}(?![\w+#])", re.IGNORECASE)
_LANGUAGE_NAMED = re.compile(
    r"(?<![\w+#])(?:(?i:python|golang|java|kotlin|rust|typescript|javascript|ruby|php|swift|"
    r"scala|elixir|haskell|dart|julia|lua|perl|clojure|ocaml|zig)|c\+\+|c#|C#|Go|R|C)(?![\w+#])"
)
# A car: one driven or owned, a car's word, a maker ("drives a" — not "drives me mad", "Google
# Drive"; 车 after a measure word or as a kind, not 自行车, 火车 or 车位).
_CAR_NAMED = re.compile(
    r"(?:开|驾驶)(?:一辆|辆|的是)|(?:一辆|辆)[^，,。]{0,10}?(?:(?<!自行)(?<!单)(?<!摩托)车|SUV)|"
    r"(?:汽车|轿车|电动车|新能源车|房车|座驾)(?!公司|行业|厂|站)|"
    r"(?<![A-Za-z0-9_])(?:drives? (?:an?|the|his|her|their) |cars?\b|SUV\b|"
    r"(?:Tesla|BYD|Volvo|Toyota|Honda|BMW|Audi|Mercedes|Volkswagen|Porsche|Subaru|Mazda|"
    r"Nissan|Hyundai|Kia|Ford|Lexus|NIO|Xpeng|Zeekr)\b)|"
    r"特斯拉|比亚迪|沃尔沃|丰田|本田|宝马|奥迪|奔驰|大众|保时捷|马自达|日产|蔚来|小鹏|极氪|问界|"
    r"理想 ?L\d",
    re.IGNORECASE,
)
# A watch worn: its word or maker, not "likes to watch films".
_WATCH_NAMED = re.compile(
    r"手表|腕表|手环|佳明|\b(?:smartwatch|Garmin|Fitbit)\b|"
    r"\b(?:a|an|the|my|his|her|their|smart|apple|sports?)\s+(?:[\w-]+\s+){0,2}?watch(?:es)?\b",
    re.IGNORECASE,
)
# An animal the user keeps: 养 with a count, a pet's word, the user's own cat or dog (not "allergic
# to cats", not a dish).
_PET_NAMED = re.compile(
    r"养(?:了|着)?(?:一|两|三|四|几|\d+)?(?:只|条|头|匹|缸|对)|宠物|(?:用户|我)(?:家)?的(?:猫|狗|兔子|乌龟|鹦鹉)|"
    r"\b(?:has|have|owns|keeps|adopted|got) (?:a|an|two|three|\d+) (?:[\w-]+ ){0,2}?"
    r"(?:dog|cat|puppy|kitten|parrot|bird|rabbit|hamster|turtle|tortoise|fish|goldfish|pet)s?\b|"
    r"\b(?:the user's|user's|my) (?:[\w-]+ )?(?:dog|cat|puppy|kitten|parrot|rabbit|hamster|"
    r"turtle|pet)s?\b",
    re.IGNORECASE,
)
# Where the user grew up or was born: a hometown, not where they live now.
_HOMETOWN_NAMED = re.compile(
    r"长大|老家|家乡|故乡|出生(?:在|于)|土生土长|"
    r"\bgrew up\b|\bhome ?town\b|\bborn (?:in|and raised)\b|\b(?:is|comes) (?:originally )?from\b",
    re.IGNORECASE,
)
# Who the user reports to.
_MANAGER_NAMED = re.compile(
    r"上级|上司|直属领导|(?:的|是)(?:领导|老板|主管|经理)|汇报(?:给|对象)|向[^，,。]{1,12}汇报|"
    r"\b(?:manager|boss|supervisor|line manager|team lead)\b|\breports? (?:directly )?to\b",
    re.IGNORECASE,
)
# A degree, a major, a university studied at.
_EDUCATION_NAMED = re.compile(
    r"本科|硕士|博士|学位|学历|专业(?!人士|的人|团队|意见|水平)|毕业(?:于|自)|大学(?:读|学)的|"
    r"\b(?:bachelor'?s|master'?s|phd|ph\.d|doctorate|degree|majored|graduated|alma mater|"
    r"(?:studied|studies) (?:\w+ ){0,3}at)\b",
    re.IGNORECASE,
)
# How the user gets to work: a commute, or a way of travelling to work or the office.
_COMMUTE_NAMED = re.compile(
    r"通勤|上下班|(?:骑|坐|搭|乘|开车|步行|走路)[^，,。]{0,16}?(?:上班|去公司|到公司)|"
    r"\bcommut\w*|\b(?:bikes?|cycles?|drives?|walks?|rides?|takes? the (?:train|subway|metro|bus|"
    r"tube))\b[^.]{0,30}?\bto (?:work|the office)\b",
    re.IGNORECASE,
)
# The attributes a memory key holds (the rest only by ``_NAMED``: no key rule reads them).
_KEYED = frozenset(key for key, _ in keys.KEY_RULES)
_NAMED = {
    "preference.editor": _EDITOR_NAMED,
    "profile.programming_language": _LANGUAGE_NAMED,
    THING_CAR: _CAR_NAMED,
    THING_COMPUTER: software.COMPUTER,
    THING_PHONE: software.PHONE,
    THING_TABLET: software.TABLET,
    THING_WATCH: _WATCH_NAMED,
    THING_PET: _PET_NAMED,
    PROFILE_HOMETOWN: _HOMETOWN_NAMED,
    PROFILE_MANAGER: _MANAGER_NAMED,
    PROFILE_EDUCATION: _EDUCATION_NAMED,
    HABIT_COMMUTE: _COMMUTE_NAMED,
}


@dataclass(frozen=True)
class Attribute:
    """An attribute of the user's a question asks for: the ``memory_key`` it is the value of."""

    key: str

    @property
    def timeless(self) -> bool:
        """Whether the attribute is asked in the past tense and never has a past value: where the
        user grew up ("Which city did I grow up in?") is no former home city, and what they
        studied ("What did I study?") no former degree."""
        return self.key in (PROFILE_HOMETOWN, PROFILE_EDUCATION)

    def holds(self, hit: ChannelHit) -> bool:
        """Whether the memory of ``hit`` holds the attribute (above)."""
        if self.key in _KEYED and keys.propose_key(hit.content) == self.key:
            return True
        named = _NAMED.get(self.key)
        return (
            named is not None
            and bool(named.search(hit.content))
            and not keys.about_someone_else(hit.content)
        )


def asked_attribute(query: str) -> Attribute | None:
    """The attribute of the user's ``query`` asks for, or None when it asks for anything else."""
    question = " ".join(query.split())
    asks = _ASKS.search(question) or _MINE.search(question)
    if not asks or not _ABOUT_THE_USER.search(question):
        return None
    if keys.names_someone_else(question):
        return None
    for key, pattern in _ASKED_PATTERNS:
        if pattern.search(question):
            return Attribute(key=key)
    return None


def holding(attribute: Attribute | None, nearest: Sequence[ChannelHit]) -> list[str]:
    """The memories among ``nearest`` (the meaning channel's rows, the nearest first) that hold
    ``attribute``, in that order; nothing when no attribute is asked."""
    if attribute is None:
        return []
    return [hit.id for hit in nearest if attribute.holds(hit)]
