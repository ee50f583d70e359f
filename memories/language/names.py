"""What counts as a name: the rules that keep junk out of the entity index.

The entity index feeds the topic heat map, the admin's entity page and recall's entity
channel.  A person clicks people, products, projects, places, tools and the user's own named
things; what the extractors produced besides those was noise that also weighed as evidence:

* words inside spreadsheet formulas and links (``=SUM(A1:A9)`` gave SUM, A1, A9;
  ``=HYPERLINK("http://…")`` gave HYPERLINK and the URL): formulas and URLs are taken out of
  the text before any extraction (``strip_non_text``);
* generic words and acronyms (Code, IP, ID, URL, "API keys"), months and weekdays (unless
  they name an event: "the March outage"), languages: ``GENERIC_ACRONYMS``,
  ``GENERIC_NOUNS_EN``, ``CALENDAR_WORDS``, ``LANGUAGE_WORDS``, ``GENERIC_HEADS``;
* adjectives capitalised by a title or a sentence start ("Dark mode" gave Dark; "Great!",
  "Rainy"): an English word WordNet lists as an adjective, written as a modifier or at the
  start of a sentence, with no person/organisation/product/place label from spaCy's NER;
* phrases of an adjective of language or quality and a generic head ("English summaries",
  "strict mode", "weekly reports");
* pieces of a Latin name jieba splits at its spaces ("VS" and "Code" of "VS Code"): in
  Chinese text a run of Latin words is one name (``latin_runs``);
* fragments of jieba segmentation (和运维 of 部署和运维, 画图优先, 文档批量): a Chinese word
  jieba's HMM invented is a name only when it reads as a person's name (``is_chinese_name``)
  and jieba tags it as one (边夜 of 西湖边夜跑, tagged a common noun, is not), and a run of
  nouns never ends on a word that is an adverb in use (``ZH_RUN_BREAKS``);
* ordinary words jieba's dictionary tags as a person's name (过敏, 脱敏, 矫正, 幼儿园; 连接池,
  whose 连 is a family name): read as common nouns when CC-CEDICT lists them only as ordinary
  words, or a three-character one opens with one of its verbs (``misread_persons``);
* a common word a user put in quotes as a heading (“风险”, “结论”, “负责人”);
* words glued to a name in a noun phrase: a role or kind before a Chinese name (项目负责人赵敏,
  客户顺丰: the run of nouns starts at the name), a verb jieba tags as a noun after a place
  (蓝鲸科技工作, 阿里工作, 北京大学读书: ``ZH_PLACE_VERBS``), a unit after a number ("inch"
  of "14-inch MacBook Pro M3"), an adjective, a role or a verb spaCy read as a noun before an
  English name ("white Tesla Model 3", "senior engineer Luca", "contact Dana Whitfield"), and a
  kind after it ("mechanical Keychron K2 keyboard"): the name alone;
* names cut short or spelt twice: a model name cut before its number ("Tesla Model" of "Tesla
  Model 3": the number is taken in, not one that counts what follows: "Elden Ring 3 hours"), a
  product's suffix alone ("Pro" of "iPhone 15 Pro", "Pixel" of "Pixel 8" where spaCy reads the 8
  as a date: its proper nouns, number and suffix are one name, ``model_names``), a quote
  closing a title ("Designing Data-Intensive Applications'") and a phrase's hyphen dropped
  ("Designing Data Intensive Applications"): a name is written as in the text (``_written``);
* generic phrases: a generic head after only adjectives or an ordinal ("due end", "second
  time", "Verified conclusion"), a lone lower-case noun ("rule" of "Team rule"), the memory's
  subject and its verb spaCy read as a plural noun ("User mentors"), adjectives before a plural
  common noun ("junior engineers" of "User mentors two junior engineers");
* the area of a time zone ("Asia" of "Asia/Shanghai"): taken out with formulas and URLs, the
  city stays.

English candidates come from Mem0's own spaCy extraction (the pinned mem0ai 2.2.1's
``mem0.utils.entity_extraction``, passed in by the engine), filtered here before Mem0 resolves
overlaps, so a dropped word never hides a longer name.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

import jieba
import jieba.posseg

from memories.language.script import entries
from memories.text import word_set

Entity = tuple[str, str]


# --- text that holds no names ---------------------------------------------------------------------
# A spreadsheet formula: "=" and a function call, its arguments nested two levels deep at most.
FORMULA = re.compile(
    r"=\s*[A-Za-z_][A-Za-z0-9_.]*\s*\((?:[^()\n]|\((?:[^()\n]|\([^()\n]*\))*\))*\)?"
)
URL = re.compile(r"(?:\b[a-z][a-z0-9+.-]*://|\bwww\.)[^\s\"'“”<>，。；！？）]+", re.IGNORECASE)
# The area of an IANA time zone ("Asia" of "Asia/Shanghai"): a setting's syntax, not a place the
# user named (the city after it stays).
TIME_ZONE_AREA = re.compile(
    r"\b(?:Africa|America|Antarctica|Arctic|Asia|Atlantic|Australia|Europe|Indian|Pacific|Etc)"
    r"/(?=[A-Za-z])"
)
# Characters no name holds: formula and markup syntax, paths, a speaker's colon ("Jess: Biscuit").
NOT_IN_NAMES = re.compile(r"[=()\[\]{}<>:/\\@|%]")


def strip_non_text(text: str) -> str:
    """``text`` without spreadsheet formulas, URLs and time-zone areas (each replaced by a
    space)."""
    return TIME_ZONE_AREA.sub(" ", URL.sub(" ", FORMULA.sub(" ", text)))


# --- Latin words that are never a name on their own -----------------------------------------------
# Acronyms of generic technical things and titles.
GENERIC_ACRONYMS = word_set(
    "ip ips url urls uri id ids ai ui ux http https ssl tls dns sdk cli gui db os pc "
    "faq faqs pdf csv svg png jpg jpeg gif xml yaml yml json txt ppt kb mb gb tb xx "
    "vp ceo cto cfo coo hr pm etc eg ie ok okay tbd fyi asap"
)
# Generic nouns a heading or a sentence start capitalises (never a name alone).
GENERIC_NOUNS_EN = word_set(
    "code codes app apps web data info doc docs key keys token tokens mode summary summaries "
    "report reports note notes file files user users team teams agent agents bot bots tip tips "
    "lesson lessons engineering project projects task tasks issue issues bug bugs test tests "
    "update updates meeting meetings design review reviews system systems service services "
    "server servers client clients model models document documents documentation page pages"
)
CALENDAR_WORDS = word_set(
    "january february march april may june july august september october november december "
    "jan feb mar apr jun jul aug sep sept oct nov dec "
    "monday tuesday wednesday thursday friday saturday sunday "
    "mondays tuesdays wednesdays thursdays fridays saturdays sundays weekend weekends"
)
LANGUAGE_WORDS = word_set(
    "english chinese mandarin cantonese japanese korean french german spanish italian "
    "英文 中文 英语 汉语 普通话 粤语 日语 韩语"
)
# Heads of English noun phrases that name no thing of their own: "English summaries", "API
# keys", "strict mode", "concise answers" are kinds of text or settings, not topics.
GENERIC_HEADS = word_set(
    "mode theme setting settings key summary report note answer point partner model module "
    "data code file doc document documentation info information message detail option format "
    "style version preference habit thing stuff way kind type part list agent bot "
    "time end conclusion result outcome"
)
# English words that are no name in Chinese text however they are written ("Did", "Can").
FUNCTION_WORDS_EN = word_set(
    "i me my you your he him his she her it its we us our they them their this that these "
    "those a an the and or but if so to of in on at by for with from as is are was were be "
    "been am do does did done can could will would shall should may might must have has had "
    "not no yes hi hello hey thanks thank please what when where who whom why how which all "
    "any some just very also"
)
# Small words inside a name ("Ruby on Rails", "Bank of China").
NAME_CONNECTORS = word_set("of on the for and in at de")
# spaCy NER labels that make a capitalised word a name whatever its dictionary sense.
NAME_LABELS = frozenset({"PERSON", "ORG", "GPE", "LOC", "FAC", "PRODUCT", "WORK_OF_ART", "EVENT"})
# spaCy NER labels of counts and measures: a word of one leading a phrase is its measure ("inch"
# of "14-inch MacBook Pro M3", "second" of "second time").  Not dates: "daily standup" stays.
MEASURE_LABELS = frozenset({"CARDINAL", "ORDINAL", "QUANTITY", "MONEY", "PERCENT"})
# How Mem0's memories name their subject ("User prefers…"): at a sentence start before a plural
# noun WordNet also lists as a verb, it is that verb's subject ("User mentors two engineers").
MEMORY_SUBJECTS = word_set("user assistant")
# Parts of speech of a word that leads a capitalised span without being part of the name
# ("Actually Luca" → Luca).  Not VERB or NUM: the small model tags names so ("MongoDB": NUM).
NOT_NAME_POS = frozenset({"ADV", "INTJ", "CCONJ", "SCONJ", "DET", "ADP", "PART", "PRON", "AUX"})


def _generic_word(word: str) -> bool:
    return word in GENERIC_ACRONYMS or word in CALENDAR_WORDS or word in LANGUAGE_WORDS


def generic_latin(text: str) -> bool:
    """A Latin word or phrase that is no name: a generic word or acronym, a month or weekday,
    a language, or a phrase made only of those and generic heads ("API keys")."""
    words = text.lower().replace("-", " ").split()
    if not words:
        return True
    if len(words) == 1:
        return _generic_word(words[0]) or words[0] in GENERIC_NOUNS_EN
    return all(_generic_word(w) or w in GENERIC_HEADS or w in NAME_CONNECTORS for w in words)


def camel_case(word: str) -> bool:
    """Written like a brand: a capital after a small letter (GitHub, JetBrains, gRPC)."""
    return any(a.islower() and b.isupper() for a, b in zip(word, word[1:], strict=False))


# --- English: Mem0's candidates, filtered ---------------------------------------------------------
@lru_cache(maxsize=2)
def _wordnet(nlp: Any, pos: str) -> frozenset[str]:
    """WordNet's words of a part of speech (``adj``, ``verb``), as the pinned spaCy model's
    lemmatizer ships them (no download)."""
    table = nlp.get_pipe("lemmatizer").lookups.get_table("lemma_index")
    return frozenset(table[pos])


def english_entities(doc: Any, nlp: Any, mem0_entities: Any) -> list[Entity]:
    """Mem0's entity candidates of a spaCy ``doc`` (``nlp`` is its pipeline), without those
    that are no name, resolved by Mem0's own rules (priority, then overlap).  The engine passes
    Mem0's ``entity_extraction`` module in: only the engine imports Mem0."""
    tokens = list(doc)
    candidates: list[Any] = []
    mem0_entities._add_ner_candidates(doc, candidates)
    mem0_entities._add_technical_identifier_candidates(tokens, candidates)
    mem0_entities._add_proper_name_candidates(tokens, candidates)
    mem0_entities._add_quoted_candidates(doc.text, candidates)
    mem0_entities._add_topic_phrase_candidates(doc, candidates)
    for start, end in model_names(tokens):
        text = "".join(t.text_with_ws for t in tokens[start:end]).strip()
        mem0_entities._add_candidate(candidates, "PROPER", text, "model_name", start, end, 0.95, 0)
    adjectives, verbs = _wordnet(nlp, "adj"), _wordnet(nlp, "verb")
    kept = []
    for candidate in candidates:
        cleaned = _english_candidate(candidate, doc, adjectives, verbs)
        if cleaned is not None:
            kept.append(cleaned)
    return list(mem0_entities._resolve_candidates(kept))


