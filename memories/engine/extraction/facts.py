"""Writing the fact: what a careful person would note down from a sentence the user said.

A fact is one short, self-contained statement about the user, in the user's language, with the
user's names, terms and quotation marks exactly as typed. From a sentence this module:

* takes each item of a list as a sentence, its marker dropped and the line that introduced
  the list ("我的偏好：") carried into it;
* drops the instruction wrapped around the content ("keep that in mind…", "一定要记住",
  "assume that for…", "以后都按这个来", "please … accordingly", "this is very important"), a
  leading conversational filler or interjection ("好，那", "OK so", "唉，") and an answer's choice
  before the statement ("Python 吧，…");
* splits a sentence that states two things (a second clause with its own subject, an instruction
  after "so") into two;
* speaks of the user in the third person, grammatically (我 → 用户, 我妈 → 用户的妈妈, 我们团队 →
  用户的团队, I'm → the user is, I prefer → the user prefers, my/our → the user's), never inside
  quotes or identifiers ("us-west-2"); "we" is the user's team only at work, the user and a
  partner when one is named, else the user (我们家 → 用户家, "We have two dogs");
* drops a fragment (a dangling 和/and, fewer than a few content words) and a clause left without
  the object admission cut out of it ("日志在 /var/log/app" → "日志在").

Pure functions, no model: the decision whether a sentence is worth keeping is elsewhere
(``rules`` guards, the learned head in ``decision``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from memories.engine.extraction.rules import DATED_PAST, called
from memories.text import HAN, word_set

# Sentences end at Chinese/English terminal punctuation or a line break; an English full stop
# only before a space (3.11, example.com stay whole).
_SENTENCE_END = re.compile(r"(?<=[。！？!?])|\n+|(?<=[.])\s+")
# Clauses: Chinese comma/semicolon, an English semicolon, or an English comma before a space.
_CLAUSE = re.compile(r"(，|；|;\s+|,\s+|:\s+|：|\s+[—–]+\s+|——)")
_TERMINAL = "。！？!?.…"

# Quoted spans keep their words (a quoted 我 is the quote's speaker, not the user).
_QUOTED = re.compile(r"“[^”]*”|「[^」]*」|『[^』]*』|\"[^\"]*\"|‘[^’]*’")

# A whole clause that only tells the assistant to remember or apply the rest.
WRAPPER = re.compile(
    r"^(?:"
    r"(?:这个|这点|这一点|这件事|这条)?(?:很|非常|特别)?重要(?:的)?|"
    r"(?:这个|这点|这一点|这件事|这条)?"
    r"(?:请|你)?(?:一定|务必|千万)?(?:要)?(?:帮我)?(?:记住|记牢|记好|记下|记一下|牢记|别忘了|不要忘了|不要忘记)"
    r"(?:这个|这点|这一点|这件事|这条|哦|啊|了)?|"
    r"(?:以后|今后|之后)?(?:都|就)?(?:按|照)(?:这个|这样|这条)(?:来|办|执行)?(?:吧|哦)?|"
    r"(?:以后|今后)?(?:就)?这么(?:办|定了?|做)(?:吧)?|讨论过了|商量好了|就这样|算了|"
    # A bare decision or summary label: what was decided is elsewhere ("那我们就定了吧").
    r"(?:那(?:么)?)?(?:我们|咱们|大家)?(?:就)?(?:这么|这样)?(?:定|决定)(?:了|下来了?)?(?:吧|啊|哈)?|"
    r"总结|小结|总之|综上|结论|(?:请)?(?:一定)?(?:要)?注意(?:一下)?|"
    # A line that only announces a list ("请记住以下几点：", "Note the following:").
    r"(?:请)?(?:记住|注意)?(?:以下|下面)(?:几点|几条|这些|内容)?|"
    r"(?:please\s+)?(?:remember|note)\s+the\s+following|"
    # Where a conclusion comes from is no part of it ("根据压测结果", "based on the logs").
    r"(?:根据|基于|从)[^，,。]{0,20}(?:结果|数据|日志|监控|来看|看来)|"
    r"经过[^，,。]{0,8}(?:排查|调查|分析|定位|测试|验证|压测|检查|debug)|"
    r"after\s+(?:some\s+)?(?:digging|debugging|investigating|investigation|profiling)\b.*|"
    r"(?:based\s+on|according\s+to|judging\s+(?:by|from))\b.*|"
    r"(?:(?:so|ok(?:ay)?)[, ]+)?(?:(?:we'?re|it'?s|that'?s)\s+)?(?:settled|decided|agreed|deal)"
    r"(?:\s+then)?|(?:in\s+)?summary|to\s+sum\s+up|"
    r"(?:请)?(?:以后|今后)?(?:相应地?|据此|照此)(?:安排|处理|调整|执行)(?:吧)?|"
    r"(?:please\s+)?(?:keep|bear)\s+(?:that|this|it)\s+in\s+mind\b.*|"
    r"(?:please\s+)?(?:keep|bear)\s+in\s+mind|just\s+so\s+you\s+know|for\s+the\s+record|fyi|"
    r"(?:please\s+)?(?:remember|note)(?:\s+(?:that|this|it))?\b\.?|"
    r"(?:please\s+)?don'?t\s+forget(?:\s+(?:that|this|it))?\b.*|"
    r"(?:please\s+)?assume\s+(?:that|this|it)\b.*|"
    r"(?:please\s+)?take\s+(?:that|this|it)\s+into\s+account\b.*|"
    r"(?:please\s+)?(?:plan|schedule|answer|act|adjust|proceed|respond)\b.*\baccordingly\b.*|"
    r"(?:please\s+)?(?:use|apply)\s+(?:that|this|it)\s+(?:going\s+forward|from\s+now\s+on)\b.*|"
    # "this is very important", "Important:" (before what is)
    r"(?:(?:this|that|it)(?:\s+is|'s|’s)\s+)?(?:very\s+|really\s+|super\s+|extremely\s+)?"
    r"important(?:\s+to\s+me)?|(?:please\s+)?update\s+(?:that|this|it)|"
    r"更新一下|更正一下|补充一下|以此为准|按此更新|(?:small |quick )?update|not anymore|"
    r"go ahead"
    r")\s*[。.!！]*$",
    re.IGNORECASE,
)
# A conversational filler the sentence starts with; an assistant's confirmation marker too.
FILLER = re.compile(
    r"^(?:(?:好的?|嗯+|行|对|没错|ok(?:ay)?|alright|well|right|sure)(?:[，,。.!！ ]+|$))+"
    r"(?:那(?:么)?(?:就)?\s*|so\s*,?\s+)?|"
    r"^(?:那(?:么)?(?:就)?|so,?)\s+|^那(?:么)?(?=以后|今后|就)|"
    r"^(?:请|麻烦)?(?:帮我)?(?:记住|记一下|记下)了?[：:，, ]*|"
    r"^(?:please\s+)?(?:remember|note)(?:\s+that)?(?:[:, ]+|$)|"
    r"^(?:please\s+)?(?:keep|bear)\s+in\s+mind(?:\s+that)?(?:[:, ]+|$)|"
    # An interjection: tone, not content ("唉，我最近…", "Ugh, …").
    r"^(?:唉+|哎(?:呀|哟)?|嗯+|啊+|哈哈+|呃+|额|嘿|哇|噢|哦+|oh|ah|hmm+|ugh|haha+)(?:[，,!！~～…]+\s*|$)|"
    r"^(?:fyi|just so you know|for the record)(?:[:, ]+|$)|"
    r"^(?:actually|also|btw|by the way|heads up|(?:small |quick )?update\b|correction|"
    r"另外|还有|对了|补充一下|更新一下|其实|实际上)[，,:： ]*|"
    # An answer's "no" before what the user states instead ("不是，我们早就换成…").
    r"^(?:不是|不要|不用|不对|不|no|nope)(?:[，,]\s*(?=\S)|$)|"
    r"^(?:已确认|确认|已记录|已记下|记下了|记住了|收到|明白|了解|已更新|没问题|更正一下|更正|"
    r"就这么定|定了)"
    r"[了啦]?[：:，,。 —-]*|"
    r"^(?:confirmed|noted|got it|understood|will do|sure|correction|updated)(?:[:,.!— -]+|$)",
    re.IGNORECASE,
)
# A clause that starts with its own subject states a fact of its own.
_OWN_SUBJECT = re.compile(
    r"^(?:我们|咱们|我的|我|你们|你的|你|您|用户|项目|本项目|团队|公司|我司)|"
    r"^(?:and\s+)?(?:I|I'm|I’m|my|our|we|we're|we’re|you|you're|your|the\s+project|the\s+team|"
    r"the\s+company)\b",
    re.IGNORECASE,
)
# Words that refer back: a clause with one is not self-contained.
_REFERS_BACK = re.compile(r"它|这个|那个|其|\b(?:it|its|this|that|them|they)\b", re.IGNORECASE)
DANGLING = re.compile(
    r"(?:和|与|及|以及|或|或者|并且|而且|还有|跟|参考|比如|例如|"
    r"\band|\bor|\bwith|\bplus|\bbut|\bthe|\ba|\ban|\bof|\bto|\bat|\bfrom|\bvia|&|、|，|,)\s*[。.]?$",
    re.IGNORECASE,
)
_LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*|\d+")
MAX_FACT_CHARS = 300


# A list item's marker, dropped: "- ", "* ", "• ", "1. ", "2)", "3、", "（4）", "五、". A number
# before a digit ("3.11") or a minus before one ("-5°C") is no marker.
_LIST_MARKER = re.compile(
    r"^(?:[-*+](?:\s+|(?=[\u4e00-\u9fff]))|[•·▪◦]\s*|"
    r"\d{1,2}[.)．）](?:\s+|(?=[\u4e00-\u9fff]))|\d{1,2}、\s*|[（(]\d{1,2}[)）]\s*|"
    r"[一二三四五六七八九十]{1,2}、\s*)"
)
# A sentence that introduces a list ("我的偏好：", "Our stack:") ends with a colon.
_INTRODUCES = re.compile(r"[：:]$")


def sentences(text: str) -> list[str]:
    """The sentences of a message. A list item is a sentence of its own, without its marker;
    the sentence that introduces the list ("我的偏好：") is carried into each item: alone it
    states nothing ("用户的偏好。"), and an item alone may not say what it is about."""
    return [said for said, _ in listed(text)]


def listed(text: str) -> list[tuple[str, int | None]]:
    """The sentences of a message (``sentences``), each with the number of the list it is an
    item of — consecutive item lines are one list — or None outside a list."""
    lines = [line.strip() for line in text.split("\n") if line.strip()]
    found: list[tuple[str, int | None]] = []
    heading = ""
    lists = 0
    for i, line in enumerate(lines):
        marker = _LIST_MARKER.match(line)
        if marker:
            if i == 0 or not _LIST_MARKER.match(lines[i - 1]):
                lists += 1
            item = _under(heading, line[marker.end() :].strip())
            found.extend((said, lists) for said in _split(item))
            continue
        said, heading = _split(line), ""
        if (
            said
            and _INTRODUCES.search(said[-1])
            and i + 1 < len(lines)
            and _LIST_MARKER.match(lines[i + 1])
        ):
            said, heading = said[:-1], said[-1]
        found.extend((sentence, None) for sentence in said)
    return found


def _split(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_END.split(text) if s and s.strip()]


def _under(heading: str, item: str) -> str:
    """A list item with the sentence that introduced it: "我的偏好：回答用中文"."""
    if not heading or not item:
        return item
    return heading + item if heading.endswith("：") else f"{heading} {item}"


def is_chinese(text: str) -> bool:
    han = len(HAN.findall(text))
    latin = len(re.findall(r"[A-Za-z]", text))
    return han > 0 and han / (han + latin) >= 0.2


def content_size(text: str) -> int:
    """Han characters plus two per Latin word: "参考和" is 3, "用户叫陈工" 5, "I use Go" 6."""
    unquoted = text
    return len(HAN.findall(unquoted)) + 2 * len(_LATIN_WORD.findall(unquoted))


def is_fragment(text: str) -> bool:
    """Too little to be a statement, cut off after a conjunction, or left without the object
    admission cut out of it."""
    core = text.strip().rstrip(_TERMINAL).strip()
    return content_size(core) < 4 or _cut_off(core)


# What is left of a clause whose object was a path or a URL (admission cuts them out: "日志在
# /var/log/app" → "日志在"): it ends in a word that needs an object.
_LOST_OBJECT = re.compile(
    r"(?:"
    # 在/是/于 ending the clause, not ending a word (现在, 总是, 由于).
    r"(?<![现正实存所自好])在|(?<![但可要还就总倒正若于凡只不或像真也都即])是|"
    r"(?<![由关对终等至属善基])于|"
    # 到 after a verb of putting or sending (迟到, 收到 are words of their own).
    r"(?:部署|发布|上传|推送|迁移|放|存|传|发|推|写|同步|转发|保存|提交|装|挪|指向|链接|跳转|"
    r"重定向|deploy|push|copy)\s*到|"
    # 在 and a place word with nothing between them: "部署在下面".
    r"在(?:下面|下边|底下|里面|里边|里头|里|中|内|之下|之中|下|上面|上)|"
    r"\b(?:under|into|onto|inside|within|in|on)"
    r")$",
    re.IGNORECASE,
)
# Words that end a clause with "in"/"on" and need no object ("I always log in", "from now on").
_PARTICLE_VERBS = word_set(
    "now later so early head kick kicks kicking kicked "
    "log logs logged sign signs signed check checks checked opt opts opted plug plugs plugged "
    "fill fills filled move moves moved come comes came carry carries carried hold holds held "
    "turn turns turned go goes went keep keeps kept give gives gave drop drops dropped build "
    "builds built break breaks broke join joins joined hang hangs hung stay stays stayed eat "
    "eats ate dine dines dined sleep sleeps slept walk walks walked tune tunes tuned"
)


def _cut_off(text: str) -> bool:
    """Ends after a conjunction ("参考和") or without its object ("日志在", "versioned under")."""
    core = text.strip().rstrip(_TERMINAL).strip()
    if DANGLING.search(core):
        return True
    lost = _LOST_OBJECT.search(core)
    if not lost:
        return False
    if lost.group(0).isascii() and _STRANDED.search(core):
        return False  # its object came before it: "that's what I get paid in"
    if lost.group(0).lower() in ("in", "on"):
        before = core[: lost.start()].split()
        return bool(before) and before[-1].lower() not in _PARTICLE_VERBS
    return True


_STRANDED = re.compile(r"\b(?:what|which|whom|who|where|whatever)\b", re.IGNORECASE)


def strip_filler(text: str) -> str:
    previous = None
    while previous != text:
        previous, text = text, FILLER.sub("", text, count=1).lstrip()
    return text


def _clauses(sentence: str) -> list[tuple[str, str]]:
    """(clause, the separator after it), quotes kept whole."""
    protected, spans = _protect_quotes(sentence)
    parts = _CLAUSE.split(protected)
    out: list[tuple[str, str]] = []
    for i in range(0, len(parts), 2):
        clause = _restore(parts[i], spans)
        separator = parts[i + 1] if i + 1 < len(parts) else ""
        out.append((clause, separator))
    return out


def _protect_quotes(text: str) -> tuple[str, list[str]]:
    spans: list[str] = []

    def hide(match: re.Match[str]) -> str:
        spans.append(match.group(0))
        return f"\x00{len(spans) - 1}\x00"

    return _QUOTED.sub(hide, text), spans


def _restore(text: str, spans: list[str]) -> str:
    return re.sub(r"\x00(\d+)\x00", lambda m: spans[int(m.group(1))], text)


# What is left around a date taken out: a space doubled or before punctuation, a comma opening
# the sentence.
_AROUND_DATE = re.compile(r"(?<=\s)\s+|\s+(?=[，,。.!！?？])|^[\s，,]+")


def undated(sentence: str) -> str:
    """``sentence`` without a date relative to the day it was said ("上个月我从阿里离职了" → "我
    从阿里离职了", "I left Google yesterday" → "I left Google", "I just left Google"): a change
    kept from a past day on (``rules.time_bound``, ``rules.recent_change``) is true from then,
    and "last month" read next year would be wrong.
    When it happened is the memory's own time (``created_at``, ``valid_from``)."""
    return _AROUND_DATE.sub("", DATED_PAST.sub("", sentence)).strip()


def write(sentence: str, role: str = "user") -> list[str]:
    """The facts a sentence states, written about the user; [] when none is left. In an
    assistant's sentence "you" is the user, and a clause in its own first person ("我会避开…",
    "I'll …") is about the assistant, not the user: dropped. A date relative to the day it was
    said is left out (``undated``)."""
    sentence = undated(sentence)
    if not sentence:
        return []
    terminal = sentence[-1] if sentence[-1] in _TERMINAL else ""
    body = sentence[:-1] if terminal else sentence
    chinese = is_chinese(sentence)
    end = terminal if terminal and terminal in "。." else ("。" if chinese else ".")
    groups: list[list[str]] = [[]]
    separators: list[list[str]] = [[]]
    clauses = _corrected(_clauses(body))
    stub = False  # the clause before lost its object
    for n, (clause, separator) in enumerate(clauses):
        raw = clause.strip()
        # The wrapper is matched before the filler too: "Remember this" is one, "this" is not.
        if WRAPPER.match(raw):
            continue
        if not groups[0] and n < len(clauses) - 1 and _answer(raw):
            continue
        text = _PARTICLE.sub("", strip_filler(raw))
        if not text or WRAPPER.match(text):
            continue
        if role == "user":
            text = _as_called(text)
        following = clauses[n + 1][0].strip() if n < len(clauses) - 1 else ""
        if _cut_off(text) and not _object_follows(text, separator, following):
            stub = True  # a path or URL cut out of it: "日志在", "versioned under"
            continue
        if stub and _REFERS_BACK.search(_protect_quotes(text)[0]):
            continue  # it points at what was cut out: "以后有问题先查这个"
        stub = False
        if role == "assistant" and _ASSISTANT_SELF.search(_protect_quotes(text)[0]):
            continue
        instruction = role == "user" and _instruction_after_so(raw, text)
        if instruction:
            text = _SO.sub("", text, count=1)  # "所以别…": the instruction, not its reason
        if role == "user" and _about_user(groups[-1]) and _addressed(text) and not instruction:
            continue  # how the assistant should apply the fact: not part of it
        # A short clause ("我很反感") stays with what it is about.
        own = instruction or (_starts_own_fact(text) and content_size(text) >= 5)
        if groups[-1] and own and _is_statement(_join(groups[-1], [])):
            text = _owned(text, groups[-1])
            groups.append([])
            separators.append([])
        if not groups[-1]:
            text = _LEADING_CONJUNCTION.sub("", text)  # "…, and I prefer" → "I prefer"
        groups[-1].append(text)
        separators[-1].append(
            "; " if separator.strip() in (";", "；") and not chinese else separator
        )
    facts: list[str] = []
    for group, seps in zip(groups, separators, strict=True):
        if not group:
            continue
        for piece in _and_split(_join(group, seps)):
            written = third_person(piece, role, sentence).strip().rstrip("，,；;：: ")
            if facts and not chinese:
                written = _ECHO.sub("", written)  # "…doesn't eat honey either"
            fact = _capitalised(written) + end
            if not is_fragment(fact) and len(fact) <= MAX_FACT_CHARS:
                facts.append(fact)
    return facts


def _as_called(clause: str) -> str:
    """How the user wants to be called, said of the user ("叫我小林就行" was "叫用户小林就行。",
    now "我希望被称呼为小林", "Just call me Sam" → "I want to be called Sam"); any other clause as
    it is."""
    name = called(clause)
    if name is None:
        return clause
    if is_chinese(clause):
        return "我希望被称呼为" + (f" {name}" if name.isascii() else name)
    return f"I want to be called {name}"


def _object_follows(clause: str, separator: str, following: str) -> bool:
    """Whether what ends ``clause`` takes the next clause for its object: after a colon ("签名是：
    张晓雨…"), or after 是 and a comma when the next clause neither points back nor has a subject
    of its own ("我的偏好是，回答简短"; not "文档地址是，以后有问题先查这个")."""
    if not following:
        return False
    if separator.strip() in (":", "："):
        return True
    return (
        clause.endswith("是")
        and separator.strip() in (",", "，")
        and not _REFERS_BACK.search(following)
        and not _OWN_SUBJECT.match(following)
    )


# A correction that opens with what is not so ("其实我不是在杭州，我上个月搬到苏州了", "Actually
# I'm not in Berlin, I moved to Munich"): the value that follows says it.
_NOT_SO = re.compile(
    r"^(?:其实|实际上|不对|更正一下|更正)[，,]?\s*我们?(?:并|其实)?(?:不是|不在|没在|没有在)|"
    r"^(?:actually|correction)[,:]?\s*(?:I'm|I’m|I am|we're|we’re|we are)\s+not\b",
    re.IGNORECASE,
)


def _corrected(clauses: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The clauses without a corrected "not so" that a clause of its own subject follows (the
    marker may be a clause of its own: "Actually, I'm not…")."""
    opening = ""
    for n, (clause, separator) in enumerate(clauses[:-1]):
        opening += clause + separator
        if strip_filler(clause.strip()):
            following = strip_filler(clauses[n + 1][0].strip())
            if _NOT_SO.match(opening.strip()) and _OWN_SUBJECT.match(following):
                return clauses[n + 1 :]
            break
    return clauses


# A leading "and"/"but" of a clause that starts a fact of its own.
_LEADING_CONJUNCTION = re.compile(
    r"^(?:and|but|also|plus)\s+(?=\S)|^(?:而且|并且|另外)[，,]?", re.I
)
# "either"/"too" at the end of a second fact point at the first one ("I'm vegan and I don't eat
# honey either").
_ECHO = re.compile(r",?\s+(?:either|too|as\s+well)$", re.IGNORECASE)


# An answer naming a choice before the statement ("Python 吧，我们组都用…"): the question it
# answers is not in the fact.
_ANSWER = re.compile(r"^(?P<choice>[^，,。；;]{1,16}?)\s*(?<![酒网贴])吧$")


def _answer(clause: str) -> bool:
    found = _ANSWER.match(clause)
    if not found:
        return False
    choice = found.group("choice")
    return content_size(choice) <= 4 and not _ADVERBIAL.match(choice) and "我" not in choice


# "…, so always use imperial units", "…, so don't schedule anything before 10am", "…，所以别在
# 早上十点前给我安排会议": an instruction of its own after "so"/所以/因此, when it speaks to no one
# and points back at nothing ("so leave out meat when you plan meals", "so factor that in" only
# say how to apply what came before).
_INSTRUCTION = re.compile(
    r"^(?:(?:always|just|only|never|don'?t|do\s+not)\s+)*(?:use|answer|reply|respond|write|give|"
    r"show|format|convert|quote|price|measure|express|round|spell|default|stick|put|include|"
    r"list|talk|speak|explain|assume|schedule|book|plan|send|call|suggest|recommend)\b|"
    r"^(?:请|以后|今后)?(?:都|也|就)?(?:别|不要|不用|勿|尽量|一律|统一|总是)",
    re.IGNORECASE,
)
_SO = re.compile(r"^(?:so\b|(?:所以|因此|因而)[，,]?)\s*", re.IGNORECASE)
_POINTS_AWAY = re.compile(
    r"\b(?:you|your|it|its|this|that|them|accordingly)\b|你|您|这个|那个|它|据此|相应",
    re.IGNORECASE,
)


def _instruction_after_so(raw: str, text: str) -> bool:
    told = _SO.sub("", text, count=1)
    return (
        bool(_SO.match(raw))
        and bool(_INSTRUCTION.match(told))
        and not _POINTS_AWAY.search(_protect_quotes(told)[0])
    )


# A second fact about "the team" after one about the user is about the user's team ("我是后端
# 负责人，团队一共 6 个人", "I'm a designer, and the company is in Berlin"; its "and" goes).
_BARE_GROUP = re.compile(
    r"^(?:团队|公司|部门|小组|项目组)|^(?:and\s+)?the\s+(?=(?:team|company)\b)", re.I
)


def _owned(text: str, before: list[str]) -> str:
    if not (before and re.match(r"我(?!们)|I\b|I'm|I’m", before[0])):
        return text
    # The group stays named: "公司在海淀" is "我们公司在海淀", not "我们在海淀" (the team's).
    return _BARE_GROUP.sub(
        lambda m: "我们" + m.group(0) if HAN.match(m.group(0)) else "our ", text, count=1
    )


# A Chinese sentence-final particle: tone, not content ("…简体中文哦"); 酒吧, 网吧 are words.
_PARTICLE = re.compile(r"(?<=[\u4e00-\u9fff\w”」』）)])(?:[哦噢喔呀啦嘛呢啊]|(?<![酒网贴])吧)+\s*$")


# An assistant's proposal, as what the user then verified: "建议调大到 200" → "调大到 200".
_PROPOSAL = re.compile(
    r"(?:(?<=^)|(?<=[，,；;：:]))(\s*)(?:我们?|咱们)?(?:建议|推荐|不妨|可以考虑)(?:你们?|您)?",
)
# A question that is no statement in other words ("Shall I…?", "要不要…？").
_ASKS = re.compile(
    r"^(?:(?:so|then|ok(?:ay)?)\s*,?\s+)?(?:is|are|was|were|do|does|did|can|could|shall|should|"
    r"will|would|may|might|have|has|had|what|why|how|which|who|where|when|want|need)\b|"
    r"要不要|是不是|能不能|可不可以|行不行|好不好|怎么|什么|哪",
    re.IGNORECASE,
)


def conclusion(sentence: str) -> list[str]:
    """The facts an assistant's sentence states once the user has verified it: a proposal
    ("建议…") as what was done, a question in the words of a statement ("So the root cause was
    X?") as that statement; [] for a question that states nothing ("Shall I…?")."""
    sentence = sentence.strip()
    if sentence[-1:] in "?？":
        body = strip_filler(sentence[:-1])
        if _ASKS.search(body):
            return []
        sentence = re.sub(r"吗$", "", body) + ("。" if is_chinese(body) else ".")
    return write(_PROPOSAL.sub(r"\1", sentence), "assistant")


# A clause that only sets when or how the next one holds ("from now on, I…", "以后，我…").
_ADVERBIAL = re.compile(
    r"^(?:from now on|going forward|in general|by default|in the future|for all future \w+|"
    r"(?:以后|今后|往后|从现在起|从现在开始|默认|平时|一般|通常|总的来说)(?:的话)?|"
    r".*(?:之后|以后|以来|的时候|期间)|(?:after|since|when|before|once|until)\b.*|"
    # A prepositional phrase ("For estimates, our team uses…") sets where the next clause holds.
    r"(?:for|in|at|on|during|with|within|outside|across)\s+[^,;:]{0,40})$",
    re.IGNORECASE,
)


def _is_statement(text: str) -> bool:
    return not is_fragment(text) and not _ADVERBIAL.match(text.strip())


_ASSISTANT_SELF = re.compile(r"我|咱|\b(?:I|I'm|I’m|I'll|I’ll|I've|me|my|we|we'll|us|let's)\b")


# A clause telling the assistant what to do with a fact stated before it.
_ADDRESSED = re.compile(
    r"你|您|帮我|给我|为准|就行|记得|推荐|按这个|照这个|按此|一下|避开|排除|考虑|用得上|"
    # "推荐餐厅的时候…", "订机票的时候…": the time of a task the assistant does for the user
    # ("数据量大的时候用 Spark" is the user's own habit).
    r"(?:写|回答|回复|安排|约|订|点|买|选|找|查|规划|计划|生成|翻译|总结|解读|出|排)\S{0,12}的?时候|"
    r"\byou\b|\byour\b|^(?:so|please|suggest|leave|factor|keep|use|make|give|avoid|plan|"
    r"schedule|propose|write|don't|do not|any|when|whenever|if)\b",
    re.IGNORECASE,
)


def _about_user(group: list[str]) -> bool:
    return bool(group) and bool(_OWN_SUBJECT.match(group[0]))


def _addressed(clause: str) -> bool:
    return not _OWN_SUBJECT.match(clause) and bool(_ADDRESSED.search(_protect_quotes(clause)[0]))


def _starts_own_fact(clause: str) -> bool:
    return bool(_OWN_SUBJECT.match(clause)) and not _REFERS_BACK.match(clause)


def _join(clauses: list[str], separators: list[str]) -> str:
    if not separators:
        return "".join(clauses)
    out = ""
    for i, clause in enumerate(clauses):
        out += clause
        if i < len(clauses) - 1:
            out += separators[i] if separators[i] else " "
    return out


# "X and I work…": the English "and" before a subject of its own starts a second fact.
_AND_SUBJECT = re.compile(r"\s+and\s+(?=(?:I|I'm|I’m|my|our|we|we're|we’re)\b)", re.IGNORECASE)


# A subject that is only a name or "my <someone>" before "and I" ("My wife and I are…"): one
# subject with the user, not a fact of its own.
_COMPANION = re.compile(
    r"^\s*(?:(?:[Mm]y|[Oo]ur)\s+[a-z][\w'-]*(?:\s+[a-z][\w'-]*)?|[A-Z][a-z]+)\s*$"
)


def _and_split(text: str) -> list[str]:
    if is_chinese(text):
        return [text]
    protected, spans = _protect(text)
    parts: list[str] = []
    for part in (p for p in _AND_SUBJECT.split(protected) if p.strip()):
        if parts and _COMPANION.match(parts[-1]):
            parts[-1] = f"{parts[-1].strip()} and {part}"
        else:
            parts.append(part)
    return [_restore(part, spans) for part in parts]


def _capitalised(text: str) -> str:
    return text[:1].upper() + text[1:] if text[:1].isascii() else text


# --- person ------------------------------------------------------------------------------

# An identifier: words joined by - _ . / or a digit ("us-west-2", "oh-my-zsh", "my_app", "I/O",
# "team2"). A pronoun inside one is part of a name, not the user: it is left as typed.
_IDENTIFIER = re.compile(r"[A-Za-z0-9]+(?:[-_./][A-Za-z0-9]+)+|[A-Za-z]+\d[A-Za-z0-9]*")
_PRONOUN_PART = re.compile(
    r"(?:^|[-_./\d])(?:i|me|my|mine|we|us|our|ours|you|your)(?=$|[-_./\d])", re.IGNORECASE
)


def _protect(text: str) -> tuple[str, list[str]]:
    """Quoted spans and identifiers with a pronoun inside hidden from the person rules."""
    protected, spans = _protect_quotes(text)

    def hide(match: re.Match[str]) -> str:
        if not _PRONOUN_PART.search(match.group(0)):
            return match.group(0)
        spans.append(match.group(0))
        return f"\x00{len(spans) - 1}\x00"

    return _IDENTIFIER.sub(hide, protected), spans


# Who "we" are. At work (a technical or work word in the sentence: 部署, 上线, 接口, a Latin word;
# "we deploy", "our API", a product name), the user's team; with a partner named in the same
# sentence ("我对象是设计师，我们打算…", "My wife and I … we…"), the user and that partner;
# elsewhere the user ("我们周末一般去爬山", "We have two dogs").
_ZH_WORK = re.compile(
    r"[A-Za-z]{2,}|团队|公司|部门|项目|产品|代码|开发|测试|部署|上线|发布|发版|版本|分支|仓库|接口|"
    r"服务|系统|数据|文档|需求|前端|后端|移动端|客户端|服务端|小程序|架构|框架|技术|工程|运维|线上|"
    r"生产|客户|会议|周会|例会|值班|业务|规范|约定|规矩|评审|审批|报销|预算|财年|同事|上班|办公|"
    r"工作|迭代|排期|埋点|告警|监控|日志|集群|事故|故障|模型|算法|运营|招聘|员工|合同|流程|周报|汇报"
)
_ZH_PARTNER = re.compile(
    r"我(?:和我?)?的?(对象|老婆|老公|妻子|丈夫|爱人|男朋友|女朋友|男友|女友|未婚夫|未婚妻|伴侣)"
)
# Acronyms and names with a capital inside (AWS, GitHub, HashiCorp, iTerm), not a country.
_EN_TECH_NAME = re.compile(
    r"\b(?!(?:US|UK|EU|USA|UAE|OK|TV|DIY|PhD)\b)[A-Z][A-Za-z]*[A-Z]\w*|\b[a-z]+[A-Z]\w*"
)
_EN_WORK = re.compile(
    r"\b(?:team|teams|company|startup|business|firm|agency|office|product|products|customers?|"
    r"clients?|sprints?|releases?|deploy\w*|ship|ships|shipped|shipping|builds?|code\w*|repos?|"
    r"repository|servers?|services?|microservices?|prod|production|staging|databases?|stack|"
    r"backend|frontend|apps?|application|tools?|tooling|meetings?|standups?|on-call|oncall|"
    r"tickets?|tracker|reviews?|budget|style\s+guide|policy|docs|documentation|environments?|"
    r"pipelines?|clusters?|cloud|infra\w*|migrations?|branch\w*|commits?|merge\w*|tests?|testing|"
    r"framework|librar(?:y|ies)|secrets|warehouse|api|versions?|versioned|versioning|"
    r"development|developers?|engineer\w*|deal|contracts?|roadmap|compatibility|python|java|"
    r"rust|ruby|django|rails|react|vue|kotlin|swift|android|ios|linux|terraform|docker|"
    r"kubernetes|slack|jira|git|sql|folders?|files?)\b",
    re.IGNORECASE,
)
_EN_PARTNER = re.compile(
    r"\b[Mm]y\s+(wife|husband|partner|girlfriend|boyfriend|fianc[ée]e?|spouse)\b", re.IGNORECASE
)


def _zh_we(context: str) -> tuple[str, str, str]:
    """What 我们 becomes in this sentence: as a subject, as an owner (我们的), and as "我们俩" —
    the user and the partner named, else "用户两人" (two people, never a team, and no "他们":
    no one else was named)."""
    partner = _ZH_PARTNER.search(context)
    if partner:
        pair = f"用户和{partner.group(1)}"
        return pair, f"{pair}的", pair
    if _ZH_WORK.search(context):
        return "用户的团队", "用户团队的", "用户两人"
    return "用户", "用户的", "用户两人"


# "我们俩" as two people ("我们两个人", "咱俩"); after the pair just named ("我和老婆我们俩") it
# only restates them and goes.
_ZH_TWO = r"(?:我们|咱们|咱)(?:俩|两个人?|两人|二人)"
_ZH_PAIR_RESTATED = re.compile(rf"(我(?:和|跟)我?[^，,。；;我]{{1,6}}?){_ZH_TWO}")


def _zh_person(text: str, context: str) -> str:
    subject, own, two = _zh_we(context)
    # 我们 before what it owns: the team ("我们组", "我们 team"), a place or institution ("我们
    # 学校", "我们小区"), the home ("我们家").
    text = re.sub(r"(?:我们|咱们)\s*(?:team|团队)\s*的", "用户团队的", text)
    text = re.sub(r"(?:我们|咱们)(公司|部门)的", r"用户\1的", text)
    # "用户的组的代码规范" read twice owned; "用户组" is a user group.
    text = re.sub(r"(?:我们|咱们)(组|小组)的", r"用户所在\1的", text)
    text = re.sub(r"(?:我们|咱们)\s*team\b\s*", "用户的团队", text)
    text = re.sub(r"(?:我们|咱们)(?=\s*[A-Za-z]+\s+team\b)", "用户的", text)  # "我们 data team"
    text = re.sub(
        r"(?:我们|咱们)(?=团队|公司|组|部门|小组|产品|项目|实验室|课题组|学校|学院|班|社区|单位|医院|"
        r"宿舍|老家)",
        "用户的",
        text,
    )
    text = re.sub(r"(?:我们|咱们)(?=小区|村|镇|城市)", "用户所在的", text)
    text = re.sub(r"(?:我们|咱们)家|咱家", "用户家", text)
    text = text.replace("我司", "用户的公司")
    text = _ZH_PAIR_RESTATED.sub(r"\1", text)
    text = re.sub(_ZH_TWO, two, text)  # two people, never a team
    text = re.sub(r"(?:我们|咱们)的", own, text)
    text = re.sub(r"(?:我们|咱们)", subject, text)
    text = _ZH_KIN.sub(lambda m: "用户的" + _KIN.get(m.group(1), m.group(1)), text)
    text = re.sub(r"(?<!自)我的", "用户的", text)
    text = text.replace("本人", "用户")
    return re.sub(r"(?<!自)我(?!们)", "用户", text)


# Kin and people after 我 are the user's: "我妈" → "用户的妈妈", not "用户妈" (the longer word
# first: 妈妈 before 妈, 哥们 before 哥, 姐夫 before 姐).
_ZH_KIN = re.compile(
    r"(?<!自)我的?(爸妈|妈妈|爸爸|哥哥|姐姐|弟弟|妹妹|哥们|姐妹|姐夫|妹夫|嫂子|弟媳|老婆|老公|妻子|"
    r"丈夫|爱人|对象|男朋友|女朋友|男友|女友|未婚夫|未婚妻|儿子|女儿|孩子|闺女|宝宝|爷爷|奶奶|外公|"
    r"外婆|姥姥|姥爷|老板|领导|上司|导师|老师|同事|室友|妈|爸|哥|姐|弟|妹)"
)
_KIN = {
    "妈": "妈妈",
    "爸": "爸爸",
    "哥": "哥哥",
    "姐": "姐姐",
    "弟": "弟弟",
    "妹": "妹妹",
    "爸妈": "父母",
}

# Adverbs and negations that may stand between a subject and its verb.
_ADVERBS = (
    r"always|usually|often|mostly|mainly|generally|typically|normally|really|also|only|still|"
    r"just|now|currently|actually|never|rarely|sometimes|strongly|definitely|primarily|"
    r"exclusively|already|no\s+longer|even|ever|hardly|barely|seldom|occasionally|frequently|"
    r"almost|personally|honestly|basically"
)
_MODALS = word_set(
    "will would should can could must may might shall won't wouldn't shouldn't can't cannot "
    "couldn't"
)
_IRREGULAR = {"have": "has", "do": "does", "go": "goes", "am": "is", "are": "is", "be": "is"}
# Irregular past forms take no -s ("I left Google" was "The user lefts Google"); "read", "put",
# "set" are read as the present they also are.
_PAST_FORMS = word_set(
    "went left quit came became began got gave took made saw met found bought sold brought "
    "thought taught caught sent spent built lent lost kept slept felt dealt meant heard held "
    "told said paid ran won wrote rode drove flew grew knew threw drew ate drank sang swam "
    "spoke broke chose froze stole woke wore tore swore forgot stood understood led fell shook "
    "sat hung fought sought"
)
_EN_SUBJECT = re.compile(
    rf"\b(?P<subject>I|we|you)(?P<adverbs>(?:\s+(?:{_ADVERBS}))*)\s+(?P<verb>[A-Za-z'-]+)"
)


# Words after "I"/"we" that are no verb ("am I in", "I, too"): left as they are.
_NOT_VERBS = word_set(
    "in on at to for of and or the a an not no so too also as if then with both all either "
    "neither each"
)


def _third_singular(verb: str) -> str:
    low = verb.lower()
    if low in _NOT_VERBS:
        return verb
    if low in _MODALS:
        return verb
    if low in ("don't", "dont"):
        return "doesn't"
    if low in ("haven't", "havent"):  # "I haven't decided" was "The user haven'ts decided"
        return "hasn't"
    if low.endswith(("n't", "n’t")):  # "didn't", "wasn't": already the third person's
        return verb
    if low in _IRREGULAR:
        return _IRREGULAR[low]
    if low in ("was", "had", "did") or low.endswith("ed") or low in _PAST_FORMS:
        return verb
    if re.search(r"[^aeiou]y$", low):
        return verb[:-1] + "ies"
    if re.search(r"(?:s|sh|ch|x|z|o)$", low):
        return verb + "es"
    return verb + "s"


# Verbs that may follow "and" without a subject of their own ("I live in Berlin and work in…");
# after an adverb ("…and usually start at 10am") any word is taken for a verb.
_COMMON_VERBS = word_set(
    "work live use prefer like love hate need want write code run speak drink eat go commute "
    "travel teach study play read deploy ship release build test keep spend take have do own "
    "manage lead report sleep wake start finish leave get make avoid watch listen cook walk drive "
    "ride bike swim stay stick review merge push host store plan track log follow attend visit "
    "develop design maintain support handle prepare train practice practise volunteer belong"
)
# "I/we <verb> … and|but [adverbs] <verb>": the second verb shares the subject. Not after a
# modal, "don't" or an infinitive ("I want to live in X and work in Y" keeps "work").
_AND_VERB = re.compile(
    rf"(?P<head>\b(?P<subject>I|we|I'm|I am|we're|we are)(?:\s+(?:{_ADVERBS}))*\s+"
    rf"(?P<first>[A-Za-z'-]+)\b[^,;:.!?]*?\s+(?:and|but))"
    rf"(?P<adverbs>(?:\s+(?:{_ADVERBS}))*)\s+(?P<verb>[a-z]+)\b(?=\s+\S)"
)


def _and_verb(match: re.Match[str], plural: bool) -> str:
    head, adverbs, verb = match.group("head"), match.group("adverbs"), match.group("verb")
    first = match.group("first").lower()
    if (
        (plural and match.group("subject").startswith("we"))
        or first in _MODALS
        or first in ("don't", "dont", "not", "to", "'ll", "'d")
        or " to " in head
        or verb in _NOT_VERBS
        or verb.endswith(("s", "ed", "ing"))
        or not (adverbs or verb in _COMMON_VERBS)
    ):
        return match.group(0)
    return f"{head}{adverbs} {_third_singular(verb)}"


def _en_we(context: str) -> tuple[str, bool]:
    """Who "we" is in this sentence, and whether that is more than one person."""
    partner = _EN_PARTNER.search(context)
    if partner:
        return f"the user and the user's {partner.group(1).lower()}", True
    if _EN_TECH_NAME.search(context) or _EN_WORK.search(context):
        return "the user's team", False
    return "the user", False


# "My wife and I", "Jordan and I", "me and my wife" as the subject: one subject, the user first.
_EN_TOGETHER = re.compile(
    r"^(?:[Mm]y\s+(?P<kin>[a-z][\w'-]*(?:\s+[a-z][\w'-]*)?)|(?P<name>[A-Z][a-z]+))\s+and\s+I\b|"
    r"^[Mm]e\s+and\s+my\s+(?P<kin2>[a-z][\w'-]*)\b"
)


def _together(match: re.Match[str]) -> str:
    kin = match.group("kin") or match.group("kin2")
    return f"the user and the user's {kin}" if kin else f"the user and {match.group('name')}"


def _en_person(text: str, context: str) -> str:
    we, plural = _en_we(context)
    be, have, was = ("are", "have", "were") if plural else ("is", "has", "was")
    # "I myself coach", "…the bookkeeping myself in…": emphasis, no subject or object.
    text = re.sub(r"\s+(?:myself|ourselves)\b", "", text)
    text = _EN_TOGETHER.sub(_together, text.lstrip())
    text = _AND_VERB.sub(lambda m: _and_verb(m, plural), re.sub(r"\bWe\b", "we", text))
    for pattern, replacement in (
        (r"\bI(?:'m|’m| am)\b", "the user is"),
        (r"\bI(?:'ve|’ve| have)\b", "the user has"),
        (r"\bI(?:'d|’d)\b", "the user would"),
        (r"\bI(?:'ll|’ll)\b", "the user will"),
        (r"\bI was\b", "the user was"),
        (r"\bwe(?:'re|’re| are)\b", f"{we} {be}"),
        (r"\bwe(?:'ve|’ve| have)\b", f"{we} {have}"),
        (r"\bwe(?:'ll|’ll)\b", f"{we} will"),
        (r"\bwe(?:'d|’d)\b", f"{we} would"),
        (r"\bwe were\b", f"{we} {was}"),
    ):
        text = re.sub(pattern, replacement, text)
    text = re.sub(r"\b(?:[Pp]lease),?\s+|,?\s+please\b", "", text)
    text = re.sub(r"\b[Yy]ou(?:'re|’re| are)\b", "the assistant is", text)
    text = re.sub(r"\b[Yy]ou(?:'ll|’ll)\b", "the assistant will", text)

    def subject(match: re.Match[str]) -> str:
        who = {"I": "the user", "we": we, "you": "the assistant"}[match.group("subject")]
        verb = match.group("verb")
        if match.group("subject") == "we" and plural:
            return f"{who}{match.group('adverbs')} {verb}"
        return f"{who}{match.group('adverbs')} {_third_singular(verb)}"

    text = _EN_SUBJECT.sub(subject, re.sub(r"\bYou\b", "you", text))
    text = re.sub(r"\byour\b", "the assistant's", text)
    text = re.sub(r"\byou\b", "the assistant", text)
    ours = "the user's team's" if we == "the user's team" else "the user's"
    for pattern, replacement in (
        (r"\b[Mm]y\b", "the user's"),
        (r"\b[Mm]ine\b", "the user's"),
        (r"\b[Mm]yself\b", "the user"),
        (r"\b[Oo]ur\b", "the user's"),
        (r"\b[Oo]urs\b", ours),
        (r"\b[Mm]e\b", "the user"),
        (r"\bus\b", we),
    ):
        text = re.sub(pattern, replacement, text)
    return re.sub(r"\bI\b", "the user", text)


_ZH_YOU = (
    (re.compile(r"(?:你们|您们)(?=团队|公司|组|部门|小组)"), "用户的"),
    (re.compile(r"你们|您们"), "用户的团队"),
    (re.compile(r"(?:你|您)的"), "用户的"),
    (re.compile(r"你|您"), "用户"),
)
_EN_YOU = (
    (re.compile(r"\b[Yy]ou(?:'re|’re| are)\b"), "the user is"),
    (re.compile(r"\b[Yy]ou(?:'ve|’ve| have)\b"), "the user has"),
    (re.compile(r"\b[Yy]ou(?:'ll|’ll)\b"), "the user will"),
    (re.compile(r"\b[Yy]ou(?:'d|’d)\b"), "the user would"),
    (re.compile(r"\b[Yy]ou were\b"), "the user was"),
)
_EN_YOU_SUBJECT = re.compile(rf"\b[Yy]ou(?P<adverbs>(?:\s+(?:{_ADVERBS}))*)\s+(?P<verb>[A-Za-z']+)")


def _you(text: str) -> str:
    """An assistant's "you" is the user."""
    if is_chinese(text):
        for pattern, replacement in _ZH_YOU:
            text = pattern.sub(replacement, text)
        return text
    for pattern, replacement in _EN_YOU:
        text = pattern.sub(replacement, text)
    text = _EN_YOU_SUBJECT.sub(
        lambda m: f"the user{m.group('adverbs')} {_third_singular(m.group('verb'))}", text
    )
    text = re.sub(r"\b[Yy]our\b", "the user's", text)
    return re.sub(r"\b[Yy]ou\b", "the user", text)


def third_person(text: str, role: str = "user", context: str = "") -> str:
    """The user spoken of in the third person, outside quotes and identifiers. ``context``: the
    whole sentence, which says who "we" are (the team at work, the user and a partner named in
    it, else the user)."""
    protected, spans = _protect(text)
    if role == "assistant":
        return _restore(_you(protected), spans)
    context = _protect(context or text)[0]
    protected = _zh_person(protected, context)
    if not is_chinese(text):
        protected = _en_person(protected, context)
    return _restore(protected, spans)


# --- the same fact twice -------------------------------------------------------------------

_STOP = word_set(
    "the a an of to in on for and or is are be user user's users team team's that this with "
    "all any from now"
)


def _stem(word: str) -> str:
    word = re.sub(r"['’]s$", "", word)
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def tokens(text: str) -> frozenset[str]:
    """Han bigrams and lower-cased Latin words, without the person and function words: two
    wordings of one statement share most of them."""
    text = re.sub(r"用户的?|团队的?|已确认|确认|以后|今后|统一|都|的", " ", text.lower())
    words = {_stem(w) for w in _LATIN_WORD.findall(text) if w not in _STOP}
    han_runs = re.findall(f"[{HAN.pattern[1:-1]}]+", text)
    bigrams = {run[i : i + 2] for run in han_runs for i in range(max(len(run) - 1, 1))}
    return frozenset(words | bigrams)


def restates(fact: str, known: Iterable[str], *, share: float = 0.6) -> bool:
    """Whether ``fact`` says what the ``known`` facts together already say: the share of its
    tokens found among theirs reaches ``share``."""
    mine = tokens(fact)
    if not mine:
        return False
    theirs: set[str] = set()
    for other in known:
        theirs |= tokens(other)
    return len(mine & theirs) / len(mine) >= share
