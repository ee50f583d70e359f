"""The rules: hard guards that veto a sentence whatever the learned head thinks, and the cues
the head reads as features (and the rules-only decision uses alone).

A guard is something a sentence can be checked for, not a judgement of worth: a time word of a
one-off request, a runtime snapshot, an unconfirmed suggestion by the assistant, code, a path or
a URL.  Credentials and identifiers are admission's: it refuses the whole conversation before it
is queued and every fact again before it is adopted.
"""

from __future__ import annotations

import re

ONE_OFF = re.compile(
    r"这次|本次|这一次|今天|明天|昨天|今晚|今早|下午|上午|刚才|刚刚|马上|临时|暂时|待会|一会儿|"
    r"这封|这份|这篇|这张|这条消息|"
    r"\bthis time\b|\btoday\b|\btomorrow\b|\btonight\b|\bright now\b|\bfor now\b|\bjust once\b|"
    r"\bthis (?:flyer|email|document|doc|file|report|draft|message|slide|deck|pr|ticket|one)\b",
    re.IGNORECASE,
)
SNAPSHOT = re.compile(
    r"(当前|现在|目前).{0,8}(可用|可以用|启用|安装)|可用的?(工具|插件|技能|模型)|"
    r"(工具|插件|技能|模型)(列表|清单)|本机|这台(电脑|机器)|电量|"
    r"\b(?:on )?this machine\b|\bbattery\b|\binstalled\b|"
    r"\b(currently|now) (available|enabled|installed)\b|"
    r"\bavailable (tools|plugins|skills|models)\b",
    re.IGNORECASE,
)
CODE_OR_PATH = re.compile(
    r"`|https?://|www\.|(?:^|[\s(，,：:；])(?:~|\.{1,2})?/[\w.-]+/|[A-Za-z]:\\|"
    r"\b(?:def|class|import|function|return|SELECT\s.+\sFROM)\b.*[(:=]|[{};]\s*$|\w\(.*\)\s*;?$",
)
DURABLE = re.compile(
    r"以后|今后|后续|往后|将来|始终|总是|一直|默认|偏好|喜欢|习惯|统一|一律|都用|都要|记住|长期|"
    r"项目(叫|名|是|使用|采用|要求)|我(是|在|叫|负责)|我们(团队|公司|组)|团队|约定|规范|惯例|决定|"
    r"确认|优先|不要|禁止|必须|从不|住在|搬到|搬去|来自|吃素|素食|过敏|时区|主力|我(的|平时|主要)|"
    r"\bi live\b|\bmoved to\b|\bi'm an? \b|\bmy (?:\w+ ){0,3}is\b|"
    r"\bour (?:\w+ ){0,3}(?:is|are|runs?|uses?)\b|"
    r"\bvegetarian\b|\bvegan\b|\ballergic\b|\btime ?zone\b|\bi use\b|\bwe use\b|\bfor all future\b|"
    r"\balways\b|\bprefer|\bfrom now on\b|\bby default\b|\bremember\b|\bmy name\b|\bi am\b|"
    r"\bi work\b|\b(?:our|my) (?:team|company)\b|\bconvention\b|\bwe decided\b|"
    r"\bgoing forward\b|\bnever\b|\bmust\b",
    re.IGNORECASE,
)
CONFIRMED = re.compile(
    r"已确认|确认采用|已决定|决定采用|最终方案|已记录|已记下|记下了|记住了|已更新|定了|收到|"
    r"\bconfirmed\b|\bdecided\b|\bagreed\b|\bnoted\b|\bgot it\b|\bunderstood\b|\bupdated\b",
    re.IGNORECASE,
)
SUGGESTION = re.compile(
    r"建议|可以考虑|不妨|推荐|要不要|\bsuggest|\brecommend|\bconsider\b|\bmaybe\b|\bcould try\b",
    re.IGNORECASE,
)
# "I" only as a capital; "My"/"Our"/"We" at the start of a sentence are first person too ("us"
# in lower case: "US" is a country).
FIRST_PERSON = re.compile(r"我|咱们|\b(?:I|I'm|[Mm]y|[Mm]e|[Oo]ur|[Ww]e|us)\b")
QUESTION = re.compile(r"[?？]\s*$|吗[。？?]?$|\b(?:what|how|which|why|could you|can you)\b", re.I)
QUESTION_END = re.compile(r"[?？]\s*$|吗[。？?]?$")
WRAPPED = re.compile(
    r"记住|别忘|重要|按这个来|keep (?:that|this|it) in mind|remember|assume that|accordingly|"
    r"going forward|from now on|以后|今后",
    re.IGNORECASE,
)