def _english_candidate(
    candidate: Any, doc: Any, adjectives: frozenset[str], verbs: frozenset[str]
) -> Any | None:
    """The candidate as a name (its leading non-name words trimmed), or None."""
    if NOT_IN_NAMES.search(candidate.text):
        return None
    if candidate.start < 0:  # quoted: the user named it
        return None if generic_latin(candidate.text) else candidate
    span = list(doc[candidate.start : candidate.end])
    while span and (span[0].is_punct or span[-1].is_punct):  # a title's quotes
        span = span[1:] if span[0].is_punct else span[:-1]
    if not span:
        return None
    if len(span) == 1 and _names_an_event(span[0]):
        return candidate
    if generic_latin(candidate.text):
        return None
    if candidate.entity_type == "TOPIC":
        return _english_topic(candidate, span, adjectives, verbs)
    while len(span) > 1 and (span[0].pos_ in NOT_NAME_POS or not _capitalised(span[0].text)):
        span = span[1:]
    span = _before_count(span)
    if len(span) == 1 and _not_a_name(span[0], adjectives):
        return None
    return _written(candidate, _with_model_number(span))


def _english_topic(
    candidate: Any, span: list[Any], adjectives: frozenset[str], verbs: frozenset[str]
) -> Any | None:
    """A noun phrase Mem0 offered as a topic: None when generic, the name it holds when its
    other words only describe the name ("white Tesla Model 3"), else the phrase as written."""
    if _generic_phrase(span, adjectives) or _verb_read_as_noun(span, verbs):
        return None
    trimmed = span
    # "inch" of "14-inch"; a capitalised word spaCy labels so stays ("Retros" of "Retros space")
    while trimmed and trimmed[0].ent_type_ in MEASURE_LABELS and trimmed[0].text.islower():
        trimmed = trimmed[1:]
    if not trimmed or (len(trimmed) == 1 and trimmed[0].text.islower()):
        return None  # a common noun alone: "rule" of "Team rule", "time" of "second time"
    name = _name_after_modifiers(trimmed)
    if name is not None:
        if len(name) == 1 and _not_a_name(name[0], adjectives):
            return None
        return _written(candidate, _with_model_number(name))
    words = " ".join(t.text for t in trimmed if not t.is_punct)
    if candidate.text == words or candidate.text.endswith(" " + words):
        return _written(candidate, _with_model_number(trimmed))  # hyphens kept: "Data-Intensive"
    return candidate if trimmed == span else None


