"""The ``memory_key`` a written fact is the current value of: a later value of the same key
supersedes it ("The user moved to Hangzhou." replaces "用户住在武汉。").

Only attributes with one value at a time, recognised only when unambiguous: a wrong key would
supersede an unrelated fact, a missing one only keeps an outdated fact beside the new one.
"""

from __future__ import annotations

import re

_EDITORS = (
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
_SUBJECT_ZH = r"^(?:用户|我)(?:[^，,。；;的]{0,8}?)"
_SUBJECT_EN = r"^the user(?:'s)? (?:now |currently |usually |mainly |mostly |always |has )?"

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
            + r"(?:在.{1,16}(?:工作|上班|任职)|就职于|入职了?|供职于)|"
            + _SUBJECT_EN
            + r"(?:works? (?:at|for)|is employed (?:at|by)|joined|is at)\b",
            re.IGNORECASE,
        ),
    ),
    (
        "profile.home_city",
        re.compile(
            _SUBJECT_ZH
            + r"(?:住在|搬到了?|搬去了?|定居在?|(?<!老)家在|生活在)|"
            + _SUBJECT_EN
            + r"(?:lives? in|moved to|relocated to|is based in|lived in|works remotely from)\b|"
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
            rf"编辑器|(?:用|使用|偏好|喜欢)(?:的)?\s*(?:{_EDITORS})\b|"
            rf"\beditor\b|\b(?:uses?|prefers?|codes? in|works? in)\s+(?:{_EDITORS})\b",
            re.IGNORECASE,
        ),
    ),
    (
        "profile.programming_language",
        re.compile(
            rf"(?:主要|主力|日常)(?:编程)?(?:语言|用|写|使用)(?:是|写|用)?\s*(?:{_LANGUAGES})(?![\w+#])|"
            rf"(?:主力|主要)(?:编程)?语言|"
            rf"\b(?:main|primary|preferred|go-to) (?:programming )?language\b|"
            rf"\b(?:mainly|mostly|primarily) (?:writes|codes in|programs in|uses)\s+"
            rf"(?:{_LANGUAGES})(?![\w+#])",
            re.IGNORECASE,
        ),
    ),
)


def propose_key(fact: str) -> str:
    """The ``memory_key`` a stored fact is the value of, or "" when none is recognised."""
    text = fact.strip()
    for key, pattern in KEY_RULES:
        if pattern.search(text):
            return key
    return ""
