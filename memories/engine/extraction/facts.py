"""Writing the fact: what a careful person would note down from a sentence the user said.

A fact is one short, self-contained statement about the user, in the user's language, with the
user's names, terms and quotation marks exactly as typed. From a sentence this module:

* drops the instruction wrapped around the content ("keep that in mind…", "一定要记住",
  "assume that for…", "以后都按这个来", "please … accordingly") and a leading conversational
  filler ("好，那", "OK so");
* splits a sentence that states two things (a second clause with its own subject) into two;
* speaks of the user in the third person, grammatically (我 → 用户, 我们团队 → 用户的团队,
  I'm → the user is, I prefer → the user prefers, my/our → the user's), never inside quotes;
* drops a fragment (a dangling 和/and, fewer than a few content words).

Pure functions, no model: the decision whether a sentence is worth keeping is elsewhere
(``rules`` guards, the learned head in ``decision``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

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
    r"总结|小结|总之|综上|结论|"
    # Where a conclusion comes from is no part of it ("根据压测结果", "based on the logs").
    r"(?:根据|基于|从)[^，,。]{0,20}(?:结果|数据|日志|监控|来看|看来)|"
    r"(?:based\s+on|according\s+to|judging\s+(?:by|from))\b.*|"
    r"(?:(?:so|ok(?:ay)?)[, ]+)?(?:(?:we'?re|it'?s|that'?s)\s+)?(?:settled|decided|agreed|deal)"
    r"(?:\s+then)?|(?:in\s+)?summary|to\s+sum\s+up|"
    r"(?:请)?(?:以后|今后)?(?:相应地?|据此|照此)(?:安排|处理|调整|执行)(?:吧)?|"
    r"(?:please\s+)?(?:keep|bear)\s+(?:that|this|it)\s+in\s+mind\b.*|"
    r"(?:please\s+)?(?:remember|note)\s+(?:that|this|it)\b\.?|"
    r"(?:please\s+)?don'?t\s+forget(?:\s+(?:that|this|it))?\b.*|"
    r"(?:please\s+)?assume\s+(?:that|this|it)\b.*|"
    r"(?:please\s+)?take\s+(?:that|this|it)\s+into\s+account\b.*|"
    r"(?:please\s+)?(?:plan|schedule|answer|act|adjust|proceed|respond)\b.*\baccordingly\b.*|"
    r"(?:please\s+)?(?:use|apply)\s+(?:that|this|it)\s+(?:going\s+forward|from\s+now\s+on)\b.*|"
    r"this\s+is\s+important|it'?s\s+important|(?:please\s+)?update\s+(?:that|this|it)|"
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
    r"^(?:fyi|just so you know|for the record)(?:[:, ]+|$)|"
    r"^(?:actually|also|btw|by the way|heads up|(?:small |quick )?update|correction|"
    r"另外|还有|对了|补充一下|更新一下)[，,:： ]*|"
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
    r"^(?:and\s+)?(?:I|I'm|I’m|my|our|we|we're|we’re|you|you're|your|the\s+project|the\s+team)\b",
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


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_END.split(text) if s and s.strip()]


def is_chinese(text: str) -> bool:
    han = len(HAN.findall(text))
    latin = len(re.findall(r"[A-Za-z]", text))
    return han > 0 and han / (han + latin) >= 0.2


def content_size(text: str) -> int:
    """Han characters plus two per Latin word: "参考和" is 3, "用户叫陈工" 5, "I use Go" 6."""
    unquoted = text
    return len(HAN.findall(unquoted)) + 2 * len(_LATIN_WORD.findall(unquoted))


def is_fragment(text: str) -> bool:
    """Too little to be a statement, or cut off after a conjunction."""
    core = text.strip().rstrip(_TERMINAL).strip()
    return content_size(core) < 4 or bool(DANGLING.search(core))


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


def write(sentence: str, role: str = "user") -> list[str]:
    """The facts a sentence states, written about the user; [] when none is left. In an
    assistant's sentence "you" is the user, and a clause in its own first person ("我会避开…",
    "I'll …") is about the assistant, not the user: dropped."""
    sentence = sentence.strip()
    if not sentence:
        return []
    terminal = sentence[-1] if sentence[-1] in _TERMINAL else ""
    body = sentence[:-1] if terminal else sentence
    chinese = is_chinese(sentence)
    end = terminal if terminal and terminal in "。." else ("。" if chinese else ".")
    groups: list[list[str]] = [[]]
    separators: list[list[str]] = [[]]
    for clause, separator in _clauses(body):
        # The wrapper is matched before the filler too: "Remember this" is one, "this" is not.
        if WRAPPER.match(clause.strip()):
            continue
        text = _PARTICLE.sub("", strip_filler(clause.strip()))
        if not text or WRAPPER.match(text):
            continue
        if role == "assistant" and _ASSISTANT_SELF.search(_protect_quotes(text)[0]):
            continue
        if role == "user" and _about_user(groups[-1]) and _addressed(text):
            continue  # how the assistant should apply the fact: not part of it
        if (
            groups[-1]
            and _starts_own_fact(text)
            and content_size(text) >= 5  # "我很反感" stays with what it is about
            and _is_statement(_join(groups[-1], []))
        ):
            groups.append([])
            separators.append([])
        groups[-1].append(text)
        separators[-1].append(
            "; " if separator.strip() in (";", "；") and not chinese else separator
        )
    facts = []
    for clauses, seps in zip(groups, separators, strict=True):
        if not clauses:
            continue
        written = _and_split(_join(clauses, seps))
        for piece in written:
            fact = _capitalised(third_person(piece, role).strip().rstrip("，,；;：: ")) + end
            if not is_fragment(fact) and len(fact) <= MAX_FACT_CHARS:
                facts.append(fact)
    return facts


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


def _and_split(text: str) -> list[str]:
    if is_chinese(text):
        return [text]
    protected, spans = _protect_quotes(text)
    return [_restore(part, spans) for part in _AND_SUBJECT.split(protected) if part.strip()]


def _capitalised(text: str) -> str:
    return text[:1].upper() + text[1:] if text[:1].isascii() else text


# --- person ------------------------------------------------------------------------------

_ZH_PERSON = (
    (re.compile(r"(?:我们|咱们)(?=团队|公司|组|部门|小组)"), "用户的"),
    (re.compile(r"(?:我们|咱们)的"), "用户团队的"),
    (re.compile(r"我司"), "用户的公司"),
    (re.compile(r"(?:我们|咱们)"), "用户的团队"),
    (re.compile(r"(?<!自)我的"), "用户的"),
    (re.compile(r"本人"), "用户"),
    (re.compile(r"(?<!自)我(?!们)"), "用户"),
)

# Adverbs and negations that may stand between a subject and its verb.
_ADVERBS = (
    r"always|usually|often|mostly|mainly|generally|typically|normally|really|also|only|still|"
    r"just|now|currently|actually|never|rarely|sometimes|strongly|definitely|primarily|"
    r"exclusively|already"
)
_MODALS = word_set(
    "will would should can could must may might shall won't wouldn't shouldn't can't cannot "
    "couldn't"
)
_IRREGULAR = {"have": "has", "do": "does", "go": "goes", "am": "is", "are": "is", "be": "is"}
_EN_SUBJECT = re.compile(
    rf"\b(?P<subject>I|we|you)(?P<adverbs>(?:\s+(?:{_ADVERBS}))*)\s+(?P<verb>[A-Za-z'-]+)"
)


# Words after "I"/"we" that are no verb ("am I in", "I, too"): left as they are.
_NOT_VERBS = word_set("in on at to for of and or the a an not so too also as if then with")


def _third_singular(verb: str) -> str:
    low = verb.lower()
    if low in _NOT_VERBS:
        return verb
    if low in _MODALS:
        return verb
    if low in ("don't", "dont"):
        return "doesn't"
    if low in _IRREGULAR:
        return _IRREGULAR[low]
    if low in ("was", "had", "did") or low.endswith("ed"):
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
# "I/we <verb> … and [adverbs] <verb>": the second verb shares the subject. Not after a modal,
# "don't" or an infinitive ("I want to live in X and work in Y" keeps "work").
_AND_VERB = re.compile(
    rf"(?P<head>\b(?:I|we|I'm|I am|we're|we are)(?:\s+(?:{_ADVERBS}))*\s+"
    rf"(?P<first>[A-Za-z'-]+)\b[^,;:.!?]*?\s+and)"
    rf"(?P<adverbs>(?:\s+(?:{_ADVERBS}))*)\s+(?P<verb>[a-z]+)\b(?=\s+\S)"
)


def _and_verb(match: re.Match[str]) -> str:
    head, adverbs, verb = match.group("head"), match.group("adverbs"), match.group("verb")
    first = match.group("first").lower()
    if (
        first in _MODALS
        or first in ("don't", "dont", "not", "to", "'ll", "'d")
        or " to " in head
        or verb in _NOT_VERBS
        or verb.endswith(("s", "ed", "ing"))
        or not (adverbs or verb in _COMMON_VERBS)
    ):
        return match.group(0)
    return f"{head}{adverbs} {_third_singular(verb)}"


def _en_subject(match: re.Match[str]) -> str:
    subject = {"I": "the user", "we": "the user's team", "you": "the assistant"}[
        match.group("subject")
    ]
    verb = match.group("verb")
    return f"{subject}{match.group('adverbs')} {_third_singular(verb)}"


_EN_PERSON = (
    (re.compile(r"\bI(?:'m|’m| am)\b"), "the user is"),
    (re.compile(r"\bI(?:'ve|’ve| have)\b"), "the user has"),
    (re.compile(r"\bI(?:'d|’d)\b"), "the user would"),
    (re.compile(r"\bI(?:'ll|’ll)\b"), "the user will"),
    (re.compile(r"\bI was\b"), "the user was"),
    (re.compile(r"\b[Ww]e(?:'re|’re| are)\b"), "the user's team is"),
    (re.compile(r"\b[Ww]e(?:'ve|’ve| have)\b"), "the user's team has"),
    (re.compile(r"\b[Ww]e(?:'ll|’ll)\b"), "the user's team will"),
    (re.compile(r"\b[Ww]e(?:'d|’d)\b"), "the user's team would"),
    (re.compile(r"\b[Ww]e were\b"), "the user's team was"),
    (re.compile(r"\b[Mm]y\b"), "the user's"),
    (re.compile(r"\b[Mm]ine\b"), "the user's"),
    (re.compile(r"\b[Mm]yself\b"), "the user"),
    (re.compile(r"\b[Oo]ur\b"), "the user's"),
    (re.compile(r"\b[Oo]urs\b"), "the user's team's"),
    (re.compile(r"\b[Mm]e\b"), "the user"),
    (re.compile(r"\bus\b"), "the user's team"),
)


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


def third_person(text: str, role: str = "user") -> str:
    """The user spoken of in the third person, outside quotes."""
    protected, spans = _protect_quotes(text)
    if role == "assistant":
        return _restore(_you(protected), spans)
    for pattern, replacement in _ZH_PERSON:
        protected = pattern.sub(replacement, protected)
    if not is_chinese(text):
        # "I myself coach", "…the bookkeeping myself in…": emphasis, no subject or object.
        protected = re.sub(r"\s+(?:myself|ourselves)\b", "", protected)
        protected = _AND_VERB.sub(_and_verb, re.sub(r"\bWe\b", "we", protected))
        for pattern, replacement in _EN_PERSON[:10]:
            protected = pattern.sub(replacement, protected)
        protected = re.sub(r"\b(?:[Pp]lease),?\s+|,?\s+please\b", "", protected)
        protected = re.sub(r"\b[Yy]ou(?:'re|’re| are)\b", "the assistant is", protected)
        protected = re.sub(r"\b[Yy]ou(?:'ll|’ll)\b", "the assistant will", protected)
        protected = _EN_SUBJECT.sub(
            _en_subject, re.sub(r"\bWe\b", "we", re.sub(r"\bYou\b", "you", protected))
        )
        protected = re.sub(r"\byour\b", "the assistant's", protected)
        protected = re.sub(r"\byou\b", "the assistant", protected)
        for pattern, replacement in _EN_PERSON[10:]:
            protected = pattern.sub(replacement, protected)
        protected = re.sub(r"\bI\b", "the user", protected)
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