def _capitalised(word: str) -> bool:
    """Written as a name: a capital first, or a brand's capital inside (iPhone, macOS)."""
    return word[:1].isupper() or camel_case(word)


# A model number: digits, with a version's dots ("15", "8", "3.12").
MODEL_NUMBER = re.compile(r"\d+(?:\.\d+)*")


def _counts_what_follows(number: Any) -> bool:
    """A number that counts the lower-case noun after it ("3 hours", "2 cats"), not a name."""
    head = number.head
    return head.i > number.i and head.pos_ == "NOUN" and head.text.islower()


def model_names(tokens: list[Any]) -> list[tuple[int, int]]:
    """Spans of product names with their model number ("iPhone 15 Pro", "Pixel 8", "Apple
    Watch Series 9"): proper nouns written as names, a number right after them, and the
    capitalised words that follow it (a model's suffix: Pro, Max, Ultra).  spaCy cuts them
    (it reads "Pro" as a noun, the 8 of "Pixel 8" as a date); a month's day ("March 3") and a
    count of what follows ("Elden Ring 3 hours") are no model."""
    spans: list[tuple[int, int]] = []
    for number in tokens:
        at = number.i
        if at == 0 or not MODEL_NUMBER.fullmatch(number.text) or _counts_what_follows(number):
            continue
        start = at
        while start > 0 and _brand_word(tokens[start - 1]):
            start -= 1
        if start == at:
            continue
        end = at + 1
        while end < len(tokens) and _model_suffix(tokens[end]):
            end += 1
        spans.append((start, end))
    return spans