# A request for a task now ("帮我写个 PRD 的大纲", "Can you summarise this?", "我查查": trying,
# not stating), unless it sets how every such task is done ("帮我写邮件的时候都…", "whenever…").
REQUEST = re.compile(
    r"^(?:请|麻烦)?(?:帮我|帮忙|给我|替我)(?!.*(?:以后|今后|的时候|每次|总是|一律|统一|都))|"
    r"^(?:好[的，,]?\s*)?我(?:先|来|再)?\S{0,2}一下|"
    r"^(?:好[的，,]?\s*)?(?:那)?我(?:先|来|再|去)?"
    r"(?!爸爸|妈妈|哥哥|姐姐|弟弟|妹妹|爷爷|奶奶|姥姥|姥爷|婆婆|公公|叔叔|舅舅|伯伯|宝宝|太太)(\S)\1|"
    r"^(?:please\s+)?(?:help me|can you|could you|would you|write me|give me|show me|make me|"
    r"draft me)\b(?!.*\b(?:always|from now on|every time|whenever|in future|going forward)\b)",
    re.IGNORECASE,
)


# The user thinking aloud about an option, not deciding it.
USER_SUGGESTION = re.compile(
    r"可以考虑|要不要|不如我们|我觉得.{0,6}可以|\bhow about\b|\bwhat if we\b|"
    r"\bmaybe we (?:should|could)\b|\bwe could consider\b|\b(?:i|we) suggest\b|我建议|我提议",
    re.IGNORECASE,
)


# A question is not a statement, unless it asks for a standing rule ("以后能不能都…？").
ASKS_ALWAYS = re.compile(
    r"以后|今后|每次|总是|一直|默认|\balways\b|\bfrom now on\b|\bevery time\b|\bwhenever\b|"
    r"\bgoing forward\b|\bby default\b",
    re.IGNORECASE,
)


# The user verifies or settles what the assistant just said ("调完之后确实好了", "就这么定了",
# "Yes, confirmed.", "Adding the index fixed it."). Agreeing to try something or to do it now
# ("好，我试试", "行，就这么办", "Yes please") verifies nothing.
SETTLES = re.compile(
    r"确实(?:好了|解决|管用|有效|生效|快了)|果然|证实|验证(?:过|了)|(?:解决|修好|搞定|生效)了|"
    r"定了|就这么定|就定|决定了|拍板|"
    r"\bconfirmed\b|\b(?:fixed|solved|resolved)\s+(?:it|the\s+\w+)\b|\bthat did it\b|"
    r"\bworks now\b|\bdecided\b|\bdecision made\b|\bsettled\b|\bverified\b|"
    r"\bthat was (?:it|the (?:cause|problem|issue))\b|"
    # A statement of fact confirmed as right ("yes that's right", "没错").
    r"\bthat'?s (?:right|correct)\b|\bexactly\b|没错|说得对",
    re.IGNORECASE,
)
NEGATED = re.compile(r"没|不|未|别|\bnot\b|n't\b|\bno\b|\bnever\b", re.IGNORECASE)


def settles(message: str) -> bool:
    """Whether a user's message verifies or settles the assistant's statement before it: a
    settling word, no negation, no question, nothing scoped to now."""
    return (
        bool(SETTLES.search(message))
        and not NEGATED.search(message)
        and not ONE_OFF.search(message)
        and not any(QUESTION_END.search(s) for s in re.split(r"(?<=[。！？!?])\s*", message))
    )


def veto(sentence: str, role: str) -> str | None:
    """Why a sentence may not be kept whatever the head says, or None."""
    if ONE_OFF.search(sentence):
        return "one_off"
    if SNAPSHOT.search(sentence):
        return "snapshot"
    if CODE_OR_PATH.search(sentence):
        return "code_or_path"
    if role == "assistant":
        # The assistant's own ideas are not the user's preferences; its confirmation of an
        # outcome is kept (once: a confirmation of what the user said is the user's fact).
        if SUGGESTION.search(sentence):
            return "suggestion"
        if not CONFIRMED.search(sentence):
            return "assistant_unconfirmed"
    elif role != "user":
        return "role"
    elif REQUEST.search(sentence.strip()):
        return "request"
    elif USER_SUGGESTION.search(sentence):
        return "suggestion"
    elif QUESTION_END.search(sentence) and not ASKS_ALWAYS.search(sentence):
        return "question"
    return None


def cues(sentence: str, role: str) -> list[float]:
    """The rule features the head reads beside the sentence vector."""
    return [
        1.0 if DURABLE.search(sentence) else 0.0,
        1.0 if WRAPPED.search(sentence) else 0.0,
        1.0 if QUESTION.search(sentence) else 0.0,
        1.0 if FIRST_PERSON.search(sentence) else 0.0,
        1.0 if role == "assistant" else 0.0,
    ]


CUE_NAMES = ("durable_cue", "wrapped", "question", "first_person", "assistant")


def rules_keep(sentence: str, role: str) -> bool:
    """The rules-only decision (the extractor before the learned head): a durable cue in a
    user's sentence, a confirmation in an assistant's."""
    if role == "assistant":
        return bool(CONFIRMED.search(sentence))
    return bool(DURABLE.search(sentence))
