"""Questions that ask for a list: "我手上有哪些项目", "What are my preferences?", "你都记得我什么".

Such a question names a kind of memory, not a subject: it shares no word with the memories it
asks for ("项目" is in most of a Chinese user's project memories, and in a scope of 20+ it is
that scope's "the"), and the second model puts a question this generic under its floor over
every one of them, so it was answered with nothing, or with whatever shared a word with it.
Here the question itself is read: when it asks to enumerate a kind of the user's memories
(``asked_to_list``), the kind's memories among the second model's nearest (``listed``) are its
evidence.

**What a kind is.** The categories (``memories.types.Category``) as their rules mean them
(``memories.categories``): a memory is of a kind when it was stored in that category or when
its wording reads as it (``categories.reads_as``) — the first rule that matches names a
category, so "项目“天枢”计划四月上线" is a goal and still one of the user's projects (the rules
read no title: "用户在读《凤凰项目》" is no project). "What do you know about me" / "你都记得我什么"
asks for every kind.

**Which memories.** The meaning channel's rows (``memories.recall.channels``): the scope's
nearest memories by the second model, over and under its floor, read inside the scope, through
the search's filters (category, source, time, ``as_of``) and liveness like every channel. So a
filter the request names still holds, and a superseded or deleted memory is never listed. The
kind's memories come in that order, the nearest first (the pinned ones first when the question
asks about the user at all: ``listed(pinned=…)``); fusion puts them first in the answer
(``memories.recall.fusion``), within ``top_k``. Without a second model nothing is listed.

**Verified conclusions**, a kind that is no category: "有哪些已验证的结论", "我们确认过哪些结论",
"What have we verified so far?". A diagnosis the user confirmed, a load test's finding, an
agent's "已验证：…" is stored as whatever its wording makes it (mostly a fact), so the kind is
known by its wording alone (``reads_verified``): verified, confirmed, proven, a conclusion or a
cause stated ("已验证", "经压测确认", "结论：", "原因是…" as the rules extractor writes a confirmed
diagnosis, "Verified conclusion:", "confirmed that", "root cause"). Its wording lives here, not
beside the category rules: no write reads it, and a verified fact keeps its category.

**Tight on purpose.** The question must be about the user (我 / my / I / me, or what the memory
holds about them) and end with the kind it asks for: "我的项目什么时候上线" asks for a date, "What
projects are popular on GitHub" for no memory, and neither is read as a list. A question for
the verified conclusions needs no 我 (我们, we, or no one: the words 已验证的结论 say whose) but
must name them and end there: "青鸟压测的结论是什么" asks for one, "有哪些已验证的减肥方法" for
none of the user's.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final, Literal

from memories.categories import reads_as
from memories.types import Category, ChannelHit

# The kind that is no category: what was verified (above).
CONCLUSION: Final = "conclusion"
Kind = Category | Literal["conclusion"]

# The words that name a kind, each with its category.
_KINDS_ZH: tuple[tuple[Category, str], ...] = (
    (Category.PROJECT, r"项目"),
    (Category.PREFERENCE, r"偏好|喜好|爱好|习惯"),
    (Category.GOAL, r"目标|计划"),
    (Category.CONSTRAINT, r"禁忌|忌口|约束|限制"),
)
_KINDS_EN: tuple[tuple[Category, str], ...] = (
    (Category.PROJECT, r"projects?"),
    (Category.PREFERENCE, r"preferences|likes|habits|hobbies"),
    (Category.GOAL, r"goals|plans"),
    (Category.CONSTRAINT, r"constraints|restrictions|allergies"),
)
# A kind's name with up to six characters (Chinese) or two words (English) qualifying it:
# "饮食禁忌", "工作上的偏好", "dietary restrictions", "current projects".
_ZH_QUALIFIER = r"[^，,。？?！!\s]{0,6}?"
_EN_QUALIFIER = r"(?:[a-z'-]+\s+){0,2}?"
# What may close a question after the kind: a particle, punctuation.
_ZH_END = r"(?:呢|啊|呀|吧)?\W*$"
_EN_END = r"\W*$"

_ZH_ENUMERATOR = r"(?:哪些|哪几个|什么|几个|多少个?|啥)"
_ZH_ASKED = "|".join(
    (
        # 我手上有哪些项目 / 我在做哪些项目 / 我有什么饮食禁忌 / 我负责哪几个项目
        r"^我(?:们)?(?:现在|目前|手上|手头|手里|正在|都|还|平时)*"
        r"(?:有|在做|做|在搞|负责|参与|在跟|跟进|管|带)(?:了|过|着)?的?"
        + _ZH_ENUMERATOR
        + "{kind}",
        # 我的偏好有哪些 / 我的目标是什么
        r"^我的" + _ZH_QUALIFIER + r"(?:{bare})(?:都|分别)?(?:有|是)" + _ZH_ENUMERATOR + _ZH_END,
        # 列出我的项目
        r"^(?:请)?(?:列出|列一下|列举|说说|说一下|讲讲)(?:一下)?我的(?:所有|全部)?{kind}",
    )
)
_EN_ASKED = "|".join(
    (
        # What projects am I working on? / Which dietary restrictions do I have?
        r"^(?:what|which)\s+" + _EN_QUALIFIER + r"(?:{bare})\s+(?:am|do|did|have|was)\s+i\b",
        r"^(?:what|which)\s+" + _EN_QUALIFIER + r"(?:{bare})\s+i(?:'m|\s+am)\b",
        # What are my preferences?
        r"^what\s+(?:are|were)\s+(?:all\s+)?my\s+" + _EN_QUALIFIER + r"(?:{bare})" + _EN_END,
        # List my goals / show me my projects
        r"^(?:please\s+)?(?:list|show\s+me|tell\s+me)\s+(?:all\s+)?my\s+{kind}",
    )
)
# A question for the verified conclusions (above): who verified them (我们, we), the words that
# say verified and name what was (结论 / conclusions, findings), closing the question.
_CONCLUSION_PARTS = {
    "{who}": r"^(?:(?:到目前为止|到现在为止?|迄今为止?)[，,]?)?(?:我们|咱们|我)?"
    r"(?:之前|目前|现在|到现在|到目前为止|迄今为止?|都|一共|已经)*",
    "{verify}": r"(?:已经?|被)?(?:验证|确认|证实|核实|得出)",
    "{found}": r"(?:结论|发现)",
    "{end}": _ZH_END,
    "{verified}": r"(?:verified|confirmed|validated|established|proven)",
    "{verify_en}": r"(?:verif(?:y|ied)|confirm(?:ed)?|validat(?:e|ed)|establish(?:ed)?|prove[dn]?)",
    "{so_far}": r"(?:\s+(?:so\s+far|to\s+date|yet|until\s+now|by\s+now|already))?" + _EN_END,
}
_CONCLUSIONS_ASKED_TEMPLATES = (
    # 有哪些已验证的结论 / 我们目前有哪些确认过的结论
    r"{who}有(?:哪些|什么|几个|多少个?|啥){verify}(?:过|了)?的{found}{end}",
    # 我们确认过哪些结论 / 我们得出了哪些结论 / 到目前为止验证了什么
    r"{who}{verify}(?:过|了)+(?:哪些|什么|几个|多少个?|啥){found}?{end}",
    # 已验证的结论有哪些 / 我们确认过的结论都有什么
    r"{who}{verify}(?:过|了)?的{found}(?:都|分别)?(?:有|是)(?:哪些|什么|啥){end}",
    # 列出已验证的结论
    r"^(?:请)?(?:列出|列一下|列举|说说|说一下|讲讲|汇总|总结)(?:一下)?(?:我们)?的?"
    r"(?:所有|全部)?(?:之前)?{verify}(?:过|了)?的{found}{end}",
    # What have we verified so far? / What did we confirm?
    r"^what\s+(?:have|did|had)\s+(?:we|i)\s+(?:already\s+)?{verify_en}{so_far}",
    # What conclusions have we reached? / Which findings did we verify?
    r"^(?:what|which)\s+(?:{verified}\s+)?(?:conclusions|findings)\s+(?:have|did|had)\s+"
    r"(?:we|i)\s+(?:{verify_en}|reach(?:ed)?|draw|drawn){so_far}",
    # What are our verified findings? / List the verified conclusions
    r"^what\s+(?:are|were)\s+(?:all\s+)?(?:the|our|my)\s+{verified}\s+(?:conclusions|findings)"
    r"{so_far}",
    r"^(?:please\s+)?(?:list|show\s+me|tell\s+me|summari[sz]e)\s+(?:all\s+)?(?:the|our|my)\s+"
    r"{verified}\s+(?:conclusions|findings){so_far}",
)


def _filled(template: str, parts: dict[str, str]) -> str:
    """``template`` with each ``{part}`` replaced by its pattern."""
    for name, pattern in parts.items():
        template = template.replace(name, pattern)
    return template


_CONCLUSIONS_ASKED = re.compile(
    "|".join(_filled(t, _CONCLUSION_PARTS) for t in _CONCLUSIONS_ASKED_TEMPLATES), re.IGNORECASE
)
# A memory worded as verified (``reads_verified``). "经…确认" is read after a test or a review
# ("经压测确认"), never 经理 / 经常; "结论" only when one is stated ("结论：", "结论是"), never
# "结论先行".
_VERIFIED = re.compile(
    r"已经?(?:验证|确认|证实|核实)|(?:验证|证实)(?:有效|可行|通过|过)"
    r"|经(?![理常济营典])过?[^，,。；;：:]{0,8}?(?:验证|确认|证实)"
    r"|结论[:：是为]|(?:根本)?原因(?:是|在于)|根因(?:是|在于)"
    r"|\b(?:verified|validated|proven)\b|\bconfirmed\s+(?:that|by|in|under)\b"
    r"|\b(?:is|was|were|are|been)\s+confirmed\b|\broot[- ]cause\b"
    r"|\bconclusions?\s*(?::|was\b|is\b)",
    re.IGNORECASE,
)
# What the memory holds about the user, whatever the kind.
_ABOUT_ME = re.compile(
    "|".join(
        (
            # 你都记得我什么 / 你知道我哪些事情
            r"^你(?:都|还)?(?:记得|记住了?|知道|了解)(?:关于)?我(?:的)?(?:哪些|什么|多少|些什么)"
            r"(?:事|事情|信息)?" + _ZH_END,
            # 关于我你都知道什么
            r"^关于我[，,]?你(?:都|还)?(?:记得|知道)(?:些)?(?:什么|哪些)" + _ZH_END,
            # 你对我了解多少
            r"^你对我(?:有)?(?:多少|哪些)?了解(?:多少|什么|哪些)?" + _ZH_END,
            # What do you know about me? / What have you learned about me?
            r"^(?:what|how\s+much)\s+(?:do|did)\s+you\s+(?:know|remember|recall)"
            r"\s+(?:about|of)\s+me" + _EN_END,
            r"^what\s+have\s+you\s+(?:remembered|learned|learnt|stored|saved|kept)"
            r"\s+about\s+me" + _EN_END,
            r"^(?:please\s+)?tell\s+me\s+what\s+you\s+(?:know|remember)\s+about\s+me" + _EN_END,
        )
    ),
    re.IGNORECASE,
)


def _asking(
    kinds: Iterable[tuple[Category, str]], template: str, *, qualifier: str, end: str
) -> tuple[tuple[Category, re.Pattern[str]], ...]:
    """``template`` for each kind: ``{kind}`` its words, qualified and closing the question,
    ``{bare}`` its words alone."""
    return tuple(
        (
            category,
            re.compile(
                template.replace("{kind}", f"{qualifier}(?:{words}){end}").replace("{bare}", words),
                re.IGNORECASE,
            ),
        )
        for category, words in kinds
    )


_ASKED = _asking(_KINDS_ZH, _ZH_ASKED, qualifier=_ZH_QUALIFIER, end=_ZH_END) + _asking(
    _KINDS_EN, _EN_ASKED, qualifier=_EN_QUALIFIER, end=_EN_END
)


@dataclass(frozen=True)
class Listing:
    """What a question asks to enumerate: the user's memories of ``kind`` (a category, or
    ``CONCLUSION``: what was verified), or every memory (``kind`` None: what is remembered about
    the user at all)."""

    kind: Kind | None

    @property
    def everything(self) -> bool:
        return self.kind is None

    def holds(self, hit: ChannelHit) -> bool:
        """Whether the memory of ``hit`` is of the kind asked: stored in its category, or
        worded as it; a verified conclusion by its wording alone."""
        if self.kind is None:
            return True
        if isinstance(self.kind, Category):
            return hit.category == self.kind or reads_as(self.kind, hit.content)
        return reads_verified(hit.content)


def reads_verified(text: str) -> bool:
    """Whether ``text`` is worded as a verified conclusion (above)."""
    return bool(_VERIFIED.search(text))


def asked_to_list(query: str) -> Listing | None:
    """The list ``query`` asks for, or None when it asks for anything else."""
    question = " ".join(query.split())
    if _ABOUT_ME.search(question):
        return Listing(kind=None)
    if _CONCLUSIONS_ASKED.search(question):
        return Listing(kind=CONCLUSION)
    for category, pattern in _ASKED:
        if pattern.search(question):
            return Listing(kind=category)
    return None


def listed(
    listing: Listing | None, nearest: Sequence[ChannelHit], *, pinned: Iterable[str] = ()
) -> list[str]:
    """The memories ``listing`` enumerates among ``nearest`` (the meaning channel's rows, the
    nearest first), in that order; those in ``pinned`` (the user's "always use" memories) first,
    in the order of ``pinned``. None asked: nothing."""
    if listing is None:
        return []
    found = [hit.id for hit in nearest if listing.holds(hit)]
    held = set(found)
    first = [memory_id for memory_id in dict.fromkeys(pinned) if memory_id in held]
    taken = set(first)
    return first + [memory_id for memory_id in found if memory_id not in taken]