def _brand_word(token: Any) -> bool:
    """A word of a product's name before its number: a proper noun written as a name, not a
    month, a weekday or a generic word."""
    return (
        token.pos_ == "PROPN"
        and _capitalised(token.text)
        and token.text.isalpha()
        and not generic_latin(token.text)
    )


def _model_suffix(token: Any) -> bool:
    """A capitalised word after a model number that is part of the model (Pro, Max, Ultra)."""
    return (
        token.text.isalpha()
        and token.text[:1].isupper()
        and not token.is_sent_start
        and token.pos_ in {"PROPN", "NOUN", "ADJ"}
        and token.text.lower() not in FUNCTION_WORDS_EN
    )


def _before_count(span: list[Any]) -> list[Any]:
    """A name without the count NER ran into after it ("Elden Ring" of "Elden Ring 3 hours")."""
    for at, token in enumerate(span[1:], start=1):
        if token.like_num and _counts_what_follows(token):
            return span[:at]
    return span


def _written(candidate: Any, span: list[Any]) -> Any | None:
    """The candidate as the text of ``span`` (a name written as in the text), or None when
    that is too short or generic."""
    from dataclasses import replace

    text = "".join(t.text_with_ws for t in span).strip()
    if text == candidate.text and span[0].i == candidate.start:
        return candidate
    if len(text) <= 2 or generic_latin(text):
        return None
    return replace(candidate, text=text, start=span[0].i, end=span[-1].i + 1)


