"""A fact's category from its wording (deterministic; the LLM does not return one).

What the categories mean (the demo seeds, ``edges/management/commands/seed_demo.py``, are
written to them):

* ``constraint`` — a rule the assistant must keep: something it must or must not do ("数据库迁移
  必须先在预发环境演练", "Never include API keys…", "Don't schedule meetings before 10am"), and
  what limits what it may suggest for the user's sake, an allergy above all ("用户对花生过敏":
  a health fact, kept as the rule it imposes on every food suggestion);
* ``goal`` — what the user means to achieve;
* ``preference`` — how the user wants things: the way to be answered ("以后回答默认用中文",
  "Answer in English from now on", "Always reply in bullet points"), formats, and the tools
  they work with ("用户的主力编辑器是 Vim");
* ``project`` — a project's or team's setup and conventions;
* ``fact`` — anything else about the user.

The rules read the wording outside a work's title: "用户在读《凤凰项目》" is about a book, not a
project; nor is 项目 the modifier of a person or a thing when no project is named before it
("项目负责人赵敏下周休假" is about 赵敏, "北斗项目负责人是陈静" about 北斗). The first rule
that matches wins, in that order. A ``memory_key`` says what the memory is the value of: one of
``preference.*`` makes it a preference whatever the wording.

A fact can read as more than its category: "项目“天枢”计划四月上线" is a goal (the first rule
that matches) and about a project too. ``reads_as`` says whether a text reads as one kind,
whatever comes first; recall lists a kind's memories with it (``memories.recall.listing``).
A verified conclusion is no category: recall reads its wording there, where a list of them is
asked for (``listing.reads_verified``).
The rules live here, beside the types, because recall reads them as the writes do."""

from __future__ import annotations

import re

from memories.types import Category

PREFERENCE_KEY_PREFIX = "preference."

# An instruction addressed to the assistant opens the sentence: "Answer in English…",
# "Always reply…", "Please respond…" ("From now on, answer…" too).
_EN_OPENING = r"^\s*(?:from now on,?\s+)?(?:please\s+)?(?:always\s+)?"

# 项目 / "project" as the modifier of a person or a thing (项目负责人赵敏, 项目经理, 项目群, "the
# project manager Dana") says who or what the fact is about, not which project: the word makes
# no project then, unless a project is named before it (北斗项目负责人是陈静, "the Atlas project
# manager"). Named: after a name's last character, a closing quote or a Latin word (a space
# between); not at the start of a clause or after one of the words below, which name none.
_PROJECT_PERSON_OR_THING_ZH = (
    r"(?:负责人|经理|主管|总监|助理|秘书|组长|组员|组成员|成员|同事|群(?!体))"
)
_NAMES_NO_PROJECT_ZH = "的是和与跟及找问由给让请向把被对在到进个位名当任做新前原"
_PROJECT_PERSON_OR_THING_EN = (
    r"(?:manager|lead|leader|owner|coordinator|sponsor|member|channel|chat|group)s?\b"
)
_NAMES_NO_PROJECT_EN = (
    r"the|a|an|my|our|your|his|her|their|its|this|that|is|are|was|were|be|as|to|with|and|or"
    r"|of|for|new|former"
)
_PROJECT_WORD = (
    rf"项目(?!{_PROJECT_PERSON_OR_THING_ZH})"
    rf"|(?:(?<=[^\W{_NAMES_NO_PROJECT_ZH}]|[”\"'」』）)])|(?<=[a-z0-9] ))项目"
    rf"|\bproject\b(?!\s+{_PROJECT_PERSON_OR_THING_EN})"
    rf"|(?:^|(?<=\s))(?!(?:{_NAMES_NO_PROJECT_EN})\b)[\w-]+\s+project\b"
)

RULES: tuple[tuple[Category, re.Pattern[str]], ...] = (
    (
        Category.CONSTRAINT,
        re.compile(
            r"不要|禁止|不得|不能|必须|务必|严禁|请勿|^\s*(?:请)?别(?![人的墅名处称])"
            r"|过敏|\ballerg(?:y|ies|ic)\b"
            r"|\bnever\b|\bmust\b|\bdo not\b" + rf"|{_EN_OPENING}(?:don[’']?t|avoid)\b",
            re.I,
        ),
    ),
    (Category.GOAL, re.compile(r"目标|计划|希望在|打算|\bgoal\b|\bplan(s|ning)? to\b", re.I)),
    (
        Category.PREFERENCE,
        re.compile(
            r"偏好|喜欢|习惯|倾向|优先|统一使用|都用|\bprefer|\blikes?\b|\bfavou?rite"
            # How the user wants to be answered, said as an instruction to the assistant.
            r"|(?:回答|回复|答复)(?:用户|我)|啰嗦|尽量简[短洁]|统一用|请用|叫(?:用户|我)"
            r"|默认.{0,10}(?:回答|回复|答复)|(?:回答|回复|答复).{0,6}默认"
            r"|(?:以后|今后|往后|从现在起).{0,6}默认"
            r"|\balways\s+use\b"
            r"|\b(?:answer|reply\s+to|respond\s+to|write\s+to)\s+the\s+user\b"
            r"|\bkeep\s+(?:the\s+)?(?:answers|replies|responses)\s+(?:short|brief|concise)\b"
            + rf"|{_EN_OPENING}(?:answer|reply|respond|write|use|call\s+me|address\s+me)\b"
            # The tools the user works with.
            r"|主力|惯用"
            r"|\b(?:main|primary|go-to|daily)\s+(?:editor|ide|shell|terminal|browser|"
            r"(?:programming\s+)?language|laptop|os)\b",
            re.I,
        ),
    ),
    (
        Category.PROJECT,
        re.compile(rf"{_PROJECT_WORD}|仓库|架构|技术栈|约定|规范|\brepo\b|\bconvention", re.I),
    ),
)


# A work's title (《凤凰项目》): its words name the work, not what the fact is about.
_TITLE = re.compile(r"《[^》]*》")


def categorize(text: str, *, memory_key: str = "") -> Category:
    """The category of a fact whose writer named none: a ``preference.*`` key's, else the first
    rule its wording matches, else ``fact``."""
    if memory_key.startswith(PREFERENCE_KEY_PREFIX):
        return Category.PREFERENCE
    wording = _TITLE.sub(" ", text)
    for category, pattern in RULES:
        if pattern.search(wording):
            return category
    return Category.FACT


def reads_as(kind: Category, text: str) -> bool:
    """Whether ``text`` reads as ``kind`` by its own rule, whatever rule comes first; ``fact``,
    the category of what no rule matches, has no rule and reads as nothing."""
    wording = _TITLE.sub(" ", text)
    return any(category == kind and pattern.search(wording) for category, pattern in RULES)
