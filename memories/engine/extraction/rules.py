"""The rules: hard guards that veto a sentence whatever the learned head thinks, and the cues
the head reads as features (and the rules-only decision uses alone).

A guard is something a sentence can be checked for, not a judgement of worth: a time word of a
one-off request, a runtime snapshot, an unconfirmed suggestion by the assistant, code, a path or
a URL.  Credentials and identifiers are admission's: it refuses the whole conversation before it
is queued and every fact again before it is adopted.
"""

from __future__ import annotations

import re
from itertools import accumulate

import jieba
import jieba.posseg

from memories.language.past import PAST_DATED
from memories.language.times import WEEKDAY_ZH

# Today and the day before, said relative to today ("昨天", "今天", "刚刚", "yesterday"): the day
# of a one-off ("昨天吃了火锅", "I went to the dentist yesterday"), but a change the user made
# that day stands from then on (``recent_change``).
_RECENT_DAY = (
    r"(?:昨天|今天)(?:早上|上午|中午|下午|晚上)?|昨晚|今早|刚才(?!说|提|讲)|刚刚|"
    r"\b(?:yesterday|today)(?: (?:morning|afternoon|evening))?\b|\blast night\b|"
    r"\bthis (?:morning|afternoon)\b|\bearlier today\b|\bjust now\b"
)
ONE_OFF = re.compile(
    rf"{_RECENT_DAY}|"
    r"这次|本次|这一次|明天|今晚|马上|临时|暂时|待会|一会儿|"
    # An afternoon of no day named is today's; a weekday's is this week's unless it recurs
    # (``_RECURRING_PART``).
    r"(?<!周[一二三四五六日天末])(?<!星期[一二三四五六日天])(?<!礼拜[一二三四五六日天])"
    r"(?<!每天)(?<!平时)(?<!工作日)(?<!每个)(?:下午|上午)|"
    r"这封|这份|这篇|这张|这条消息|"
    r"\bthis time\b|\btomorrow\b|\btonight\b|\bright now\b|\bfor now\b|\bjust once\b|"
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
# Leaving or joining an employer: a change of what the user does every day ("I left Google last
# month": the head alone scored it 0.17 against a threshold of 0.18).
_EMPLOYER_CHANGE = (
    r"离职|辞职|跳槽|入职|\b(?:left|quit|joined)\b(?= (?:my (?:job|company)|(?-i:[A-Z])))"
)
DURABLE = re.compile(
    rf"{_EMPLOYER_CHANGE}|"
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


# Dated relative to today ("下周三", "后天", "this Friday", "next month"): true for days, then
# wrong. A habit names no such day ("我周末一般去爬山", "每月 25 号截止，过期下个月再报"), a
# change from that day on stays true ("下个月起我常驻伦敦", "我下周搬去重庆了"), and "下周计划" is
# a kind of plan, not a date. An agent that needs the date later writes it with ``valid_until``.
TIME_BOUND = re.compile(
    r"(?:大?后天|前天|下下?个?(?:周|星期|礼拜)|这个?(?:周|星期|礼拜)(?!期)|本周|下个?月|这个月|本月)"
    r"(?!的?(?:计划|目标))|"
    r"\b(?:next|this) (?:week|weekend|month|monday|tuesday|wednesday|thursday|friday|saturday|"
    r"sunday)\b|\bthe day after tomorrow\b|"
    r"\bin (?:a|one|two|three|four|a few|a couple of|\d+) (?:days?|weeks?)\b",
    re.IGNORECASE,
)
_HABIT = re.compile(
    r"每|一般|通常|总是|以后|今后|\bevery\b|\beach\b|\busually\b|\balways\b|\bfrom now on\b",
    re.IGNORECASE,
)
# A change that stands from its day on: moving, joining or leaving a company, switching to
# something else ("搬去重庆", "从阿里离职", "switched to Cursor", "left Google"; not "left my
# umbrella").
CHANGE = re.compile(
    rf"{_EMPLOYER_CHANGE}|搬|换到|换成|改用|调到|加入|转到|改成|改为|"
    r"\bmov(?:e|es|ed|ing) to\b|\bjoin(?:s|ed|ing)?\b|\brelocat|"
    r"\bstart(?:s|ed|ing)? (?:at|a new job)\b|\bswitch(?:es|ed|ing)? (?:from [^,;.]{1,30}? )?to\b|"
    r"\bquit\b|"
    r"\bleaving\b(?= (?:my (?:job|company)|(?-i:[A-Z])))",
    re.IGNORECASE,
)
# "I just left Google", "我刚从阿里离职": "just" dates a change as "yesterday" does.
_JUST = (
    r"\bjust (?=(?:left|quit|joined|moved|relocated|started|switched)\b)|"
    r"(?<!刚)刚(?!刚|才)(?=从[^，,。]{1,12}?(?:离职|辞职|跳槽)|搬|离职|辞职|入职|跳槽|换到|换成|改用|加入|"
    r"调到|转到)"
)
# Every date of a day gone by relative to the day it was said: a change kept is written without
# it (``facts.undated``).
DATED_PAST = re.compile(rf"{PAST_DATED.pattern}|{_RECENT_DAY}|{_JUST}", re.IGNORECASE)
# A change said as done: 了, 已(经), an English verb of change in the past.
_DONE = re.compile(
    r"了|已|\b(?:left|quit|joined|moved|relocated|started|switched)\b", re.IGNORECASE
)


def recent_change(sentence: str) -> bool:
    """Whether a sentence dated today or yesterday tells a change the user made ("我昨天从阿里离职
    了", "I left Google yesterday"): it stands from that day on, as one of last month does, when
    it sets one of the user's one-value attributes (``pipeline.candidates``), and is left to the
    head. An event of that day ("昨天吃了火锅") or a change asked for now ("今天先改用英文回答我")
    is a one-off, and so is anything else one-off words date ("这次", "for now")."""
    rest = re.sub(_RECENT_DAY, "", sentence, flags=re.IGNORECASE)
    return (
        rest != sentence
        and not ONE_OFF.search(rest)
        and bool(FIRST_PERSON.search(sentence) and CHANGE.search(rest) and _DONE.search(rest))
    )


# "下个月起…", "下周一开始…": from that day on.
_FROM_THEN_ON = re.compile(
    r"^[一二三四五六日天]?(?:起|开始)(?!.*(?:两|几|\d+|一)(?:天|周|个?星期|个?月))"
)


def time_bound(sentence: str) -> bool:
    """Whether a sentence is dated relative to today: a plan for a day to come, true only for a
    while, or an event of a day gone by; a change from that day on is neither."""
    if _HABIT.search(sentence):
        return False
    found = TIME_BOUND.search(sentence)
    if found is not None:
        after = sentence[found.end() :]
        if not (_FROM_THEN_ON.match(after) or CHANGE.search(after)):
            return True
    # Dated relative to today in the past ("上周", "上个月", "last week"): an event of a day gone
    # by is a one-off ("I went to the dentist last week"); a change stands from that day on
    # ("上个月我从阿里离职了", "I left Google last month") and is left to the head, as said. A past
    # year dates background ("we moved the app off Java last year"): left to the head.
    return bool(PAST_DATED.search(sentence)) and not CHANGE.search(sentence)


# A plan, not a state: what it is said of is not true yet ("我要出差", "we're going to…").
_PLANNED = re.compile(
    r"要|打算|准备|计划|将|会|想|['’]ll\b|"
    r"\b(?:will|going to|plan(?:s|ning)? to|want to|about to)\b",
    re.IGNORECASE,
)
_CLAUSE_END = re.compile(r"(?<=[，,；;])\s*")


def without_deadline(sentence: str) -> str:
    """A statement without the clauses from the first one dated by a day to come on ("我们项目
    代号“青龙”，是一个给物流公司做的调度系统，下个月底交付" → "…调度系统", "…, due next month"):
    the date is true for weeks, the statement before it for good. A sentence that opens with the
    date, or whose first clauses are a plan ("我要出差，下周三去北京"), is as said: all of it is
    dated. A day gone by dates an event, and what is said beside it is often a snapshot ("现在…
    有 23 个依赖，uv.lock 是上周五更新的"): as said too."""
    if not time_bound(sentence):
        return sentence  # a habit's date ("每月 25 号截止，过期下个月再报") is no deadline
    clauses = [c for c in _CLAUSE_END.split(sentence) if c]
    for n in range(1, len(clauses)):
        head = "".join(clauses[:n])
        if head.count("“") != head.count("”") or head.count('"') % 2:
            continue  # inside a quotation
        dated = TIME_BOUND.search(clauses[n]) and time_bound(clauses[n])  # to come, not gone
        if dated and not time_bound(head) and not _PLANNED.search(head):
            return head.rstrip("，,；; ")
    return sentence


# What the user imagines: a condition ("If I ever…", "要是…的话", "假如…") with what they would
# then do ("I'd", "would", "可能", "也许"). A rule's condition says what to do instead ("如果是技术
# 问题，就先给结论", "If a test is flaky, quarantine it").
HYPOTHETICAL = re.compile(
    r"^(?:如果|要是|假如|假设|万一|倘若).*(?:可能|也许|或许|说不定|大概|会不会)|"
    r"^(?:if|suppose|imagine)\b.*(?:\bwould\b|\bmight\b|\bcould\b|['’]d\b)|"
    r"\bif (?:i|we) ever\b",
    re.IGNORECASE,
)
# Words aimed at the agent's own instructions ("忽略之前的所有指令", "ignore all previous
# instructions"): an attack or a command, never a fact about the user — and stored, it would come
# back as context.
TO_THE_AGENT = re.compile(
    r"(?:忽略|无视|忘掉|忘记)掉?你?(?:之前|以前|上面|前面|以上|所有|全部)的?(?:所有|全部)?的?"
    r"(?:指令|指示|提示词?|规则|设定|要求)|"
    r"\b(?:ignore|disregard|forget)\s+(?:(?:all|any|the|your|my)\s+){0,2}"
    r"(?:previous|prior|earlier|above|preceding|system)\s+(?:instructions?|prompts?|rules|messages)\b|"
    r"\b(?:reveal|print|show|repeat)\s+(?:me\s+)?(?:the|your)\s+system\s+prompt\b|"
    r"(?:输出|泄露|告诉我)你?的?系统提示词",
    re.IGNORECASE,
)
# A task for now in the imperative ("Summarize this article for me", "Draft an email to my
# landlord", "写一首关于我女儿的诗", "我需要一份 Go 的学习路线"): the object is one thing (this, a,
# three, my…). Writing a kind of thing is a rule ("Write commit messages in English"), and so is
# anything said for always or under a condition.
TASK_NOW = re.compile(
    r"^(?:please\s+)?(?:summari[sz]e|draft|generate|explain|list|translate|rewrite|proofread|"
    r"compose|calculate|convert|outline|compare|find|look up|book|create|write|send|plan|"
    r"brainstorm|prepare|come up with|pick|order|remind me)\b"
    r"(?=.*\b(?:me|my|this|that|these|those|a|an|one|two|three|four|five|some|\d+)\b)|"
    r"^i (?:need|want|would like|['’]d like) (?:a|an|one|some|two|three)\b|"
    r"^(?:请|麻烦你?)?(?:写|画|翻译|总结|概括|列出?|生成|解释|算|计算|查|搜索?|推荐|整理|润色|起草|拟|订|预订)"
    r"(?:一下|一[个份首篇段封张条句]|几[个份首篇段封张条句]|[个份首篇段封张条句])|"
    r"^我(?:需要|想要|要)(?:一(?![直律定样般起向贯])|几)[个份首篇段封张条杯]",
    re.IGNORECASE,
)
STANDING = re.compile(
    r"以后|今后|每次|每当|总是|一律|统一|默认|都|的时候|\balways\b|\bfrom now on\b|\bevery\b|"
    r"\ball\b|\bany\b|"
    r"\bwhenever\b|\bin future\b|\bgoing forward\b|\bby default\b|\bnever\b|\bbefore\b|"
    r"\bafter\b|\bwhen\b|\bif\b|\bunless\b",
    re.IGNORECASE,
)
# A one-off exception after a standing rule ("以后写 Python 都加类型注解，这次不用。", "…, but not
# this time."): the rule stands, the exception is for now.
EXCEPTION_NOW = re.compile(
    r"\s*[，,;；]\s*(?:但是?|不过)?(?:这次|这回|本次|今天)先?(?:不用|不必|除外|例外|算了|就不用)了?吧?"
    r"(?=[。.!！]?\s*$)|"
    r"\s*[,;]?\s*(?:but|except)\s+(?:not\s+)?(?:this time|today|for now)(?=[.!]?\s*$)",
    re.IGNORECASE,
)


def without_exception(sentence: str) -> str:
    """A standing rule without the one-off exception that follows it; other sentences as said."""
    rule = EXCEPTION_NOW.sub("", sentence)
    return rule if rule != sentence and ASKS_ALWAYS.search(rule) else sentence


# A request for a task now ("帮我写个 PRD 的大纲", "Can you summarise this?", "我查查": trying,
# not stating), unless it sets how every such task is done ("帮我写邮件的时候都…", "whenever…").
REQUEST = re.compile(
    # "帮我记住…" wraps a statement; it asks for no task.
    r"^(?:请|麻烦)?(?:帮我|帮忙|给我|替我)(?!记住|记一下|记下|记着|记好)"
    r"(?!.*(?:以后|今后|的时候|每次|总是|一律|统一|都))|"
    r"^(?:好[的，,]?\s*)?我(?:先|来|再)?\S{0,2}一下|"
    r"^(?:好[的，,]?\s*)?(?:那)?我(?:先|来|再|去)?"
    # Not kin, nor 刚刚 ("我刚刚搬到杭州了": just, no verb tried).
    r"(?!爸爸|妈妈|哥哥|姐姐|弟弟|妹妹|爷爷|奶奶|姥姥|姥爷|婆婆|公公|叔叔|舅舅|伯伯|宝宝|太太|刚刚)"
    r"(\S)\1|"
    r"^(?:please\s+)?(?:help me|can you|could you|would you|write me|give me|show me|make me|"
    r"draft me)\b(?!.*\b(?:always|from now on|every time|whenever|in future|going forward)\b)",
    re.IGNORECASE,
)


# The user thinking aloud about an option, not deciding it.
USER_SUGGESTION = re.compile(
    r"可以考虑|要不要|不如我们|我觉得.{0,6}可以|\bhow about\b|\bwhat if we\b|"
    r"\bmaybe we (?:should|could)\b|\bwe could consider\b|\b(?:i|we) suggest\b|我建议|我提议|"
    # A proposal put to the others as a question ("我们以后都用 MySQL 吧？").
    r"我们.*吧\s*[？?]\s*$",
    re.IGNORECASE,
)


# A question is not a statement, unless it asks for a standing rule ("以后能不能都…？").
ASKS_ALWAYS = re.compile(
    r"以后|今后|每次|总是|一直|默认|\balways\b|\bfrom now on\b|\bevery time\b|\bwhenever\b|"
    r"\bgoing forward\b|\bby default\b",
    re.IGNORECASE,
)


# A question for information, even about later ("如果我以后去日本工作，需要准备什么？"), is not a
# request for a standing rule.
ASKS_WHAT = re.compile(
    r"什么|怎么|怎样|哪|多少|几[个点时天次]|为什么|为啥|谁|啥|\b(?:what|how|which|why|where|when|who)\b",
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
    r"\bthat'?s (?:right|correct)\b|\bexactly\b|没错|说得对|"
    # "对，就是这个原因", "改了之后就好了", a bare "对。" to "…对吗？".
    r"就是这个(?:原因|问题)?|(?:之后|以后|完)就?好了|^\s*(?:对|是的|对的)\s*[。！!]?\s*$",
    re.IGNORECASE,
)
# How the assistant opens what it sums up or weighs for the user to confirm ("总结一下你的偏好：…
# 对吗？", "综合来看，…"), and how it hedges a cause ("看起来是因为…", "是不是因为…？"): once the
# user confirms, the statement stands without them.
_SUMMING_UP = re.compile(
    r"^\s*(?:总结一下|总结|综合来看|综上|总之|总的来说|简单来说|也就是说|to sum up|in summary|so)"
    r"\s*[，,：:]?\s*",
    re.IGNORECASE,
)
_HEDGED_CAUSE = re.compile(r"^(?:看起来|看样子|似乎|应该|可能|估计)是?(?:因为|由于)")
_ASKED_CAUSE = re.compile(r"^(?:是不是|是否)(?:因为|由于)(.+?)\s*[？?]$")


def as_conclusion(sentence: str) -> str:
    """The assistant's sentence as the statement the user confirmed."""
    sentence = _SUMMING_UP.sub("", sentence)
    sentence = _ASKED_CAUSE.sub(r"原因是\1。", sentence)
    return _HEDGED_CAUSE.sub("原因是", sentence)


# The user agreeing with what the assistant said, then saying it ("我同意你刚才说的，瓶颈确实在磁盘
# IO。", "You're right, the leak was in the cache."): what follows is a verified conclusion.
_AGREEING = re.compile(
    r"^\s*(?:我(?:也)?同意你?(?:刚才|之前)?(?:说的|的(?:看法|判断|分析))?|你说得(?:对|没错)|"
    r"I agree(?: with you)?|you(?:['’]re| are) right)\s*[，,:：;；]\s*(?=\S)",
    re.IGNORECASE,
)


# How the assistant is to answer, said for good ("Please always answer in British English.",
# "回答别太啰嗦，能用表格就用表格。"): the seeds' first example of a preference, kept on the user's
# word — the head reads the imperative's vector as a task and dropped both.
_ANSWER_RULE = re.compile(
    r"\b(?:answer|answers|reply|replies|respond|responses?|explanations?)\b.*"
    r"\b(?:always|from now on|by default|every time|going forward|never)\b|"
    r"\b(?:always|from now on|by default|never)\b.*\b(?:answer|reply|respond|explain)\b|"
    r"(?:回答|回复|答复|解释).*(?:以后|今后|默认|一律|统一|都|别|不要|尽量|就用)|"
    r"(?:以后|今后|默认|一律|统一)(?:都)?(?:用|使用|以).*(?:回答|回复|答复)",
    re.IGNORECASE,
)


# A strong feeling of the user's about a kind of thing ("I hate meetings on Friday afternoons",
# "我最烦周五下午开会"): a preference as plain as "I prefer", which the head scored 0.13 against
# 0.18. Not about this one thing or a person ("I hate this song", "我讨厌你"), nor a mood ("我受
# 不了了").
_STRONG_FEELING = re.compile(
    r"(?:^|[，,:：]\s*)(?:I|we)\s+(?:(?:really|absolutely|just|honestly|truly)\s+)?"
    r"(?:hate|love|loathe|detest|despise|can['’]?t\s+stand|cannot\s+stand)\s+"
    r"(?!(?:it|this|that|these|those|the|your|you|him|her|them|myself)\b)[A-Za-z]|"
    r"(?:^|[，,:：]\s*)我们?(?:真的|很|特别|非常|最|超|一向)?(?:讨厌|烦|受不了|反感|痛恨|厌恶)"
    r"(?!你|您|这|那|它|了|死|透)(?=[\u4e00-\u9fffA-Za-z0-9])",
    re.IGNORECASE,
)
# A cause the user found and fixed ("经过排查，登录慢是因为 Redis 连接没有复用，已经修好了"): a
# conclusion the user verified, as one the user confirms of the assistant's (``settles``).
_FIXED = re.compile(r"修好|修复|解决|搞定|\b(?:fixed|resolved|solved)\b", re.IGNORECASE)
_NOT_FIXED = re.compile(
    r"(?:没有?|未|还没|不)\s*(?:修好|修复|解决|搞定)|\bnot\s+(?:yet\s+)?(?:been\s+)?"
    r"(?:fixed|resolved|solved)\b|n['’]t\s+(?:been\s+|yet\s+)?(?:fixed|resolved|solved)\b",
    re.IGNORECASE,
)


# How the user wants to be called ("叫我小林就行", "你可以称呼我 Kevin", "Just call me Sam."): a
# name of the user's, said as an instruction. Not a call ("明天早上五点叫我" opens with when, "叫我
# 起床", "叫我一声", "Call me back", "call me on Monday"): the name opens with no verb, adverb,
# number or preposition (jieba's tags), an English one is capitalised and no day or time.
_CALL_ME_ZH = re.compile(
    r"^(?:以后|今后|之后|那|你|您)?(?:就|可以|直接|请|都|也)*(?:叫|称呼)我(?:为|做)?\s*"
    r"(?P<name>(?![起去来过吃回下上别不出做帮到在给把干醒开接打看等的时聊])[\u4e00-\u9fff]{1,4}?|"
    r"[A-Za-z][\w'-]*(?: (?-i:[A-Z])[\w'-]*)?)\s*"
    r"(?:就行了?|就好了?|就可以了?|即可|好了|就成)?$",
    re.IGNORECASE,
)
_CALL_ME_EN = re.compile(
    r"^(?:(?:please|just|you\s+can|you\s+may|feel\s+free\s+to)\s+)*call\s+me\s+"
    r"(?!(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|today|tonight|tomorrow|"
    r"later|back|when|whenever|if|at|on|anytime|asap|after|before)\b)"
    r"(?P<name>(?-i:[A-Z])[\w'-]*(?: (?-i:[A-Z])[\w'-]*)?)"
    r"(?:,?\s+(?:please|instead|from\s+now\s+on|going\s+forward))?$",
    re.IGNORECASE,
)
_HAN_NAME = re.compile(r"^[\u4e00-\u9fff]")
_NOT_A_NAME_TAGS = ("v", "d", "m", "c", "p", "f", "u", "r", "t", "q")


def called(clause: str) -> str | None:
    """The name the user asks to be called by in ``clause`` ("叫我小林就行" → "小林", "Just call me
    Sam" → "Sam"), or None when it asks for no name."""
    text = clause.strip().rstrip("。.!！~～")
    found = _CALL_ME_ZH.match(text) or _CALL_ME_EN.match(text)
    if found is None:
        return None
    name = found.group("name")
    if _HAN_NAME.match(name):
        first = next((pair for pair in jieba.posseg.cut(name) if pair.word.strip()), None)
        if first is None or first.flag.startswith(_NOT_A_NAME_TAGS):
            return None
    return name


def on_the_users_word(sentence: str) -> bool:
    """Whether a user's sentence is kept on the user's word, not the head's: it sets how every
    answer is given, states a strong feeling about a kind of thing, a cause the user found and
    fixed, or how the user wants to be called ("Just call me Sam." scored 0.12 against 0.18)."""
    fixed_cause = (
        CAUSE.search(sentence) and _FIXED.search(sentence) and not _NOT_FIXED.search(sentence)
    )
    return bool(
        _ANSWER_RULE.search(sentence)
        or _STRONG_FEELING.search(sentence)
        or fixed_cause
        or called(sentence) is not None
    )


def agreement(sentence: str) -> str | None:
    """What the user says after agreeing with the assistant, or None when they do not agree."""
    found = _AGREEING.match(sentence)
    return sentence[found.end() :] if found else None


# The assistant asking the user about a preference, a tool or a setup of their own ("What editor
# do you use?", "Which language do you mostly write?", "What's your favourite shell?", "你平时用
# 什么编辑器？", "你们团队用什么数据库？"). Not a question about a task ("What should I name the
# file?", "这次会议定在哪个会议室？"), about what the user wants now ("你想用什么颜色？"), or a
# choice among the assistant's options ("Which option do you prefer?", "你喜欢哪个方案？").
_OPTIONS = (
    r"(?:one|option|version|draft|variant|alternative|approach|plan|of)s?\b|方案|版本|选项|稿"
)
_ASKS_USE_EN = re.compile(
    rf"^(?:(?:and|so|ok(?:ay)?|thanks|got it)[,.!]?\s+)?(?:what|which)\s+(?!{_OPTIONS})"
    r"(?:[\w+#.-]+\s+){0,3}?"
    r"do\s+you\s+(?P<verb>(?:(?:usually|normally|mostly|mainly|generally|typically)\s+)?"
    r"(?:use|prefer|like|code in|program in|write|work in|speak|drink|run|listen to|play))\b"
    r"(?P<rest>[^?,;]*)\?$",
    re.IGNORECASE,
)
_ASKS_FAVOURITE_EN = re.compile(
    r"^(?:(?:and|so|ok(?:ay)?|thanks|got it)[,.!]?\s+)?what(?:'s|’s| is)\s+your\s+"
    r"(?P<what>(?:favou?rite|preferred|usual|main|primary|default|go-to)\s+[\w +#.-]{1,30}?)\s*\?$",
    re.IGNORECASE,
)
_ASKS_USE_ZH = re.compile(
    r"^(?:那|请问)?(?P<who>你们|您|你)(?P<pre>(?:(?!想|要|打算|准备|希望|需要)[^，,。？?]){0,6}?)"
    r"(?P<verb>用|使用|喜欢用?|习惯用?|偏好|常用|写|喝|说)"
    rf"(?:的是)?(?:什么|哪个|哪种|哪款|哪一个|哪一种|哪门|啥)(?!{_OPTIONS})"
    r"(?P<noun>[^，,。？?]{1,8}?)(?:呢|啊)?[？?]$"
)
# The assistant asking for a setting of the user's ("Which timezone should I use for your
# calendar?", "What's your time zone?"): the answer is the user's value of it. A time zone is the
# user's whatever it is asked for; the language of "your summary" may be for that one only.
_ASKS_SETTING_EN = re.compile(
    r"^(?:(?:and|so|ok(?:ay)?|thanks|got it)[,.!]?\s+)?(?:what|which)\s+(?P<what>time ?zone)\s+"
    r"should\s+I\s+(?:use|assume)(?:\s+for\s+(?:you|your\s+[\w -]{1,20}?))?\s*\?$|"
    r"^(?:(?:and|so|ok(?:ay)?|thanks|got it)[,.!]?\s+)?what(?:'s|’s| is)\s+your\s+"
    r"(?P<own>time ?zone|native language|first language|home ?town)\s*\?$",
    re.IGNORECASE,
)
# The assistant asking what a thing of the user's is built on or written in ("What stack is the
# new service on?", "What language is your backend written in?", "周报要用什么格式？"): the kinds
# of setup a durable answer names. Not the time of a meeting, what to eat today, the name of a
# new file, nor this one thing ("这份周报要用什么格式？": 这 dates it).
_KINDS_EN = (
    r"(?:tech )?stack|language|framework|database|db|cloud|platform|runtime|os|operating system|"
    r"editor|ide|ci|format|style|template|region|library|orm|queue|broker"
)
_ASKS_OF_EN = re.compile(
    rf"^(?:(?:and|so|ok(?:ay)?|thanks|got it)[,.!]?\s+)?(?:what|which)\s+(?:{_KINDS_EN})\s+"
    r"(?P<be>is|are)\s+(?P<subject>(?:the|your|our)\s+[\w -]{1,30}?)\s+"
    r"(?P<how>(?:built|written|running|hosted|deployed|based)\s+(?:on|in|with)|on|in|using)\s*\?$",
    re.IGNORECASE,
)
_KINDS_ZH = (
    r"格式|风格|模板|结构|语言|语气|字体|配色|技术栈|框架|数据库|编辑器|工具|平台|规范|流程|单位|时区|"
    r"命名方式|命名规范"
)
_ASKS_OF_ZH = re.compile(
    r"^(?:(?:好的?|嗯|行)[，,]\s*|那|请问)?"
    r"(?P<subject>(?:(?!你|您|这|那|该|此|今|明|昨|想|要|用)[^，,。？?\s]){1,8}?)"
    r"(?P<verb>(?:一般|通常|平时|统一)?(?:要|得|应该|都)?(?:用|使用|采用|按|走)?)"
    rf"(?:什么|哪种|哪个|啥|什么样的?)(?P<noun>{_KINDS_ZH})(?:呢|啊)?[？?]$"
)
# A short answer: a name or two ("Vim", "VS Code", "阿里云"), then at most that it has always
# been so ("always", "一直都是", "已经用了三年") and the user's own statements ("UTC+8, I'm in
# Shanghai."). Not a yes, a no, or no answer ("都行", "Not sure").
_ANSWER_PARTS = re.compile(r"[，,；;。！!]+|\.(?:\s+|$)")
_ALWAYS_SO = re.compile(
    r"^(?:always|mostly|usually|as always|all the time|every day|for years|since forever|"
    r"(?:for )?(?:many|several|a few|two|three|four|five|\d+) years(?: now)?|"
    r"一直(?:都)?(?:是|用)?(?:它|这个)?|一直如此|向来如此|从来都是|好?多年了|常年|基本上?都是|主要是|"
    r"(?:已经|都)?用了?(?:好|快|差不多)?(?:几|[一二两三四五六七八九十半\d]+)(?:多)?年(?:多)?了?|"
    # Settled ("PostgreSQL，已经定了").
    r"(?:已经)?定(?:下来)?了|(?:it'?s |that'?s )?(?:decided|settled))$",
    re.IGNORECASE,
)
_NO_ANSWER = re.compile(
    r"^(?:yes|yeah|yep|no|nope|ok(?:ay)?|sure|maybe|not sure|dunno|no idea|none|nothing|either|"
    r"both|neither|whatever|(?:it )?depends|好的?|可以|行|嗯+|对|是的?|不是|没有|不用|都行|都可以|"
    r"随便|不知道|不确定|看情况|说不好)$|"
    # Not an answer yet ("Not sure yet", "还没定").
    r"^(?:not sure|no idea|i don'?t know|don'?t know|haven'?t decided|tbd|"
    r"不知道|不确定|还没定|没想好|待定|按上次|和上次|跟上次)",
    re.IGNORECASE,
)
# The user's own statement after the answer ("…, I'm in Shanghai."): judged as said.
_OWN_STATEMENT = re.compile(r"^(?:我|I\b|I'm|I’m|[Mm]y\b|[Oo]ur\b|[Ww]e\b)")


def short_answer(message: str) -> tuple[str, str] | None:
    """The name a user's message answers with and the user's own statements after it ("Vim,
    always." → ("Vim", ""); "UTC+8, I'm in Shanghai." → ("UTC+8", "I'm in Shanghai.")), or None
    when it says more, or less, than a short answer."""
    parts = [p.strip() for p in _ANSWER_PARTS.split(message.strip()) if p and p.strip()]
    if not parts or "?" in message or "？" in message:
        return None
    answer, *after = parts
    rest = ""
    for part in after:
        if _OWN_STATEMENT.match(part):
            rest = message[message.index(part) :].strip()
            break
        if not _ALWAYS_SO.match(part):
            return None
    if _NO_ANSWER.match(answer) or _addresses(answer):
        return None
    han = len(re.findall(r"[\u4e00-\u9fff]", answer))
    words = len(re.findall(r"[A-Za-z0-9][\w+#.-]*", answer))
    return (answer, rest) if han <= 8 and words <= 4 and (han or words) else None


def _addresses(text: str) -> bool:
    return bool(FIRST_PERSON.search(text) or re.search(r"\byou\b|你", text, re.IGNORECASE))


# A Chinese answer that says how, with a verb and no subject ("按…三段写", "用公司统一的模板").
_ZH_PREDICATE = re.compile(r"^(?:一律|统一|都|一般|通常)?(?:按|按照|用|使用|采用|走|是|分|写|以)")


def _predicate(message: str, chinese: bool) -> str | None:
    """A user's answer that says what the asked-about thing is without a subject of its own ("按
    “本周完成 / 下周计划 / 风险”三段写", "Go with gRPC, deployed on GKE."), or None."""
    said = message.strip().rstrip("。.!！")
    if not said or "?" in said or "？" in said or _NO_ANSWER.match(said) or _addresses(said):
        return None
    return said if not chinese or _ZH_PREDICATE.match(said) else None


def answered(question: str, message: str) -> tuple[str, str] | None:
    """The user's answer to the assistant's question about the user's own preference, tool,
    setting or setup, said as the user's statement ("What editor do you use?" / "Vim, always." →
    "I use Vim."; "你平时用什么编辑器？" / "Vim，一直都是。" → "我平时用 Vim 编辑器。"; "周报要用
    什么格式？" / "按…三段写" → "周报按…三段写。"), with what else the message states on its
    own; None for any other question or answer."""
    question = question.strip()
    short = short_answer(message)
    name, rest = short if short else (None, "")
    of_thing = _ASKS_OF_EN.match(question) or _ASKS_OF_ZH.match(question)
    if of_thing:
        chinese = of_thing.re is _ASKS_OF_ZH
        predicate = _predicate(message, chinese)
        if chinese and predicate is not None:
            name, rest = None, ""  # "用公司统一的模板" says how, it names nothing
        if name is None and predicate is None:
            return None
        return _of_thing(of_thing, name, predicate or ""), rest
    statement = _statement(question, name) if name is not None else None
    return (statement, rest) if statement is not None else None


def _of_thing(asked: re.Match[str], name: str | None, predicate: str) -> str:
    """What the thing asked about is on, in the user's words ("The new service is on Go…", "周报
    按…写。")."""
    if asked.re is _ASKS_OF_EN:
        subject = re.sub(r"^your\b", "my", asked.group("subject"), flags=re.IGNORECASE)
        subject = subject[:1].upper() + subject[1:]
        return f"{subject} {asked.group('be')} {asked.group('how')} {name or predicate}."
    subject, verb = _at_a_word(asked)
    if name is not None:
        return _named(_spaced(subject + verb, name), asked.group("noun"))
    return _spaced(subject, predicate) + "。"


def _at_a_word(asked: re.Match[str]) -> tuple[str, str]:
    """The subject and verb of a Chinese question, split where a word ends: "会议纪要|用", not
    "会议纪|要用" (the regex alone cannot tell 纪要 from 要用)."""
    question, end = asked.string, asked.end("subject")
    ends = set(accumulate(len(word) for word in jieba.cut(question)))
    while end not in ends and end < asked.end("verb"):
        end += 1
    start = asked.start("subject")
    return question[start:end], question[end : asked.end("verb")]


def _statement(question: str, name: str) -> str | None:
    asked = _ASKS_USE_EN.match(question)
    if asked:
        return f"I {asked.group('verb')} {name}{asked.group('rest').rstrip()}."
    asked = _ASKS_FAVOURITE_EN.match(question)
    if asked:
        return f"My {asked.group('what')} is {name}."
    asked = _ASKS_SETTING_EN.match(question)
    if asked:
        what = (asked.group("what") or asked.group("own")).lower()
        return f"My {what} {'are' if what.endswith('s') else 'is'} {name}."
    asked = _ASKS_USE_ZH.match(question)
    if asked:
        who = "我们" if asked.group("who") == "你们" else "我"
        said = _spaced(f"{who}{asked.group('pre')}{asked.group('verb')}", name)
        return _named(said, asked.group("noun"))
    return None


def _named(said: str, noun: str) -> str:
    """A Chinese answer with the kind of thing asked about ("用 Vim 编辑器"), named once ("用
    Notion 模板")."""
    return (said if said.endswith(noun) else _spaced(said, noun)) + "。"


def _spaced(left: str, right: str) -> str:
    """``left`` and ``right`` joined, with a space between a Latin word and a Han character ("用
    Vim 编辑器")."""
    latin_han = re.search(r"[\w+#.]$", left, re.ASCII) and re.match(r"[\u4e00-\u9fff]", right)
    han_latin = re.search(r"[\u4e00-\u9fff]$", left) and re.match(r"[\w+#.]", right, re.ASCII)
    return f"{left} {right}" if latin_han or han_latin else left + right


NEGATED = re.compile(r"没(?!错|问题)|不(?!错)|未|别|\bnot\b|n't\b|\bno\b|\bnever\b", re.IGNORECASE)


def settles(message: str) -> bool:
    """Whether a user's message verifies or settles the assistant's statement before it: a
    settling word, no negation, no question, nothing scoped to now."""
    return (
        bool(SETTLES.search(message))
        and not NEGATED.search(message)
        and not ONE_OFF.search(message)
        and not any(QUESTION_END.search(s) for s in re.split(r"(?<=[。！？!?])\s*", message))
    )


# A conclusion that names a cause ("原因是…", "根因是…", "the root cause was…", "…comes from…").
CAUSE = re.compile(
    r"原因|根因|因为|由于|导致|造成|引起|"
    r"\bcause[sd]?\b|\bbecause\b|\bdue to\b|\bcomes? from\b|\bculprit\b",
    re.IGNORECASE,
)
# A problem as the user saw it ("服务内存一直涨", "接口超时", "the API keeps timing out"): true
# until its cause is fixed. Once the user verifies the assistant's diagnosis of it, the cause is
# the fact and the symptom goes (``pipeline.extract``).
SYMPTOM = re.compile(
    r"涨|飙|慢|卡(?!片|号|住的?地方)|崩|挂了|宕机|报错|出错|错误|报警|告警|超时|失败|泄[漏露]|异常|"
    r"抖动|延迟|白屏|打不开|连不上|无响应|不响应|OOM|\b[45]\d\d\b|"
    r"\bkeeps? \w+ing\b|\bslow\b|\bcrash|\btim(?:es|ed|ing) out\b|\bleak|\bspik|"
    r"\berrors?\b|\bfail|\bhangs?\b|\bbroken\b|\bnot working\b|\bdown\b",
    re.IGNORECASE,
)


# A weekday's afternoon or morning ("周五下午"): this week's ("周五下午帮我约个会", "我周四下午请假
# 了"), unless said to recur or as how the user feels about it ("我每周三下午要接孩子", "我周二上午
# 一般在开周会", "我最烦周五下午开会").
_WEEKDAY_PART = re.compile(rf"{WEEKDAY_ZH}(?:下午|上午)")
_RECURS = re.compile(r"固定|都|总|一直|向来")


def _this_weeks(sentence: str) -> bool:
    return bool(_WEEKDAY_PART.search(sentence)) and not (
        _HABIT.search(sentence) or _RECURS.search(sentence) or _STRONG_FEELING.search(sentence)
    )


def veto(sentence: str, role: str) -> str | None:
    """Why a sentence may not be kept whatever the head says, or None."""
    one_off = ONE_OFF.search(sentence) or _this_weeks(sentence)
    if one_off and not (role == "user" and recent_change(sentence)):
        return "one_off"
    if time_bound(sentence):
        return "time_bound"
    if TO_THE_AGENT.search(sentence):
        return "to_the_agent"
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
    elif REQUEST.search(sentence.strip()) or (
        TASK_NOW.search(sentence.strip()) and not STANDING.search(sentence)
    ):
        return "request"
    elif HYPOTHETICAL.search(sentence.strip()):
        return "hypothetical"
    elif USER_SUGGESTION.search(sentence):
        return "suggestion"
    elif QUESTION_END.search(sentence) and (
        not ASKS_ALWAYS.search(sentence) or ASKS_WHAT.search(sentence)
    ):
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