def _name_after_modifiers(span: list[Any]) -> list[Any] | None:
    """The name a phrase holds, when only lower-case words lead it: an adjective, a role or a
    verb spaCy took for a noun ("white Tesla Model", "senior engineer Luca", "contact Dana
    Whitfield"), and maybe a lower-case noun of its kind ends it ("mechanical Keychron K2
    keyboard").  A name is proper nouns (a model's number and code: "3", "K2"); "billing API"
    (API a noun here) is a phrase of its own."""
    lead = 0
    while lead < len(span) and not span[lead].text[:1].isupper():
        lead += 1
    rest = span[lead:]
    while len(rest) > 1 and rest[-1].pos_ == "NOUN" and rest[-1].text.islower():
        rest = rest[:-1]
    if lead == 0 or not rest or rest[0].pos_ != "PROPN":
        return None
    return rest if all(t.pos_ == "PROPN" or t.like_num or _model_code(t) for t in rest) else None


def _model_code(token: Any) -> bool:
    """A model's code: capitals and digits in one word (K2, X1, M3)."""
    text = token.text
    return text.isalnum() and text[:1].isupper() and any(c.isdigit() for c in text)


def _with_model_number(span: list[Any]) -> list[Any]:
    """The name with the number that ends it when the parse cut it off ("Tesla Model" of
    "Tesla Model 3"): the next token, a number counting the name's last word or inside the
    same named entity."""
    last = span[-1]
    if last.i + 1 >= len(last.doc):
        return span
    number = last.doc[last.i + 1]
    if not (number.like_num or number.pos_ == "NUM") or _counts_what_follows(number):
        return span
    counts_it = number.dep_ == "nummod" and number.head.i == last.i
    same_name = number.ent_iob_ == "I" and last.ent_type_ in NAME_LABELS
    return [*span, number] if counts_it or same_name else span


def _verb_read_as_noun(span: list[Any], verbs: frozenset[str]) -> bool:
    """The memory's subject and its verb, which spaCy read as a compound of a plural noun
    ("User mentors two junior engineers", "User reviews pull requests"); a plural noun an
    auxiliary follows is a noun ("User interviews are on Friday")."""
    if len(span) < 2 or span[0].text.lower() not in MEMORY_SUBJECTS or not span[0].is_sent_start:
        return False
    word = span[1]
    if word.tag_ != "NNS" or word.lemma_.lower() not in verbs:
        return False
    after = word.doc[word.i + 1] if word.i + 1 < len(word.doc) else None
    return after is None or after.pos_ != "AUX"


def _names_an_event(token: Any) -> bool:
    """A month or weekday that names what follows it ("the March outage"), as people call an
    event; on its own ("every Monday in March") it is a date."""
    return (
        token.text.lower() in CALENDAR_WORDS
        and token.dep_ == "compound"
        and token.head.pos_ == "NOUN"
        and token.head.i > token.i
    )


def _modifies_generic_head(token: Any) -> bool:
    """An acronym that only says what kind a generic thing is ("API keys", "JSON format")."""
    return (
        token.text.isupper()
        and len(token.text) <= 5
        and token.dep_ in {"compound", "amod"}
        and token.head.i > token.i
        and token.head.lemma_.lower() in GENERIC_HEADS
    )


def _not_a_name(token: Any, adjectives: frozenset[str]) -> bool:
    """One capitalised word that is an ordinary word: an interjection ("Ugh"), a language, or
    an adjective capitalised as a modifier ("Dark mode") or by a sentence start ("Rainy")."""
    lower = token.text.lower()
    if token.pos_ == "INTJ" or lower in LANGUAGE_WORDS or lower in FUNCTION_WORDS_EN:
        return True
    if _modifies_generic_head(token):
        return True
    if token.ent_type_ in NAME_LABELS:
        return False
    if lower not in adjectives or token.text[1:] != lower[1:]:
        return False  # not an adjective, or written like a name (GitHub, iOS)
    modifier = token.dep_ in {"amod", "compound"} and token.head.pos_ == "NOUN"
    return token.pos_ == "ADJ" or modifier or token.is_sent_start


def _kind_of_things(head: Any, modifiers: list[Any], adjectives: frozenset[str]) -> bool:
    """Adjectives (WordNet's, in use) before a plural common noun, all lower case ("junior
    engineers", "spicy foods"): people or things of a kind, not one a person clicks.  Not a
    noun spaCy tagged an adjective ("webhook handlers")."""
    return (
        bool(modifiers)
        and head.tag_ == "NNS"
        and all(t.pos_ == "ADJ" and t.text in adjectives for t in modifiers)
        and all(t.text.islower() for t in [*modifiers, head])
    )


def _generic_phrase(span: list[Any], adjectives: frozenset[str]) -> bool:
    """A noun phrase naming a kind of thing, not a thing: one holding a language ("English
    summaries"), adjectives before a plural noun ("junior engineers"), or a generic head with
    only adjectives or generic words before it ("Dark mode", "API keys", "weekly reports")."""
    words = [t for t in span if t.pos_ not in {"DET", "PUNCT", "PART"}]
    if not words:
        return True
    if any(
        t.ent_type_ == "LANGUAGE"
        or (t.ent_type_ == "NORP" and t.pos_ == "ADJ")
        or t.text.lower() in LANGUAGE_WORDS
        for t in words
    ):
        return True
    head, modifiers = words[-1], words[:-1]
    if _kind_of_things(head, modifiers, adjectives):
        return True
    if head.lemma_.lower() not in GENERIC_HEADS and not _generic_word(head.text.lower()):
        return False
    return all(
        t.pos_ == "ADJ"
        or t.dep_ == "amod"
        or t.text.lower() in adjectives
        or generic_latin(t.text)
        or _modifies_generic_head(t)
        or t.lemma_.lower() in GENERIC_HEADS
        for t in modifiers
    )


# --- Chinese -------------------------------------------------------------------------------------
# Single-character family names (the commonest few hundred; 和 left out: it is "and" far more
# often) and compound ones.
SURNAMES = frozenset(
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程"
    "苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝"
    "龚邵万钱严覃武戴莫孔向汤常温康施文牛樊葛邢安齐易乔伍庞颜倪庄聂章鲁岳翟殷詹申欧耿关兰焦俞"
    "左柳甘祝包宁尚符舒阮柯纪梅童凌毕单季裴霍涂成苗谷盛曲翁冉骆蓝路游辛靳管柴蒙鲍华喻祁蒲房滕"
    "屈饶解牟艾尤阳时穆农司卓古吉缪简车项连芦麦褚娄窦戚岑景党宫费卜冷晏席卫米柏宗瞿桂全佟应臧"
    "闵苟邬边卞姬师仇栾隋商刁沙荣巫寇桑郎甄丛仲虞敖巩明佘池查麻苑迟邝萧"
)
COMPOUND_SURNAMES = word_set(
    "欧阳 司马 上官 诸葛 东方 皇甫 慕容 令狐 司徒 尉迟 长孙 宇文 夏侯 公孙"
)
# How people are called after their family name: 宋老师, 张总, 林姐.
TITLES = word_set("老师 总 姐 哥 师傅 医生 经理 主任 阿姨 叔叔 先生 女士 小姐 老板 教授 博士 律师")
# Characters that open or close a phrase, never a name: a word jieba's HMM made of one of them
# and its neighbours is a fragment (和运维 of 部署和运维, 别太高, 由林姐).
FUNCTION_CHARS = frozenset(
    "和与及跟同由被把将在从对向给让为是的了也都就还又很别不没太最更有这那着过吧呢吗啊呀啦么"
)
# Words jieba tags as nouns that end no topic: adverbs and verbs in use (画图优先, 文档批量,
# 四栏整理, 报告统一), locatives and "time" (总结时, 项目群里).
ZH_RUN_BREAKS = word_set(
    "优先 批量 整理 统一 为主 一律 全部 全都 有点 免费 时 时候 里 中 上 下 前 后 内 外 间"
)
# What one does at a place, said after it: 在蓝鲸科技工作, 在北京大学读书, 在杭州生活.  jieba tags
# some as nouns or verbal nouns (工作, 供职, 读书, 上学, 生活, 效力), which glued them to the place
# (蓝鲸科技工作), the others as verbs, which end a run already.  At a run's end such a word is the
# verb, not part of the name; before a noun it stays (工作电脑).  Not 办公, 创业, 服务 or 培训:
# 远程办公, 互联网创业, 支付服务 and 新人培训 are things people name.
ZH_PLACE_VERBS = word_set(
    "工作 供职 任职 就职 上班 实习 兼职 打工 读书 上学 就读 求学 生活 居住 定居 效力"
)
# A quoted span ending on one of these is a heading the user quoted (“操作步骤”“常见问题”“待办”),
# not a name.
ZH_HEADING_WORDS = word_set(
    "步骤 问题 场景 计划 进展 结论 风险 待办 事项 时间 说明 备注 总结 要求 原则 流程 部分 内容"
)
# A quoted word this common in jieba's dictionary, with no proper-noun tag, is a heading the user
# quoted (“风险”“结论”“负责人”), not a name: 青鸟 (60), 速记 (43) stay, 风险 (4042) does not.
COMMON_WORD_FREQ = 1000
PROPER_FLAGS = ("nr", "ns", "nt", "nz")


def in_dictionary(word: str) -> bool:
    """jieba knows the word (its dictionary or the words we add), rather than its HMM making
    it up from characters it could not place."""
    return bool(jieba.dt.FREQ.get(word))


def is_chinese_name(word: str) -> bool:
    """A word that reads as a person's name: 2–3 characters opening with a family name (王磊,
    钱坤, 欧阳娜娜), a surname after 小/老 (小周, 老杨), anything after 阿 (阿禾)."""
    if len(word) < 2:
        return False
    if word[:2] in COMPOUND_SURNAMES:
        return 3 <= len(word) <= 4
    if word[0] in "小老":
        return len(word) == 2 and word[1] in SURNAMES
    if word[0] == "阿":
        return len(word) == 2
    return word[0] in SURNAMES and len(word) <= 3


@lru_cache(maxsize=1)
def misread_persons() -> frozenset[str]:
    """The words jieba's dictionary tags as a person's name (``nr``) that are none: those
    CC-CEDICT lists only as ordinary words (过敏, 矫正, 幼儿园, 乌龙茶), and those of three
    characters it does not list whose first two are a verb of its own ("to link": 连接 of 连接池,
    陈列 of 陈列馆).  A name CC-CEDICT knows (李娜, 周杰伦) or does not know (孙海涛) keeps its
    tag, and so does an ordinary word of two characters that reads as a person's name (汪洋,
    萧然, 丁宁: people are named with words); a dictionary's frequency tells nothing (韦小宝 is as
    common as 过敏).  Read once per process
    (``nlp.configure`` warms it)."""
    tagged = {w for w, t in jieba.posseg.dt.word_tag_tab.items() if t.startswith("nr")}
    wanted = tagged | {w[:2] for w in tagged if len(w) == 3}
    proper: set[str] = set()
    verbs: dict[str, bool] = {}  # an ordinary entry's word -> every such entry is a verb
    for entry in entries():
        word = entry.simplified
        if word not in wanted:
            continue
        if entry.proper:
            proper.add(word)
        else:
            verbs[word] = verbs.get(word, True) and entry.senses[0].startswith("to ")
    ordinary = {
        w
        for w in verbs
        if w in tagged and w not in proper and not (len(w) == 2 and is_chinese_name(w))
    }
    verb_led = {
        w
        for w in tagged
        if len(w) == 3 and w not in proper and w[:2] not in proper and verbs.get(w[:2], False)
    }
    return frozenset(ordinary | verb_led)


def jieba_tag(word: str, flag: str) -> str:
    """jieba's part-of-speech tag of ``word``, a person's-name tag on a word that is none
    (``misread_persons``) read as a common noun's: 过敏 is no name, 花生过敏 stays a topic."""
    return "n" if flag.startswith("nr") and word in misread_persons() else flag


def word_is_known(word: str, flag: str) -> bool:
    """A Chinese word fit to be (part of) an entity: jieba's dictionary holds it, or its HMM
    made up a word that reads as a name — a person's name it tags as one (赵敏, not 边夜 of
    西湖边夜跑), or a proper noun of 2–4 characters that neither opens nor closes with a
    function character (木森, not 和运维)."""
    if in_dictionary(word) or (flag.startswith("nr") and is_chinese_name(word)):
        return True
    return (
        flag.startswith(PROPER_FLAGS)
        and 2 <= len(word) <= 4
        and word[0] not in FUNCTION_CHARS
        and word[-1] not in FUNCTION_CHARS
    )


def common_word(word: str, flag: str) -> bool:
    """A very common dictionary word without a proper-noun tag (风险, 结论, 负责人)."""
    return not flag.startswith(PROPER_FLAGS) and jieba.dt.FREQ.get(word, 0) >= COMMON_WORD_FREQ


def _starts_name(run: list[tuple[str, str]], at: int) -> bool:
    """A name starts at ``at`` of a run of nouns: a person's name jieba tags as one (赵敏,
    孙海涛), a family name and a title (张总), or a proper noun its HMM made up (顺丰).  Not a
    dictionary word it merely tags as a proper noun: it tags 过敏, 矫正 and 满意度 so."""
    word, flag = run[at]
    if flag.startswith("nr") and is_chinese_name(word):
        return True
    if flag.startswith(PROPER_FLAGS) and len(word) >= 2 and not in_dictionary(word):
        return True
    return _opens_person([w for w, _ in run], at)


def _opens_person(words: list[str], at: int) -> bool:
    """A family name and a title or a one-character given name start at ``at`` (宋老师, 钱坤)."""
    return (
        at + 1 < len(words)
        and len(words[at]) == 1
        and words[at] in SURNAMES
        and (words[at + 1] in TITLES or len(words[at + 1]) == 1)
    )


def noun_run_entities(run: list[tuple[str, str]]) -> list[Entity]:
    """A run of adjacent nouns (jieba's ``(word, flag)``) as entities: the common nouns before
    its first name are that name's role or kind (项目负责人赵敏, 客户顺丰: the name is the topic,
    not the run), and a verb of what one does at a place that ends the run is no part of the
    place (蓝鲸科技工作: ``ZH_PLACE_VERBS``); a family name and a title or a one-character given
    name (宋老师, 钱坤) is a person; the run's words together are a topic (代码评审意见) once lone
    characters at its start (四栏整理) are gone."""
    found: list[Entity] = []
    start = next((at for at in range(len(run)) if _starts_name(run, at)), 0)
    words = [word for word, _ in run[start:]]
    while words and words[-1] in ZH_PLACE_VERBS:
        words.pop()
    if _opens_person(words, 0):
        found.append(("PROPER", words[0] + words[1]))
        words = words[2:]
    while words and len(words[0]) == 1:
        words.pop(0)
    if len(words) >= 2:
        topic = "".join(words)
        if len(topic) <= 16:
            found.append(("TOPIC", topic))
    return found


MAX_NAME_WORDS = 4
# Between two Latin words of one name in Chinese text: a hyphen or a dot joins them into one
# word ("Data-Intensive", "WH-1000XM5"), spaces separate its words.
WORD_JOINERS = frozenset({"-", "."})


def latin_runs(pieces: Iterable[tuple[str, str]]) -> list[list[str]]:
    """Runs of Latin words in jieba's pieces of a text, as ``(text, kind)`` with kind ``word``
    (holds a Latin letter), ``digits`` or ``other``: words joined only by spaces are one run
    ("VS Code"); a hyphen, a dot or nothing joins pieces into one word (digits only so)."""
    runs: list[list[str]] = []
    current: list[str] = []
    glue: str | None = None  # what came since the run's last piece; None: nothing
    for text, kind in pieces:
        if kind == "other":
            if current and text and not text.strip(" "):
                glue = (glue or "") + text
            elif current and text in WORD_JOINERS and glue is None:
                glue = text
            else:
                if current:
                    runs.append(current)
                current, glue = [], None
            continue
        if current and (glue is None or glue in WORD_JOINERS):
            current[-1] += (glue or "") + text
        elif current and kind == "word" and glue is not None and not glue.strip(" "):
            current.append(text)
        else:
            if current:
                runs.append(current)
            current = [text] if kind == "word" else []
        glue = None
    if current:
        runs.append(current)
    return runs


def latin_names(words: list[str]) -> list[str]:
    """The names in a run of Latin words from Chinese text: the run as one name ("VS Code",
    "JetBrains Mono") without generic titles or acronyms at its ends ("VP Grace" → Grace), and
    each of its brand-like words alone (GitHub of "GitHub Actions"); none when no word has a
    capital letter or a digit, or the run is a generic word or an English function word."""
    for before, word, after in zip(words, words[1:], [*words[2:], ""], strict=False):
        # "Ruby on Rails" is a name, "Send me the slides" a sentence.
        joins = word in NAME_CONNECTORS and before[:1].isupper() and after[:1].isupper()
        if word.lower() in FUNCTION_WORDS_EN and word.islower() and not joins:
            return []
    while words and (words[0].lower() in FUNCTION_WORDS_EN or _generic_word(words[0].lower())):
        words = words[1:]
    while words and (words[-1].lower() in FUNCTION_WORDS_EN or _generic_word(words[-1].lower())):
        words = words[:-1]
    if not words or len(words) > MAX_NAME_WORDS:
        return []
    if not any(any(c.isupper() or c.isdigit() for c in w) for w in words):
        return []
    text = " ".join(words)
    if len(text) < 2 or generic_latin(text):
        return []
    found = [text]
    if len(words) > 1:
        found += [w for w in words if camel_case(w) and not generic_latin(w)]
    return found
